import type { SimulationConnection } from '@pitwall/contracts';
import { AddressNotAllowed, ResponseTooLarge, type Egress, type EgressResponse } from '@pitwall/egress';

/**
 * The external system refused (4xx, a redirect, an address the policy refuses): retrying the same call will not help.
 * Messages here are the service's own words: no byte of the system's answer is ever in them (a reader sees them).
 */
export class ExternalRefusal extends Error {}
/** The external system failed for now (5xx, no answer, timeout): the call may be retried. */
export class ExternalUnavailable extends Error {}

export type StudyState = 'queued' | 'running' | 'completed' | 'failed';

export interface StudyStatus {
  state: StudyState;
  message: string | null;
}

/** Characters of a study's own status message (a field of its status, not an error body) kept. */
const STUDY_MESSAGE_CHARS = 500;

/**
 * The adapter to the external vehicle-simulation system's HTTP API, through the egress policy: a token from the
 * account's credentials (`POST /oauth/token`), a study created from a setup's parameters (`POST /studies`), its status
 * polled (`GET /studies/{id}`) and its results fetched (`GET /studies/{id}/results`).
 */
export class ExternalSimulationClient {
  private token: string | null = null;

  constructor(
    private readonly egress: Egress,
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
    if (state !== 'queued' && state !== 'running' && state !== 'completed' && state !== 'failed') throw new ExternalUnavailable('The simulation system reported a study status that is none of queued, running, completed or failed');
    return { state, message: typeof body.message === 'string' ? body.message.slice(0, STUDY_MESSAGE_CHARS) : null };
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
    const call = `${method} ${path.replace(/\/studies\/[^/]+/, '/studies/{id}')}`;
    let response: EgressResponse;
    try {
      response = await this.egress.request(new URL(path.replace(/^\//, ''), this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`), {
        method,
        headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs: this.timeoutMs,
      });
    } catch (err) {
      if (err instanceof AddressNotAllowed) throw new ExternalRefusal(`The simulation system was not called: ${err.message}`);
      if (err instanceof ResponseTooLarge) {
        const tooLong = `The simulation system answered ${err.status} to ${call} with more than ${err.limitBytes} bytes (EGRESS_MAX_RESPONSE_BYTES); the answer was not read`;
        // A long error page of a passing outage is retried like the outage itself; a long answer to a call is a refusal.
        throw err.status >= 500 || err.status === 429 ? new ExternalUnavailable(tooLong) : new ExternalRefusal(tooLong);
      }
      throw new ExternalUnavailable(`The simulation system did not answer ${call}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const answered = `The simulation system answered ${response.status} ${response.statusText} to ${call}`;
    if (response.status >= 300 && response.status < 400) throw new ExternalRefusal(`${answered} (a redirect, which is not followed)`);
    if (response.status === 401 && token) throw new ExpiredToken(answered);
    if (response.status >= 500 || response.status === 429) throw new ExternalUnavailable(answered);
    if (response.status < 200 || response.status >= 300) throw new ExternalRefusal(answered);
    try {
      return ((response.body.length ? JSON.parse(response.body.toString('utf8')) : null) ?? {}) as T;
    } catch {
      throw new ExternalUnavailable(`The simulation system answered ${call} with a body that is not JSON`);
    }
  }
}

/** A 401 to a call with a token: asked for again once; a second is a refusal like any 4xx. */
class ExpiredToken extends ExternalRefusal {}
