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
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
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
