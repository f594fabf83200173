import type { SimulationConnection } from '@pitwall/contracts';
import { AddressNotAllowed, EgressInvalidRequest, ResponseTooLarge, type Egress, type EgressResponse } from '@pitwall/egress';
import { wellFormed } from '@pitwall/service-kit';

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
export const STUDY_MESSAGE_CHARS = 500;

/** The longest study id a job keeps and sends (SIMULATION_MAX_STUDY_ID_CHARS's default): it is in every event and callback. */
export const DEFAULT_MAX_STUDY_ID_CHARS = 200;

/** A result value the setup can take: what the entity store writes into a parameter. */
export type ResultValue = number | string | boolean | null;

/**
 * Control characters but tab and line feed (ESC starts a terminal's escape sequence, CR writes over a line), and the
 * bidirectional embeddings, overrides and isolates (U+202E shows the text after it right to left).
 */
// eslint-disable-next-line no-control-regex
const HIDING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text of the external system made fit for a Text parameter, and for a terminal or a log that prints it: at most
 * `maxChars` UTF-16 units, cut between two code points (never inside a surrogate pair), with NUL and unpaired
 * surrogates (which the entity store refuses), other control characters but tab and line feed, and bidirectional
 * controls as U+FFFD.
 */
export function systemText(text: string, maxChars: number): string {
  let kept = text.length > maxChars ? text.slice(0, maxChars) : text;
  if (kept.length < text.length && /[\uD800-\uDBFF]$/.test(kept)) kept = kept.slice(0, -1);
  return wellFormed(kept).replace(HIDING, '\uFFFD');
}

/**
 * Why a study id (from the system's create answer, or a setup parameter of a Reprocess) cannot be used, or null. It is
 * sent as a path segment (`/studies/{id}`), stored, and carried by every event and callback of the job: it must be
 * short, printable text, and never `.` or `..` (which URL resolution turns into another path of the system's API).
 */
export function studyIdRefusal(studyId: string, maxChars: number): string | null {
  if (studyId === '') return 'it is empty';
  if (studyId.length > maxChars) return `it is longer than ${maxChars} characters (SIMULATION_MAX_STUDY_ID_CHARS)`;
  if (studyId === '.' || studyId === '..') return `'${studyId}' would name another path of the system's API`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(studyId)) return 'it holds control characters';
  if (wellFormed(studyId) !== studyId) return 'it holds unpaired surrogates';
  return null;
}

