import { CHANNELS_MEDIA_TYPE, type ReadSeries } from '@pitwall/channels';
import { ARROW_STREAM_MEDIA_TYPE, type PrepareAttachmentBody } from '@pitwall/contracts';
import { addAttachment, retryAttachment, type AttachedFileRecord, type AttachmentCalls, type AttachmentResult, type AttachmentSource, type UploadBody } from './attachment-upload';
import { decodeChannelsBody } from './channels';
import type { ClientResult } from './client-result';
// The generated client imports the result type with ClientBase.
export type { ClientResult };

export type Include = string | readonly string[];

export interface PitwallClientOptions {
  baseUrl: string;
  apiKey: string;
  accountId: string;
  /** Per-call timeout in ms (default 30 s). */
  timeoutMs?: number;
  /** Sent as X-Request-Id with every call when set. */
  requestId?: () => string;
  /** Timeout of the PUT of an attached file's bytes, in ms (default none: a large file takes as long as it takes). */
  uploadTimeoutMs?: number;
}

export interface RequestOptions {
  query?: Record<string, string | readonly string[] | undefined>;
  body?: unknown;
  accept?: string;
  /** A success that is not JSON comes back as its bytes (a Uint8Array). */
  raw?: boolean;
  /** The AccountId header of this call (default: the client's). */
  accountId?: string;
}

/** What a channel read's options and arguments put in the query. */
interface ChannelReadQuery {
  channel?: string;
  lapIndex?: number;
  start?: number;
  duration?: number;
  maxPoints?: number;
  rate?: number;
  binary?: boolean;
  arrow?: boolean;
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
    const headers: Record<string, string> = { ApiKey: this.options.apiKey, AccountId: options.accountId ?? this.options.accountId, Accept: options.accept ?? 'application/json' };
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
      return { success: false, message: `The request did not complete: ${describeFailure(err)}`, statusCode: 0, returnValue: null };
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
   * (samples are views on the response, no copy), with `arrow` the Arrow IPC stream's bytes (read them with
   * apache-arrow's `tableFromIPC`), else the JSON answer.
   */
  protected async channelRead<T>(method: string, template: string, params: Record<string, string>, options: ChannelReadQuery, body?: unknown): Promise<ClientResult<T | ReadSeries[] | Uint8Array>> {
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
    const query: Record<string, string> = {};
    for (const key of ['channel', 'lapIndex', 'start', 'duration', 'maxPoints', 'rate'] as const) if (options[key] !== undefined) query[key] = String(options[key]);
    if (options.arrow) return this.request<Uint8Array>(method, path, { query, ...(body === undefined ? {} : { body }), accept: ARROW_STREAM_MEDIA_TYPE, raw: true });
    if (!options.binary) return this.request<T>(method, path, { query, ...(body === undefined ? {} : { body }) });
    const result = await this.request<unknown>(method, path, { query, ...(body === undefined ? {} : { body }), accept: CHANNELS_MEDIA_TYPE, raw: true });
    if (!result.success || !(result.returnValue instanceof Uint8Array)) return result as ClientResult<never>;
    return { ...result, returnValue: decodeChannelsBody(result.returnValue) };
  }

