import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Lz4FrameError, validateLz4Frames } from '@pitwall/formats';
import { FilesystemBlobStore } from '../src';

// What finalise will do with UseCompression: stream the stored blob through the LZ4 validator.
describe('LZ4 frames stored as blobs', () => {
  let dir: string;
  let store: FilesystemBlobStore;
  const content = Buffer.concat([randomBytes(200_000), Buffer.alloc(800_000, 'speed,rpm,gear\n')]);
  const compress = (args: string[]): Buffer => {
    const file = join(dir, `in-${args.join('')}`);
    writeFileSync(file, content);
    return execFileSync('/usr/bin/lz4', [...args, '-c', file], { stdio: ['ignore', 'pipe', 'ignore'] });
  };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pitwall-blobs-lz4-'));
    store = new FilesystemBlobStore(join(dir, 'store'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test.each([[[]], [['--no-frame-crc']], [['--content-size']], [['--no-frame-crc', '--content-size']]])(
    'when the lz4 tool wrote the blob with %j, then streaming validation accepts it',
    async (args) => {
      const blob = await store.putStream([compress(args)]);
      expect(await validateLz4Frames(await store.openRead(blob.key))).toMatchObject({ frames: 1, contentSize: content.length });
    },
  );

  test('when a staged upload is promoted with the validator as inspector, then one pass both checks and hashes it', async () => {
    const staging = store.stagingKey('lz4-upload');
    await store.putStaged(staging, [compress(['--content-size'])]);
    let summary: unknown;
    const promoted = await store.promoteStaged(staging, { inspect: async (bytes) => (summary = await validateLz4Frames(bytes)) });
    expect(summary).toMatchObject({ frames: 1, contentSize: content.length, compressedSize: promoted.size });

    const bad = store.stagingKey('lz4-bad-upload');
    const frame = compress([]);
    await store.putStaged(bad, [frame.subarray(0, frame.length - 3)]);
    await expect(store.promoteStaged(bad, { inspect: (bytes) => validateLz4Frames(bytes) })).rejects.toMatchObject({ code: 'TRUNCATED' });
  });

  test('when the stored frame is truncated or has a flipped byte, then validation refuses it', async () => {
    const frame = compress([]);
    const truncated = await store.putStream([frame.subarray(0, frame.length - 100)]);
    await expect(validateLz4Frames(await store.openRead(truncated.key))).rejects.toMatchObject({ code: 'TRUNCATED' });
    const flipped = Buffer.from(frame);
    flipped[Math.floor(frame.length / 2)] ^= 0x01;
    const damaged = await store.putStream([flipped]);
    await expect(validateLz4Frames(await store.openRead(damaged.key))).rejects.toBeInstanceOf(Lz4FrameError);
  });
});
