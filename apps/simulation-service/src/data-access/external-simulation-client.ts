import type { SimulationConnection } from '@pitwall/contracts';

/** The external system refused (4xx): retrying the same call will not help; the message is its reason. */
export class ExternalRefusal extends Error {}
/** The external system failed for now (5xx, no answer, timeout): the call may be retried. */
export class ExternalUnavailable extends Error {}

export type StudyState = 'queued' | 'running' | 'completed' | 'failed';

export interface StudyStatus {
  state: StudyState;
  message: string | null;
}

/**
 * The adapter to the external vehicle-simulation system's HTTP API: a token from the account's credentials
 * (`POST /oauth/token`), a study created from a setup's parameters (`POST /studies`), its status polled
 * (`GET /studies/{id}`) and its results fetched (`GET /studies/{id}/results`).
 */
export class ExternalSimulationClient {
  private token: string | null = null;

  constructor(
    private readonly baseUrl: string,
    private readonly credentials: SimulationConnection,
    private readonly timeoutMs: number,
  ) {}

  /** `idempotencyKey`: the same key names the same study, so a repeated create (after a crash) makes no second one. */
  async createStudy(name: string, parameters: Record<string, unknown>, idempotencyKey?: string): Promise<string> {
    const body = await this.call<{ studyId?: unknown }>('POST', '/studies', { name, parameters }, idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {});
    if (typeof body.studyId !== 'string' || !body.studyId) throw new ExternalUnavailable('The external system created a study without an id');
    return body.studyId;
  }

  async studyStatus(studyId: string): Promise<StudyStatus> {
    const body = await this.call<{ status?: unknown; message?: unknown }>('GET', `/studies/${encodeURIComponent(studyId)}`);
    const state = body.status;
    if (state !== 'queued' && state !== 'running' && state !== 'completed' && state !== 'failed') throw new ExternalUnavailable(`The external system reported an unknown study status ${JSON.stringify(state)}`);
    return { state, message: typeof body.message === 'string' ? body.message : null };
  }

  async results(studyId: string): Promise<Record<string, unknown>> {
    const body = await this.call<{ results?: unknown }>('GET', `/studies/${encodeURIComponent(studyId)}/results`);
    return typeof body.results === 'object' && body.results !== null ? (body.results as Record<string, unknown>) : {};
  }

  private async authorize(): Promise<string> {
    if (this.token) return this.token;
    const { clientId, clientSecret, username, password } = this.credentials;
    const body = await this.send<{ access_token?: unknown }>('POST', '/oauth/token', { grant_type: 'password', client_id: clientId, client_secret: clientSecret, username, password }, null);
    if (typeof body.access_token !== 'string') throw new ExternalUnavailable('The external system answered the token request without a token');
    this.token = body.access_token;
    return this.token;
  }

  private async call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const token = await this.authorize();
    try {
      return await this.send<T>(method, path, body, token, headers);
    } catch (err) {
      // An expired token is asked for again once.
      if (!(err instanceof ExpiredToken)) throw err;
      this.token = null;
      return this.send<T>(method, path, body, await this.authorize(), headers);
    }
  }

  private async send<T>(method: string, path: string, body: unknown, token: string | null, headers: Record<string, string> = {}): Promise<T> {
    let response: Response;
    try {
      response = await fetch(new URL(path.replace(/^\//, ''), this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`), {
        method,
        headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new ExternalUnavailable(`The external simulation system did not answer ${method} ${path}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    const reason = typeof (parsed as { message?: unknown } | null)?.message === 'string' ? (parsed as { message: string }).message : text.slice(0, 200) || response.statusText;
    if (response.status === 401 && token) throw new ExpiredToken(reason);
    if (response.status >= 500 || response.status === 429) throw new ExternalUnavailable(`The external simulation system answered ${response.status} to ${method} ${path}: ${reason}`);
    if (!response.ok) throw new ExternalRefusal(reason);
    return (parsed ?? {}) as T;
  }
}

class ExpiredToken extends Error {}
