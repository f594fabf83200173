/** What is wrong with an LZ4 stream (or, `TOO_LARGE`, what it would grow past); the attachments finalise step answers 409 with the message. */
export type Lz4FrameErrorCode =
  | 'TRUNCATED'
  | 'BAD_MAGIC'
  | 'BAD_DESCRIPTOR'
  | 'HEADER_CHECKSUM'
  | 'BLOCK_CHECKSUM'
  | 'CORRUPT_BLOCK'
  | 'CONTENT_CHECKSUM'
  | 'CONTENT_SIZE'
  | 'UNSUPPORTED'
  | 'TOO_LARGE';

/** Which of the stream's `Lz4Limits` a TOO_LARGE passed: `maxBytes` in all, or `maxRatio` times the compressed size. */
export type Lz4LimitName = 'maxBytes' | 'maxRatio';

export class Lz4FrameError extends Error {
  constructor(
    readonly code: Lz4FrameErrorCode,
    readonly reason: string,
    /** Byte offset in the compressed stream where the problem was found. */
    readonly offset: number,
    /** For TOO_LARGE from decodeLz4Frames' limits: the one passed (undefined when it is the output buffer's end). */
    readonly limit?: Lz4LimitName,
  ) {
    super(`invalid LZ4 frame at byte ${offset}: ${reason}`);
    this.name = 'Lz4FrameError';
  }

  /** The error again from its fields, as a worker thread answered them (`lz4Refusal`). */
  static from(refusal: Lz4Refusal): Lz4FrameError {
    return new Lz4FrameError(refusal.code, refusal.reason, refusal.offset, refusal.limit);
  }
}

/** An Lz4FrameError's fields, as plain data: what a worker thread answers (an error's own fields do not cross threads). */
export interface Lz4Refusal {
  code: Lz4FrameErrorCode;
  reason: string;
  offset: number;
  limit?: Lz4LimitName;
}

export function lz4Refusal(err: Lz4FrameError): Lz4Refusal {
  return { code: err.code, reason: err.reason, offset: err.offset, ...(err.limit ? { limit: err.limit } : {}) };
}
