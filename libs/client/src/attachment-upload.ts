import type { PrepareAttachmentBody } from '@pitwall/contracts';
import { compressLz4, encodeLz4Frame } from '@pitwall/formats/lz4';
import type { ClientResult } from './client-result';

/** Where a one-call upload stopped (the wrappers' names): the step a retry resumes from. */
export const AttachmentStatus = {
  Success: 'Success',
  /** The record could not be created (prepare): nothing exists on the server. */
  FailedToAdd: 'FailedToAdd',
  /** The record exists (state 0) but its bytes did not reach the signed URL. */
  FailedToUpload: 'FailedToUpload',
  /** The bytes were uploaded but the record could not be set to AvailableOnServer (finalise). */
  FailedToUpdateServerStatus: 'FailedToUpdateServerStatus',
} as const;
export type AttachmentStatus = (typeof AttachmentStatus)[keyof typeof AttachmentStatus];

/** A source that gives its bytes again on every read (a retry of the upload reads it again). */
export type RereadableSource = Uint8Array | ArrayBuffer | Blob | (() => AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>);
/**
 * The bytes of an attached file: in memory, a Blob (a browser's File), a local file path (Node only), a function
 * opening a fresh stream on each call, or a stream, which can be read only once (a retry that must upload again
 * then needs the source passed again).
 */
export type AttachmentSource = RereadableSource | string | AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>;

/** A listed attached file record (`GET .../Attachments`). */
export interface AttachedFileRecord {
  Id: string;
  Parameters: Record<string, unknown>;
  SignedURL: string | null;
}

/** The outcome of `addAttachmentTo<Entity>`, and what `retry<Entity>Attachment` resumes from. */
export interface AttachmentResult {
  status: AttachmentStatus;
  success: boolean;
  /** What the failing step's answer said (its problem detail), or 'OK'. */
  message: string;
  /** HTTP status of the last call made (0: it did not complete). */
  statusCode: number;
  problem?: ClientResult<unknown>['problem'];
  accountId: string;
  /** The owning entity's type (its plural, as in the path) and id. */
  entityType: string;
  entityId: string;
  options: PrepareAttachmentBody;
  /** Set once the record exists (after prepare). */
  attachedFileId: string | null;
  /** The signed upload URL prepare handed out (one upload, limited lifetime). */
  uploadUrl: string | null;
  /** The record once it is AvailableOnServer (its SignedURL downloads the bytes as uploaded). */
  attachedFile: AttachedFileRecord | null;
  /** What the bytes are read from; a stream already read is not kept. */
  source: AttachmentSource | null;
}

/** The HTTP calls an upload makes, bound to one entity type's attachment paths and one account. */
export interface AttachmentCalls {
  prepare(entityId: string, body: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string }>>;
  finalise(entityId: string, attachedFileId: string): Promise<ClientResult<AttachedFileRecord>>;
  list(entityId: string, attachedFileId: string): Promise<ClientResult<AttachedFileRecord[]>>;
  remove(entityId: string, attachedFileId: string): Promise<ClientResult<null>>;
  /** The PUT of the bytes to a signed URL (no ApiKey: the signature is the authority). */
  upload(url: string, body: UploadBody): Promise<ClientResult<null>>;
}

/** A PUT body: bytes or a Blob (length known), or a stream (sent chunked). */
export type UploadBody = Uint8Array | Blob | ReadableStream<Uint8Array>;

const UPLOADED_STATE = 1;

/** Prepare, upload (LZ4-compressed when UseCompression) and finalise. */
export async function addAttachment(calls: AttachmentCalls, accountId: string, entityType: string, entityId: string, options: PrepareAttachmentBody, source: AttachmentSource): Promise<AttachmentResult> {
  const start: AttachmentResult = {
    status: AttachmentStatus.FailedToAdd,
    success: false,
    message: '',
    statusCode: 0,
    accountId,
    entityType,
    entityId,
    options,
    attachedFileId: null,
    uploadUrl: null,
    attachedFile: null,
    source,
  };
  return fromPrepare(calls, start);
}

/**
 * Resumes a failed upload from the step that failed: FailedToAdd starts again; FailedToUpload PUTs the bytes again
 * to the same URL (when the URL is refused, the record is looked at: bytes already there go on to finalise, else the
 * stale record is deleted and the upload starts again with a new one); FailedToUpdateServerStatus finalises again. A
 * Success is returned as it is. `source` replaces the result's source (needed when it was a stream already read).
 */
