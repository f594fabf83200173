import { BlobNotFoundError } from '@pitwall/blob-store';
import { CorruptDataFileError } from '@pitwall/formats';
import { AppError } from '@pitwall/service-kit';
import { toReadError } from '../../src/domain/read-errors';

describe('the API answer of a read that failed', () => {
  test('when the blob went from the store in the middle of the read (deleted meanwhile), then a 503 to retry, not a bare error (a 500)', () => {
    const answer = toReadError(new BlobNotFoundError('sha256/abc'));
    expect(answer).toBeInstanceOf(AppError);
    expect(answer).toMatchObject({ status: 503, retryAfterSeconds: 1 });
  });

  test('when the file is damaged, then a 422 with the reason', () => {
    expect(toReadError(new CorruptDataFileError('mdf4', 'a chain loops back on itself', 64))).toMatchObject({ status: 422 });
  });
});
