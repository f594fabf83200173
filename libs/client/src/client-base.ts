import { CHANNELS_MEDIA_TYPE, type ChannelSeries } from '@pitwall/channels';
import { decodeChannelsBody } from './channels';
/** The wrappers' result convention: a failed call reports success false, a message and the HTTP status. */
export interface ClientResult<T> {
  success: boolean;
  message: string;
  statusCode: number;
  returnValue: T | null;
  /** The problem+json body of a failed call, when there was one. */
  problem?: { title?: string; detail?: string; errors?: Record<string, string[]>; traceId?: string };
}

export type Include = string | readonly string[];

export interface PitwallClientOptions {
  baseUrl: string;
  apiKey: string;
  accountId: string;
  /** Per-call timeout in ms (default 30 s). */
  timeoutMs?: number;
  /** Sent as X-Request-Id with every call when set. */
  requestId?: () => string;
}

export interface RequestOptions {
  query?: Record<string, string | readonly string[] | undefined>;
  body?: unknown;
  accept?: string;
  /** A success that is not JSON comes back as its bytes (a Uint8Array). */
  raw?: boolean;
}

/** What a channel read's options and arguments put in the query. */
interface ChannelReadQuery {
  channel?: string;
  lapIndex?: number;
  start?: number;
  duration?: number;
  maxPoints?: number;
  binary?: boolean;
}

/** HTTP plumbing shared by the generated per-entity methods. */
export class ClientBase {
  constructor(protected readonly options: PitwallClientOptions) {}

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<ClientResult<T>> {
    const url = new URL(path.replace(/^\//, ''), this.options.baseUrl.endsWith('/') ? this.options.baseUrl : `${this.options.baseUrl}/`);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value === undefined) continue;
      for (const v of typeof value === 'string' ? [value] : value) url.searchParams.append(key, v);
    }
    const headers: Record<string, string> = { ApiKey: this.options.apiKey, AccountId: this.options.accountId, Accept: options.accept ?? 'application/json' };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const requestId = this.options.requestId?.();
    if (requestId) headers['X-Request-Id'] = requestId;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
    } catch (err) {
      return { success: false, message: `The request did not complete: ${err instanceof Error ? err.message : String(err)}`, statusCode: 0, returnValue: null };
    }
    const type = response.headers.get('content-type') ?? '';
    if (options.raw && response.ok && !type.includes('json')) {
      return { success: true, message: response.statusText || 'OK', statusCode: response.status, returnValue: new Uint8Array(await response.arrayBuffer()) as T };
    }
    const text = await response.text();
    let parsed: unknown = text || null;
    if (text && type.includes('json')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        return { success: false, message: `The ${response.status} answer says it is JSON but is not`, statusCode: response.status, returnValue: null };
      }
    }
    if (response.ok) return { success: true, message: response.statusText || 'OK', statusCode: response.status, returnValue: parsed as T };
    const problem = (typeof parsed === 'object' && parsed ? parsed : {}) as NonNullable<ClientResult<T>['problem']>;
    return { success: false, message: problem.detail ?? problem.title ?? response.statusText, statusCode: response.status, returnValue: null, problem };
  }

  /**
   * A channel read: scope and maxPoints as query values; with `binary` the binary body is asked for and decoded
   * (samples are views on the response, no copy), else the JSON answer.
   */
  protected async channelRead<T>(method: string, template: string, params: Record<string, string>, options: ChannelReadQuery, body?: unknown): Promise<ClientResult<T | ChannelSeries[]>> {
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
    const query: Record<string, string> = {};
    for (const key of ['channel', 'lapIndex', 'start', 'duration', 'maxPoints'] as const) if (options[key] !== undefined) query[key] = String(options[key]);
    if (!options.binary) return this.request<T>(method, path, { query, ...(body === undefined ? {} : { body }) });
    const result = await this.request<unknown>(method, path, { query, ...(body === undefined ? {} : { body }), accept: CHANNELS_MEDIA_TYPE, raw: true });
    if (!result.success || !(result.returnValue instanceof Uint8Array)) return result as ClientResult<never>;
    return { ...result, returnValue: decodeChannelsBody(result.returnValue) };
  }

  /** One operation of the table: `{name}` in the path template filled from `params`, query values that are set, and the body. */
  protected call<T>(method: string, template: string, params: Record<string, string>, query: Record<string, string | readonly string[] | undefined>, body?: unknown): Promise<ClientResult<T>> {
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
    return this.request(method, path, { query, ...(body === undefined ? {} : { body }) });
  }
}

/** `parametersToInclude` as the query wants it: one comma-separated value. */
export function includeQuery(include: Include | undefined): Record<string, string> {
  if (include === undefined) return {};
  return { parametersToInclude: typeof include === 'string' ? include : include.join(',') };
}