export async function retryAttachment(calls: AttachmentCalls, result: AttachmentResult, source?: AttachmentSource): Promise<AttachmentResult> {
  const current: AttachmentResult = { ...result, ...(source === undefined ? {} : { source }) };
  switch (current.status) {
    case AttachmentStatus.Success:
      return current;
    case AttachmentStatus.FailedToAdd:
      return fromPrepare(calls, current);
    case AttachmentStatus.FailedToUpdateServerStatus:
      return fromFinalise(calls, current);
    case AttachmentStatus.FailedToUpload: {
      if (!current.attachedFileId || !current.uploadUrl) return fromPrepare(calls, current);
      const uploaded = await fromUpload(calls, current);
      if (uploaded.status !== AttachmentStatus.FailedToUpload || (uploaded.statusCode !== 403 && uploaded.statusCode !== 404)) return uploaded;
      // The URL was refused: used by an attempt whose answer was lost, or expired. The record says which.
      const listed = await calls.list(current.entityId, current.attachedFileId);
      if (!listed.success) return failed(uploaded, AttachmentStatus.FailedToUpload, listed);
      const record = listed.returnValue?.[0];
      if (record && Number(record.Parameters['ServerAttachedFileState']) >= UPLOADED_STATE) return fromFinalise(calls, uploaded);
      if (record) await calls.remove(current.entityId, current.attachedFileId);
      return fromPrepare(calls, { ...uploaded, attachedFileId: null, uploadUrl: null });
    }
  }
}

async function fromPrepare(calls: AttachmentCalls, result: AttachmentResult): Promise<AttachmentResult> {
  const prepared = await calls.prepare(result.entityId, result.options);
  if (!prepared.success || !prepared.returnValue) return failed(result, AttachmentStatus.FailedToAdd, prepared);
  return fromUpload(calls, { ...result, attachedFileId: prepared.returnValue.AttachedFileId, uploadUrl: prepared.returnValue.Url });
}

async function fromUpload(calls: AttachmentCalls, result: AttachmentResult): Promise<AttachmentResult> {
  const { source } = result;
  if (source === null) {
    return { ...result, status: AttachmentStatus.FailedToUpload, success: false, statusCode: 0, message: 'The source stream was read by the failed attempt: pass the bytes again to the retry' };
  }
  // A stream is read once: the result no longer offers it for another attempt.
  const kept = isRereadable(source) ? source : null;
  let uploaded: ClientResult<null>;
  try {
    uploaded = await calls.upload(result.uploadUrl as string, await uploadBody(source, result.options.UseCompression ?? false));
  } catch (err) {
    uploaded = { success: false, statusCode: 0, returnValue: null, message: `The upload did not complete: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (!uploaded.success) return failed({ ...result, source: kept }, AttachmentStatus.FailedToUpload, uploaded);
  return fromFinalise(calls, { ...result, source: kept });
}

async function fromFinalise(calls: AttachmentCalls, result: AttachmentResult): Promise<AttachmentResult> {
  const finalised = await calls.finalise(result.entityId, result.attachedFileId as string);
  if (!finalised.success || !finalised.returnValue) return failed(result, AttachmentStatus.FailedToUpdateServerStatus, finalised);
  const { problem: _problem, ...rest } = result;
  return { ...rest, status: AttachmentStatus.Success, success: true, message: finalised.message, statusCode: finalised.statusCode, attachedFile: finalised.returnValue };
}

function failed(result: AttachmentResult, status: AttachmentStatus, answer: ClientResult<unknown>): AttachmentResult {
  const { problem: _problem, ...rest } = result;
  return { ...rest, status, success: false, message: answer.message, statusCode: answer.statusCode, ...(answer.problem ? { problem: answer.problem } : {}) };
}

function isRereadable(source: AttachmentSource): source is RereadableSource | string {
  return typeof source === 'string' || typeof source === 'function' || source instanceof Uint8Array || source instanceof ArrayBuffer || source instanceof Blob;
}

/**
 * The body of the PUT. Bytes in memory are sent with their length (compressed in memory: they are there already);
 * a Blob or file uncompressed likewise; anything else is streamed chunked, through the LZ4 frame encoder when
 * compressing, one 4 MiB block at a time.
 */
export async function uploadBody(source: AttachmentSource, compress: boolean): Promise<UploadBody> {
  if (source instanceof ArrayBuffer) return uploadBody(new Uint8Array(source), compress);
  if (source instanceof Uint8Array) return compress ? compressLz4(source) : source;
  if (typeof source === 'string') return uploadBody(await openFile(source), compress);
  if (source instanceof Blob) return compress ? toReadableStream(encodeLz4Frame(blobChunks(source))) : source;
  const stream = typeof source === 'function' ? source() : source;
  const chunks = stream instanceof ReadableStream ? readableChunks(stream) : stream;
  return toReadableStream(compress ? encodeLz4Frame(chunks) : chunks);
}

/** A local file as a Blob backed by the file (Node): read when sent, its size known. */
async function openFile(path: string): Promise<Blob> {
  const { openAsBlob } = await import('node:fs');
  return openAsBlob(path);
}

async function* blobChunks(blob: Blob): AsyncGenerator<Uint8Array> {
  yield* readableChunks(blob.stream() as ReadableStream<Uint8Array>);
}

async function* readableChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** A web ReadableStream pulling from an async iterable (what fetch takes as a streamed body). */
function toReadableStream(source: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await iterator.next();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (err) {
        controller.error(err);
      }
    },
    async cancel(reason) {
      await iterator.return?.(reason);
    },
  });
}
