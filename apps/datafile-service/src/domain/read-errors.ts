import { BlobNotFoundError } from '@pitwall/blob-store';
import { DataFileError, DataFileLimitError, Lz4FrameError } from '@pitwall/formats';
import { AppError } from '@pitwall/service-kit';

/**
 * The readers' refusals as the API's statuses: a file the readers do not recognise or cannot read channels of is a
 * 415, a damaged one (or a damaged LZ4 frame) a 422 with the reason, an unknown channel or a lap index out of range
 * a 400. Anything else stays what it is (a bug is a 500 that reveals nothing).
 */
export function toReadError(err: unknown): unknown {
  // Bytes the store had when the read began and not in the middle of it: the file deleted meanwhile (a retry then
  // answers 404 from the entity's records), or the store's directory changing. A 503 to retry, not a bare error (500).
  if (err instanceof BlobNotFoundError)
    return new AppError(503, 'The bytes of this data file went missing from the store while they were read (the file deleted meanwhile, or the store changing): retry', { retryAfterSeconds: 1, cause: err });
  if (err instanceof Lz4FrameError && err.code === 'TOO_LARGE') {
    // Whether or not the frame declares its size: a declared size is held to both bounds.
    const bound = err.limit === 'maxRatio' ? 'LZ4_MAX_RATIO times the stored file\'s size' : err.limit === 'maxBytes' ? 'LZ4_MAX_DECOMPRESSED_BYTES' : 'LZ4_MAX_DECOMPRESSED_BYTES, or LZ4_MAX_RATIO times the stored file\'s size';
    return new AppError(422, `The data file could not be read: its LZ4 frame ${err.reason} (${bound})`);
  }
  if (err instanceof Lz4FrameError) return new AppError(422, `The data file could not be read: ${err.message}`);
  if (err instanceof DataFileLimitError && err.limit === 'decompressed bytes') {
    return new AppError(422, `The data file could not be read: ${err.message} (LZ4_MAX_DECOMPRESSED_BYTES, or LZ4_MAX_RATIO times the file's size)`);
  }
  if (err instanceof DataFileLimitError && err.limit === 'text labels') return new AppError(422, `The data file could not be read: ${err.message} (DATAFILE_MAX_CATALOGUE_LABELS is ${err.max}: each channel's record carries its conversion's labels)`);
  if (err instanceof DataFileLimitError && err.limit === 'characters of names, units and labels') return new AppError(422, `The data file could not be read: ${err.message} (DATAFILE_MAX_CATALOGUE_CHARS is ${err.max}: each channel's record carries its name, unit and labels, though the file may store one text for many)`);
  if (err instanceof DataFileLimitError && err.limit === 'laps') return new AppError(422, `The data file could not be read: ${err.message} (MAX_LAPS_PER_FILE is ${err.max})`);
  if (err instanceof DataFileLimitError) return new AppError(422, `The data file could not be read: ${err.message} (MAX_CHANNELS_PER_FILE is ${err.max})`);
  // V8's limit on one string (about 512 MB): the JSON answer of a read this large cannot be built. The request asked
  // too much, the file is fine; the binary body of the same read has no such limit.
  if (err instanceof RangeError && /^Invalid string length/.test(err.message))
    return AppError.badRequest(
      'The JSON answer of this read would be larger than one JSON document can be here (about 512 MB): ask fewer channels, a lap or a shorter window, maxPoints, or the binary body (Accept: application/x-service-channels)',
      { channels: ['are too many samples for one JSON answer'] },
    );
  // A file shorter than its own header says: the readers' ranged reads run past its end.
  if (err instanceof RangeError) return new AppError(422, `The data file could not be read: ${err.message}`);
  if (!(err instanceof DataFileError)) return err;
  switch (err.code) {
    case 'NOT_A_DATA_FILE':
      return new AppError(415, 'The attached file is not a data file this service can read channels from (MoTeC .ld, ASAM MDF 3.x or 4.x, MoTeC or generic CSV)');
    case 'UNSUPPORTED':
      return new AppError(415, `The data file uses a feature this service cannot read: ${err.message}`);
    case 'CORRUPT':
      return new AppError(422, `The data file could not be read: ${err.message}`);
    case 'CHANNEL_NOT_FOUND':
      return AppError.badRequest(err.message, { channel: [err.message] });
    case 'INVALID_SLICE':
      return AppError.badRequest(err.message, { lapIndex: [err.message] });
    default:
      return new AppError(422, `The data file could not be read: ${err.message}`);
  }
}
