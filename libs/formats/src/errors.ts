/** Error codes; the datafile-service maps them to HTTP 415, 422, 415, 404 and 400. */
export type DataFileErrorCode = 'NOT_A_DATA_FILE' | 'CORRUPT' | 'UNSUPPORTED' | 'CHANNEL_NOT_FOUND' | 'INVALID_SLICE';

/** Base class of every error the readers throw on purpose; anything else escaping a reader is a bug. */
export abstract class DataFileError extends Error {
  abstract readonly code: DataFileErrorCode;
}

/** The bytes are not in any format this library recognises (checked from content, never the file name). */
export class NotADataFileError extends DataFileError {
  readonly code = 'NOT_A_DATA_FILE' as const;
  constructor(message = 'not a recognised telemetry data file') {
    super(message);
    this.name = 'NotADataFileError';
  }
}

/** A recognised format whose structure is damaged: `reason` says what, `offset` says where (byte offset). */
export class CorruptDataFileError extends DataFileError {
  readonly code = 'CORRUPT' as const;
  constructor(
    readonly format: string,
    readonly reason: string,
    readonly offset: number,
  ) {
    super(`corrupt ${format} file at byte ${offset}: ${reason}`);
    this.name = 'CorruptDataFileError';
  }
}

/** A valid file, or channel, using a feature this library does not decode; `feature` names it. */
export class UnsupportedFeatureError extends DataFileError {
  readonly code = 'UNSUPPORTED' as const;
  constructor(
    readonly format: string,
    readonly feature: string,
  ) {
    super(`unsupported ${format} feature: ${feature}`);
    this.name = 'UnsupportedFeatureError';
  }
}

export class ChannelNotFoundError extends DataFileError {
  readonly code = 'CHANNEL_NOT_FOUND' as const;
  constructor(readonly channel: string) {
    super(`channel not found: ${channel}`);
    this.name = 'ChannelNotFoundError';
  }
}

export function isDataFileError(error: unknown): error is DataFileError {
  return error instanceof DataFileError;
}

/** A slice request outside what the data offers (lap index out of range, negative or non-finite window). */
export class InvalidSliceError extends DataFileError {
  readonly code = 'INVALID_SLICE' as const;
  constructor(message: string) {
    super(message);
    this.name = 'InvalidSliceError';
  }
}
