import { BlobNotFoundError } from '@pitwall/blob-store';
import { DataFileLimitError, Lz4FrameError } from '@pitwall/formats';
import { AppError } from '@pitwall/service-kit';
import { toReadError } from '../../src/domain/read-errors';

describe('toReadError', () => {
  test('when the JSON answer of a read is too large to build (V8: Invalid string length), then it is a 400 that names the way out, not a damaged file', () => {
    // What JSON.stringify throws past V8's string limit (a 4,000-channel whole-file batch), without building it here.
    const thrown = toReadError(new RangeError('Invalid string length'));
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({ status: 400, errors: { channels: [expect.any(String)] } });
    expect((thrown as AppError).message).toContain('binary body');
    expect((thrown as AppError).message).not.toContain('could not be read');
  });

  test('when a reader runs past the end of a short file (another RangeError), then it is still a 422 with the reason', () => {
    expect(toReadError(new RangeError('Offset is outside the bounds of the DataView'))).toMatchObject({ status: 422, message: 'The data file could not be read: Offset is outside the bounds of the DataView' });
  });

  test('when a file\'s compressed blocks would decompress past the budget, then a 422 naming LZ4_MAX_DECOMPRESSED_BYTES and LZ4_MAX_RATIO, not MAX_CHANNELS_PER_FILE', () => {
    const thrown = toReadError(new DataFileLimitError('mdf4', 'decompressed bytes', 1000, 5000)) as AppError;
    expect(thrown).toMatchObject({ status: 422 });
    expect(thrown.message).toBe("The data file could not be read: mdf4 data blocks decompress to 5000 bytes, more than the 1000 this file may decompress to (LZ4_MAX_DECOMPRESSED_BYTES, or LZ4_MAX_RATIO times the file's size)");
  });

  test('when an LZ4 frame would decompress past a bound (declared or not), then a 422 naming the one it passed', () => {
    const ratio = toReadError(new Lz4FrameError('TOO_LARGE', 'the frame declares 268435456 bytes, past 67415808 bytes, 64 times its 1053372 compressed bytes', 6, 'maxRatio')) as AppError;
    expect(ratio).toMatchObject({ status: 422 });
    expect(ratio.message).toBe("The data file could not be read: its LZ4 frame the frame declares 268435456 bytes, past 67415808 bytes, 64 times its 1053372 compressed bytes (LZ4_MAX_RATIO times the stored file's size)");
    const bytes = toReadError(new Lz4FrameError('TOO_LARGE', 'it decompresses past the limit of 16777216 bytes', 9, 'maxBytes')) as AppError;
    expect(bytes.message).toBe('The data file could not be read: its LZ4 frame it decompresses past the limit of 16777216 bytes (LZ4_MAX_DECOMPRESSED_BYTES)');
  });

  test('when the blob went from the store in the middle of the read (its file deleted meanwhile), then a 503 to retry, not a bare error (a 500)', () => {
    const answer = toReadError(new BlobNotFoundError('sha256/abc'));
    expect(answer).toBeInstanceOf(AppError);
    expect(answer).toMatchObject({ status: 503, retryAfterSeconds: 1 });
  });

  test('when a file\'s channels carry more text labels than DATAFILE_MAX_CATALOGUE_LABELS, then a 422 naming it', () => {
    expect((toReadError(new DataFileLimitError('mdf4', 'text labels', 10, 12)) as AppError).message).toBe(
      "The data file could not be read: mdf4 has 12 text labels; at most 10 are read (DATAFILE_MAX_CATALOGUE_LABELS is 10: each channel's record carries its conversion's labels)",
    );
  });
});
