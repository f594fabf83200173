import { execFileSync } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/**
 * A clone of this repository alone must build and pass its tests: nothing it tracks may read, link or point a
 * reader at files beside the repository (the hand-over folder next to the clone in particular).
 */
const root = path.resolve(__dirname, '../../../..');
const git = (...args: string[]): string => execFileSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

describe('the repository', () => {
  const entries = git('ls-files', '-s', '-z')
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const [meta, file] = line.split('\t');
      return { mode: meta.split(' ')[0], file };
    });

  test('when its tracked files are listed, then there are some (the check below is not vacuous)', () => {
    expect(entries.length).toBeGreaterThan(100);
  });

  test('when every tracked text file is read, then none refers to a path outside the repository', () => {
    const outside = /(?:\.\.\/)+shared\/|\/work\/shared|\/work\/main/;
    const offenders = entries
      .filter((e) => e.mode !== '120000' && e.file !== 'package-lock.json')
      .filter((e) => {
        const bytes = readFileSync(path.join(root, e.file));
        if (bytes.includes(0)) return false; // binary (telemetry fixtures)
        return outside.test(bytes.toString('utf8'));
      })
      .map((e) => e.file);
    // This very file names the pattern it looks for.
    expect(offenders.filter((f) => !f.endsWith('self-contained.repository.test.ts'))).toEqual([]);
  });

  test('when a tracked symbolic link is followed, then it stays inside the repository', () => {
    const escaping = entries
      .filter((e) => e.mode === '120000')
      .filter((e) => {
        const target = path.resolve(path.dirname(path.join(root, e.file)), readlinkSync(path.join(root, e.file)));
        return !target.startsWith(root + path.sep);
      })
      .map((e) => e.file);
    expect(escaping).toEqual([]);
  });
});