  /**
   * The three calls of an upload in one (docs/api.md "Attached files"): prepare the record on `/{plural}/{id}/Attachments`,
   * PUT `bytes` to the signed URL it answers (no ApiKey: the signature is the authority; with `UseCompression` the bytes
   * must already be one LZ4 frame), then finalise it with ServerAttachedFileState "2". The first call that fails is the
   * result; success is the record in state 2.
   */
  async uploadAttachment(plural: string, id: string, bytes: Uint8Array, prepare: PrepareAttachmentBody): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    const template = `/${encodeURIComponent(plural)}/{id}/Attachments`;
    const prepared = await this.call<{ AttachedFileId: string; Url: string }>('POST', template, { id }, {}, prepare);
    if (!prepared.success || !prepared.returnValue) return prepared as ClientResult<never>;
    const put = await this.uploadBytes(prepared.returnValue.Url, bytes);
    if (!put.success) return put as ClientResult<never>;
    return this.call('PUT', `${template}/{attachedFileId}`, { id, attachedFileId: prepared.returnValue.AttachedFileId }, {}, { ParameterUpdates: [{ Name: 'ServerAttachedFileState', Value: '2' }] });
  }

  /** One operation of the table: `{name}` in the path template filled from `params`, query values that are set, and the body. */
  protected call<T>(method: string, template: string, params: Record<string, string>, query: Record<string, string | readonly string[] | undefined>, body?: unknown, accountId?: string): Promise<ClientResult<T>> {
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
    return this.request(method, path, { query, ...(body === undefined ? {} : { body }), ...(accountId === undefined ? {} : { accountId }) });
  }

  /**
   * The one-call upload of an attached file (prepare at `template`, `/{Plural}/{id}/Attachments`; PUT of the bytes to
   * the signed URL, LZ4-compressed when `options.UseCompression`; finalise at `template/{attachedFileId}`).
   */
  protected addAttachment(template: string, accountId: string, entityId: string, options: PrepareAttachmentBody, source: AttachmentSource): Promise<AttachmentResult> {
    return addAttachment(this.attachmentCalls(template, accountId), accountId, entityType(template), entityId, options, source);
  }

  /** Resumes a failed `addAttachment` from the step that failed (see `retryAttachment` in attachment-upload.ts). */
  protected retryAttachment(template: string, result: AttachmentResult, source?: AttachmentSource): Promise<AttachmentResult> {
    return retryAttachment(this.attachmentCalls(template, result.accountId), result, source);
  }

  private attachmentCalls(template: string, accountId: string): AttachmentCalls {
    const file = `${template}/{attachedFileId}`;
    return {
      prepare: (id, body) => this.call('POST', template, { id }, {}, body, accountId),
      finalise: (id, attachedFileId) => this.call('PUT', file, { id, attachedFileId }, {}, { ParameterUpdates: [{ Name: 'ServerAttachedFileState', Value: '2' }] }, accountId),
      list: (id, attachedFileId) => this.call<AttachedFileRecord[]>('GET', template, { id }, { attachedFileIds: attachedFileId }, undefined, accountId),
      remove: (id, attachedFileId) => this.call('DELETE', file, { id, attachedFileId }, {}, undefined, accountId),
      upload: (url, body) => this.uploadBytes(url, body),
    };
  }

  /** PUT of an attached file's bytes to its signed URL: the gateway's or an S3 store's; no ApiKey (the URL is signed). */
  private async uploadBytes(url: string, body: UploadBody): Promise<ClientResult<null>> {
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/octet-stream' },
        body,
        // A streamed body (chunked) needs half-duplex in fetch.
        ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
        ...(this.options.uploadTimeoutMs ? { signal: AbortSignal.timeout(this.options.uploadTimeoutMs) } : {}),
      } as RequestInit);
    } catch (err) {
      return { success: false, message: `The upload did not complete: ${describeFailure(err)}`, statusCode: 0, returnValue: null };
    }
    const text = await response.text().catch(() => '');
    if (response.ok) return { success: true, message: response.statusText || 'OK', statusCode: response.status, returnValue: null };
    let problem: ClientResult<null>['problem'];
    if ((response.headers.get('content-type') ?? '').includes('json')) {
      try {
        problem = JSON.parse(text) as ClientResult<null>['problem'];
      } catch {
        problem = undefined;
      }
    }
    // An S3 store answers XML: its <Message> says why.
    const s3Message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1];
    return { success: false, message: problem?.detail ?? problem?.title ?? s3Message ?? response.statusText, statusCode: response.status, returnValue: null, ...(problem ? { problem } : {}) };
  }
}

/** A failed fetch's message with its cause (fetch says only "fetch failed"; the cause says why: refused, reset...). */
function describeFailure(err: unknown): string {
  // Duck-typed: fetch's errors may come from another realm (a test sandbox), where instanceof Error is false.
  const { message, cause } = (err ?? {}) as { message?: string; cause?: { message?: string; code?: string } };
  if (typeof message !== 'string') return String(err);
  return cause?.message ? `${message}: ${cause.message}` : message;
}

/** The plural of an attachment path template (`/Championships/{id}/Attachments` → `Championships`). */
function entityType(template: string): string {
  return template.split('/')[1] ?? template;
}

/** `parametersToInclude` as the query wants it: one comma-separated value. */
export function includeQuery(include: Include | undefined): Record<string, string> {
  if (include === undefined) return {};
  return { parametersToInclude: typeof include === 'string' ? include : include.join(',') };
}
