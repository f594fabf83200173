import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * A hash of what makes the answers' bytes: the files the process runs (its bundle, its pool's worker bundle), the
 * packages the bundles leave outside (the nearest `package-lock.json` above the first file: apache-arrow, jsep and the
 * like are not bundled) and the Node.js version. Two instances of one build give the same; another build, a package
 * update or another Node another (a file that cannot be read counts by its name alone).
 */
export function codeVersionOf(files: readonly (string | null | undefined)[], runtime: string = process.version): string {
  const hash = createHash('sha256').update(runtime);
  const named = files.filter((file): file is string => !!file);
  const lock = named[0] ? lockfileAbove(dirname(named[0])) : undefined;
  for (const file of lock ? [...named, lock] : named) {
    hash.update('\u0000').update(file.split(/[\\/]/).pop() ?? file).update('\u0000');
    try {
      hash.update(readFileSync(file));
    } catch {
      // Not a file (a test's runner, say): its name stands for it.
    }
  }
  return hash.digest('base64url').slice(0, 16);
}

/** The nearest package-lock.json in `dir` or up to four folders above it (dist/apps/<app>/ sits three below the root). */
function lockfileAbove(dir: string): string | undefined {
  for (let at = dir, up = 0; up <= 4; up++, at = dirname(at)) {
    const lock = join(at, 'package-lock.json');
    if (existsSync(lock)) return lock;
  }
  return undefined;
}
