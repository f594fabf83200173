import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * A hash of the files the process runs (its bundle, its pool's worker bundle): two instances of one build give the
 * same, another build another (a file that cannot be read counts by its name alone).
 */
export function codeVersionOf(files: readonly (string | null | undefined)[]): string {
  const hash = createHash('sha256');
  for (const file of files) {
    if (!file) continue;
    hash.update(file.split(/[\\/]/).pop() ?? file).update('\u0000');
    try {
      hash.update(readFileSync(file));
    } catch {
      // Not a file (a test's runner, say): its name stands for it.
    }
  }
  return hash.digest('base64url').slice(0, 16);
}
