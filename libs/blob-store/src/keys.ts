import { InvalidBlobKeyError } from './errors';

const CONTENT_KEY = /^sha256\/[0-9a-f]{64}$/;
const STAGING_KEY = /^staging\/[A-Za-z0-9_-]{1,128}$/;

export const contentKey = (sha256: string): string => `sha256/${sha256}`;

export function stagingKeyOf(uploadId: string): string {
  const key = `staging/${uploadId}`;
  if (!STAGING_KEY.test(key)) throw new InvalidBlobKeyError(key);
  return key;
}

/** Whether `key` is a blob key of `area`: what a listing yields (anything else there is not the store's). */
export function isBlobKeyOf(area: 'sha256' | 'staging', key: string): boolean {
  return (area === 'sha256' ? CONTENT_KEY : STAGING_KEY).test(key);
}

/** Every key reaching a backend passes here: a key is also a file path, so nothing else may get through. */
export function checkKey(key: string, kind: 'any' | 'staging' = 'any'): string {
  const ok = kind === 'staging' ? STAGING_KEY.test(key) : CONTENT_KEY.test(key) || STAGING_KEY.test(key);
  if (!ok) throw new InvalidBlobKeyError(key);
  return key;
}

export function checkRange(range: { start?: number; end?: number } | undefined): void {
  for (const v of [range?.start, range?.end]) {
    if (v !== undefined && (!Number.isSafeInteger(v) || v < 0)) throw new RangeError(`invalid byte position ${v}`);
  }
}
