/** Error codes; the datafile-service maps them to HTTP 415, 422, 415, 404, 400 and 422. */
export type DataFileErrorCode = 'NOT_A_DATA_FILE' | 'CORRUPT' | 'UNSUPPORTED' | 'CHANNEL_NOT_FOUND' | 'INVALID_SLICE' | 'OVER_LIMIT';

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

/** What a reader bounds: the channels of one file (or one per-lap dataset), the bytes its compressed data blocks unpack to. */
export type DataFileLimit = 'channels' | 'laps' | 'decompressed bytes' | 'text labels' | 'characters of names, units and labels';

/** Channels per file (or per-lap dataset) a reader catalogues when the caller names no bound. */
export const DEFAULT_MAX_CHANNELS_PER_FILE = 20_000;

/**
 * A bound a caller passed (`maxChannels`, `maxLaps`): a whole number from 0, or Infinity for none. Anything else (NaN,
 * -1, 2.5) is a RangeError naming the option, rather than a comparison that is never true and turns the bound off.
 */
export function limitOption(name: string, value: number): number {
  if (!(value === Infinity || (Number.isSafeInteger(value) && value >= 0))) throw new RangeError(`${name} must be a whole number from 0 (or Infinity), not ${value}`);
  return value;
}

/**
 * Laps per file (or per-lap dataset) a reader builds when the caller names no bound: a day of 40 s karting laps is
 * about 2,000; a lap counter that changes every sample of a 1 kHz channel is not laps.
 */
export const DEFAULT_MAX_LAPS_PER_FILE = 10_000;

/**
 * How far the compressed data blocks inside one file (MDF4 `##DZ`: deflate, zstd, LZ4) may decompress, all together: at
 * most `maxRatio` times the file's size and `maxBytes` in all. The same budget as an LZ4-compressed upload's.
 */
export interface DecompressionLimits {
  maxBytes: number;
  maxRatio: number;
}

/** 4 GiB, 64:1: the defaults of LZ4_MAX_DECOMPRESSED_BYTES and LZ4_MAX_RATIO. */
export const DEFAULT_DECOMPRESSION_LIMITS: DecompressionLimits = { maxBytes: 4 * 1024 ** 3, maxRatio: 64 };

/**
 * A file within its format but past a bound the caller set (`limit`: what is counted, `max`: the bound, `found`: at
 * least how many the file has); refused before the work that grows with it is done.
 */
export class DataFileLimitError extends DataFileError {
  readonly code = 'OVER_LIMIT' as const;
  constructor(
    readonly format: string,
    readonly limit: DataFileLimit,
    readonly max: number,
    readonly found: number,
  ) {
    super(
      limit === 'decompressed bytes'
        ? `${format} data blocks decompress to ${found} bytes, more than the ${max} this file may decompress to`
        : `${format} has ${found > max + 1 ? found : `more than ${max}`} ${limit}; at most ${max} are read`,
    );
    this.name = 'DataFileLimitError';
  }
}
