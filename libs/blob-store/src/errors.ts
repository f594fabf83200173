import { AppError, markDependency } from '@pitwall/service-kit';

/** Base of the errors a blob store throws on purpose; `status` is the HTTP status a gateway answers with. */
export abstract class BlobStoreError extends Error {
  abstract readonly status: number;
}

export class BlobTooLargeError extends BlobStoreError {
  readonly status = 413;
  constructor(readonly maxBytes: number) {
    super(`the content exceeds the limit of ${maxBytes} bytes`);
    this.name = 'BlobTooLargeError';
  }
}

export class BlobNotFoundError extends BlobStoreError {
  readonly status = 404;
  constructor(readonly key: string) {
    super(`no blob under ${key}`);
    this.name = 'BlobNotFoundError';
  }
}

export class BlobRangeError extends BlobStoreError {
  readonly status = 416;
  constructor(readonly key: string, readonly size: number, readonly range: { start?: number; end?: number }) {
    super(`range ${range.start ?? 0}-${range.end ?? ''} is outside ${key} (${size} bytes)`);
    this.name = 'BlobRangeError';
  }
}

export class InvalidBlobKeyError extends BlobStoreError {
  readonly status = 400;
  constructor(readonly key: string) {
    super(`not a blob key: ${JSON.stringify(key)} (expected sha256/<64 hex> or staging/<upload id>)`);
    this.name = 'InvalidBlobKeyError';
  }
}

/** Seconds a client is told to wait (`Retry-After`) when the store cannot be reached. */
export const BLOB_STORE_RETRY_AFTER_SECONDS = 5;

/**
 * The store could not be reached or written (S3 unreachable or answering 5xx, a directory that cannot be written):
 * the operation did nothing a retry cannot redo. An AppError, so every process's central handler answers it as a 503
 * with `Retry-After` as it is, whether thrown in the gateway or carried back in a bus reply.
 */
export class BlobStoreUnavailableError extends AppError {
  constructor(readonly operation: string, cause: unknown) {
    // The cause's own words (`connect ECONNREFUSED`, `EROFS`) name no source: the log line of the 503 says which.
    super(503, `The file store is unavailable (${operation}); retry in ${BLOB_STORE_RETRY_AFTER_SECONDS} s`, { cause: markDependency(cause, 'blob store'), retryAfterSeconds: BLOB_STORE_RETRY_AFTER_SECONDS, title: 'Service Unavailable' });
    this.name = 'BlobStoreUnavailableError';
  }
}

/** errno codes of a filesystem that cannot serve the store now (as opposed to a key that is simply absent). */
const UNAVAILABLE_FS_CODES = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT', 'EIO', 'ENOTDIR', 'EMFILE', 'ENFILE', 'ESTALE', 'ENXIO', 'ENODEV']);

/** Whether a filesystem error means the store's directory cannot be used (not a missing key, not a bug). */
export const isFilesystemOutage = (error: unknown): boolean => UNAVAILABLE_FS_CODES.has((error as NodeJS.ErrnoException)?.code ?? '');

/** Network failures and server-side errors of an S3 request: the store is unreachable or failing, not refusing this key. */
export function isS3Outage(error: unknown): boolean {
  const e = error as { name?: string; code?: string; $metadata?: { httpStatusCode?: number }; $fault?: string };
  const status = e?.$metadata?.httpStatusCode;
  if (status !== undefined) return status >= 500 || status === 429;
  // No HTTP answer at all: refused, reset, timed out, DNS.
  return error instanceof Error && (e.$fault === 'server' || typeof e.code === 'string' || /socket|ECONN|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|timeout|aborted/i.test(`${e.name} ${error.message}`));
}
