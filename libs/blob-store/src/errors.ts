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
