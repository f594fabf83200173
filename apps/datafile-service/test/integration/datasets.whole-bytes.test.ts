import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { FilesystemBlobStore } from '@pitwall/blob-store';
import { InProcessBus } from '@pitwall/bus';
import { ATTACHMENT_COMMANDS, SERVICES, type DatasetFile } from '@pitwall/contracts';
import { DEFAULT_LZ4_LIMITS, DEFAULT_MAX_CHANNELS_PER_FILE, DEFAULT_MAX_LAPS_PER_FILE } from '@pitwall/formats';
import { createLogger } from '@pitwall/service-kit';
import { Datasets, WHOLE_BYTES_HELD, type DatasetRef } from '../../src/domain/datasets';
import { DecompressedCache } from '../../src/domain/decompressed-cache';
import { bundleShapeWorker } from '../support/worker-bundle';
import { countingStore } from '../support/counting-store';
import { workspaceTempDir } from '../support/workspace-tmp';

/** A CSV of about `bytes` bytes: files of this format are read whole. */
function csvOf(bytes: number, seed: number): Uint8Array {
  const header = 'Time,Speed,Gear';
  const rows = [header];
  let length = header.length;
  for (let i = 0; length < bytes; i++) {
    const row = `${(i / 100).toFixed(2)},${(seed + i) % 300},${i % 6}`;
    rows.push(row);
    length += row.length + 1;
  }
  return new TextEncoder().encode(rows.join('\n') + '\n');
}

describe('open datasets whose files are read whole', () => {
  const dir = workspaceTempDir('datafile-whole-');
  const bus = new InProcessBus({ logger: createLogger('whole', 'silent') });
  let pool: Piscina;
  afterAll(async () => {
    await pool?.destroy();
    await bus.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test(`when they hold more than ${WHOLE_BYTES_HELD} × MAX_IN_MEMORY_FILE_BYTES together, then the least recently used is let go (read again when asked), the others kept`, async () => {
    pool = new Piscina({ filename: await bundleShapeWorker(join(dir, 'worker')), maxThreads: 1 });
    const store = countingStore(new FilesystemBlobStore(join(dir, 'blobs')));
    const size = 200_000;
    const files = new Map<string, DatasetFile>();
    const refs: DatasetRef[] = [];
    for (let k = 0; k < 3; k++) {
      const bytes = csvOf(size, k);
      const stored = await store.putStream([bytes]);
      const entityId = randomUUID();
      files.set(entityId, { attachedFileId: randomUUID(), fileName: `run${k}.csv`, blobKey: stored.key, size: bytes.byteLength, useCompression: false, createdTime: new Date().toISOString() });
      refs.push({ caller: { accountId: randomUUID(), userId: randomUUID(), role: 'reader' as const }, type: 'RunSheets', id: entityId, group: 'DataFile' });
    }
    await bus.serve(SERVICES.entity, async (request) => (request.type === ATTACHMENT_COMMANDS.dataset ? [files.get((request.payload as { id: string }).id)] : null));
    // Each file under the per-dataset bound; the bound of all held together (WHOLE_BYTES_HELD of it, 2) has room for
    // two of the three files, never for three.
    const maxInMemoryBytes = Math.ceil(size * 1.2);
    expect(WHOLE_BYTES_HELD * maxInMemoryBytes).toBeLessThan(3 * size);
    const datasets = new Datasets(bus, store, new DecompressedCache(join(dir, 'decompressed'), 1e9, DEFAULT_LZ4_LIMITS), { pool, maxChannels: DEFAULT_MAX_CHANNELS_PER_FILE, maxLaps: DEFAULT_MAX_LAPS_PER_FILE, maxInMemoryBytes });
    const bytesToOpen = async (ref: DatasetRef) => {
      store.bytesRead = 0;
      await datasets.open(ref);
      return store.bytesRead;
    };

    for (const ref of refs) expect(await bytesToOpen(ref)).toBeGreaterThanOrEqual(size);
    // The two most recent are still held: opened again, nothing is read.
    expect(await bytesToOpen(refs[2] as DatasetRef)).toBe(0);
    expect(await bytesToOpen(refs[1] as DatasetRef)).toBe(0);
    // The oldest was let go when the third came: it is read again.
    expect(await bytesToOpen(refs[0] as DatasetRef)).toBeGreaterThanOrEqual(size);
    await datasets.close();
  }, 60_000);
});