/** Why a profile's BaseUrl cannot be called (not an absolute http:// or https:// URL with a host), or null. */
export function baseUrlRefusal(baseUrl: string): string | null {
  // The URL parser drops CR, LF and tabs inside a URL: the URL called would not be the one written (a connection's and a
  // callback's URL are refused so at their write; a profile is an entity, checked here; its values are read trimmed).
  if (/[\r\n\t]/.test(baseUrl)) return "The simulation profile's BaseUrl holds CR, LF or tabs, which a URL cannot: write it without them";
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    return "The simulation profile's BaseUrl is not an absolute http:// or https:// URL";
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `The simulation profile's BaseUrl is not an http:// or https:// URL (its scheme is ${parsed.protocol})`;
  if (!parsed.hostname) return "The simulation profile's BaseUrl names no host";
  return null;
}

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
    /** SIMULATION_MAX_STUDY_ID_CHARS. */
    private readonly maxStudyIdChars: number = DEFAULT_MAX_STUDY_ID_CHARS,
  ) {}

  /** `idempotencyKey`: the same key names the same study, so a repeated create (after a crash) makes no second one. */
  async createStudy(name: string, parameters: Record<string, unknown>, idempotencyKey?: string): Promise<string> {
    const body = await this.call<{ studyId?: unknown }>('POST', '/studies', { name, parameters }, idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {});
    // An answer without a usable id is the system's final word on this create (the same key would answer the same):
    // refused at once, like an id that cannot be used, not retried.
    const answered = `The simulation system answered ${this.callName('POST', '/studies')}`;
    if (body.studyId === undefined || body.studyId === null) throw new ExternalRefusal(`${answered} with no studyId`);
    if (typeof body.studyId !== 'string') throw new ExternalRefusal(`${answered} with a studyId that is not a string (${jsonKind(body.studyId)})`);
    const refusal = studyIdRefusal(body.studyId, this.maxStudyIdChars);
    if (refusal) throw new ExternalRefusal(`${answered} with a study id that cannot be used: ${refusal}`);
    return body.studyId;
  }

  async studyStatus(studyId: string): Promise<StudyStatus> {
    this.checkStudyId(studyId);
    const body = await this.call<{ status?: unknown; message?: unknown }>('GET', `/studies/${encodeURIComponent(studyId)}`);
    const state = body.status;
    if (state !== 'queued' && state !== 'running' && state !== 'completed' && state !== 'failed') throw new ExternalUnavailable('The simulation system reported a study status that is none of queued, running, completed or failed');
    return { state, message: typeof body.message === 'string' ? systemText(body.message, STUDY_MESSAGE_CHARS) : null };
  }

  /**
   * The study's result values of these names (those the profile writes back; other keys are not looked at). A value
   * that is not a number, text, true/false or null (an array, an object) is a refusal naming its key.
   */
  async results(studyId: string, names: readonly string[]): Promise<Record<string, ResultValue>> {
    this.checkStudyId(studyId);
    const body = await this.call<{ results?: unknown }>('GET', `/studies/${encodeURIComponent(studyId)}/results`);
    const all = typeof body.results === 'object' && body.results !== null && !Array.isArray(body.results) ? (body.results as Record<string, unknown>) : {};
    const values: Record<string, ResultValue> = {};
    for (const name of names) {
      if (!Object.hasOwn(all, name)) continue;
      const value = all[name];
      if (value !== null && typeof value !== 'number' && typeof value !== 'string' && typeof value !== 'boolean') {
        throw new ExternalRefusal(`The simulation system answered ${this.callName('GET', '/studies/{id}/results')} with a value of ${systemText(name, 100)} that is not a number, text, true/false or null`);
      }
      values[name] = value;
    }
    return values;
  }

  /** A study id this client would not send (a Reprocess's from a job stored before the check existed). */
  private checkStudyId(studyId: string): void {
    const refusal = studyIdRefusal(studyId, this.maxStudyIdChars);
    if (refusal) throw new ExternalRefusal(`The study id cannot be sent to the simulation system: ${refusal}`);
  }

  private async authorize(): Promise<string> {
    if (this.token) return this.token;
    const { clientId, clientSecret, username, password } = this.credentials;
    const body = await this.send<{ access_token?: unknown }>('POST', '/oauth/token', { grant_type: 'password', client_id: clientId, client_secret: clientSecret, username, password }, null);
    if (typeof body.access_token !== 'string') throw new ExternalUnavailable(`The simulation system answered ${this.callName('POST', '/oauth/token')} without a token`);
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

  /** The URL a call of `path` (relative to the BaseUrl, whose own path it goes under) is sent to. */
  private urlOf(path: string): URL {
    return new URL(path.replace(/^\//, ''), this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
  }

  /**
   * A call as messages name it: the method and the path actually requested (the BaseUrl's own path included, e.g.
   * `POST /sim/oauth/token`), a study id as `{id}`, the BaseUrl's path cut to 200 characters.
   */
  private callName(method: string, path: string): string {
    let base = '';
    try {
      base = systemText(this.urlOf('').pathname.replace(/\/$/, ''), 200);
    } catch {
      // A BaseUrl that cannot be parsed is refused before any call: its calls are named by their own path.
    }
    return `${method} ${base}${path.replace(/^\/studies\/[^/]+/, '/studies/{id}')}`;
  }

  private async send<T>(method: string, path: string, body: unknown, token: string | null, headers: Record<string, string> = {}): Promise<T> {
    const baseRefusal = baseUrlRefusal(this.baseUrl);
    if (baseRefusal) throw new ExternalRefusal(`The simulation system was not called: ${baseRefusal}`);
    const call = this.callName(method, path);
    let response: EgressResponse;
    try {
      response = await this.egress.request(this.urlOf(path), {
        method,
        headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs: this.timeoutMs,
      });
    } catch (err) {
      // A refused address, or a request that cannot be sent as given: the same call would be refused again.
      if (err instanceof AddressNotAllowed || err instanceof EgressInvalidRequest) throw new ExternalRefusal(`The simulation system was not called: ${err.message}`);
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

/** What a JSON value is, in words: `a number`, `true/false`, `an array`, `an object`. */
function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return 'true/false';
  return typeof value === 'object' ? 'an object' : typeof value;
}

/** A 401 to a call with a token: asked for again once; a second is a refusal like any 4xx. */
class ExpiredToken extends ExternalRefusal {}
