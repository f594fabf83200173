import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildSync } from 'esbuild';
import { FilesystemBlobStore, type StoredBlob } from '../src';

describe('FilesystemBlobStore crash safety', () => {
  let dir: string;
  let work: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pitwall-blobs-crash-'));
    work = mkdtempSync(join(tmpdir(), 'pitwall-blobs-child-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  test('when the writing process is killed mid-write, then no partial blob is visible and the leftover is swept', async () => {
    const child = join(work, 'slow-writer.js');
    buildSync({ entryPoints: [join(__dirname, 'fixtures/slow-writer.ts')], bundle: true, platform: 'node', outfile: child, logLevel: 'error' });
    const writer = spawn(process.execPath, [child, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => writer.on('exit', (_code, signal) => resolve(signal)));
    const firstLine = await new Promise<string>((resolve) => writer.stdout.once('data', (d: Buffer) => resolve(d.toString())));
    const complete = JSON.parse(firstLine) as StoredBlob;

    // Wait until the endless blob has written at least 1 MiB to its temporary file, then kill without warning.
    const area = join(dir, 'sha256');
    const temporaries = (): string[] => readdirSync(area).filter((n) => n.startsWith('.tmp-'));
    for (let waited = 0; !(temporaries().length === 1 && statSync(join(area, temporaries()[0]!)).size >= 1 << 20); waited += 20) {
      if (waited > 30_000) throw new Error('the child never wrote its second blob');
      await sleep(20);
    }
    writer.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    // Only the complete blob has a final name; the partial one is a temporary file no key can reach.
    const names = readdirSync(area);
    expect(names.filter((n) => !n.startsWith('.tmp-'))).toEqual([complete.sha256]);
    const store = new FilesystemBlobStore(dir);
    expect(Buffer.compare(await store.readRange(complete.key, 0, 100), Buffer.from('a complete blob'))).toBe(0);
    expect(createHash('sha256').update('a complete blob').digest('hex')).toBe(complete.sha256);

    expect(await store.sweepTemporaries(60_000)).toBe(0); // too recent to be a crash leftover for sure
    expect(await store.sweepTemporaries(0)).toBe(1);
    expect(readdirSync(area)).toEqual([complete.sha256]);
  }, 60_000);
});
