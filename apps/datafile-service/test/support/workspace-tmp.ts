import { mkdirSync, mkdtempSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * A fresh directory under the repository's `tmp/` (created when a clean clone has none): worker bundles written
 * there resolve the repository's node_modules, which a directory under the system temp folder would not.
 */
export function workspaceTempDir(prefix: string): string {
  const tmp = resolve(__dirname, '..', '..', '..', '..', 'tmp');
  mkdirSync(tmp, { recursive: true });
  return mkdtempSync(join(tmp, prefix));
}
