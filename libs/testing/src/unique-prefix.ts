import { randomBytes } from 'node:crypto';

/** `pitwall-t-<label>-<hex>-`: a prefix for queue, exchange and key names so concurrent test runs never share them. */
export function uniquePrefix(label: string): string {
  return `pitwall-t-${label}-${randomBytes(4).toString('hex')}-`;
}
