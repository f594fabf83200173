import { mkdirSync, statSync } from 'node:fs';
import { mkdir, open, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

const codeOf = (err: unknown): unknown => (err as { code?: unknown } | null)?.code;

/**
 * `mkdir -p` that always ends. Node's `mkdir(dir, { recursive: true })` never settles, holding a libuv thread at full
 * CPU (the sync form: the event loop), where a parent exists but can hold no such child: under `/proc`, mkdir answers
 * ENOENT, so Node makes the parent (EEXIST) and tries the child again, for ever. Here a child still ENOENT once its
 * parent is there is the answer (ENOENT). An existing directory is fine; an existing file is its EEXIST.
 */
export async function makeDirectory(dir: string): Promise<void> {
  try {
    await mkdir(dir);
  } catch (err) {
    if (codeOf(err) === 'ENOENT' && dirname(dir) !== dir) {
      await makeDirectory(dirname(dir));
      return mkdir(dir).then(undefined, (again: unknown) => existingDirectory(dir, again));
    }
    return existingDirectory(dir, err);
  }
}

/** `makeDirectory`'s synchronous form (before a process serves anything: its data directory, a key file's folder). */
export function makeDirectorySync(dir: string): void {
  try {
    mkdirSync(dir);
  } catch (err) {
    if (codeOf(err) === 'ENOENT' && dirname(dir) !== dir) {
      makeDirectorySync(dirname(dir));
      try {
        mkdirSync(dir);
      } catch (again) {
        if (!(codeOf(again) === 'EEXIST' && statSync(dir, { throwIfNoEntry: false })?.isDirectory())) throw again;
      }
      return;
    }
    if (!(codeOf(err) === 'EEXIST' && statSync(dir, { throwIfNoEntry: false })?.isDirectory())) throw err;
  }
}

/** EEXIST of a directory (made before, or by another process meanwhile) is success; anything else is the error. */
async function existingDirectory(dir: string, err: unknown): Promise<void> {
  if (codeOf(err) === 'EEXIST' && (await stat(dir).catch(() => null))?.isDirectory()) return;
  throw err;
}

/** fsync of a file, or of a folder (a rename or a new name in it is durable once the folder is synced). */
export async function syncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
