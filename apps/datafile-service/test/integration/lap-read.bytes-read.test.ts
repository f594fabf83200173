import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { FilesystemBlobStore } from '@pitwall/blob-store';
import { answerBytes, InProcessBus } from '@pitwall/bus';
import { decodeChannels, type ChannelSeries } from '@pitwall/channels';
import { ATTACHMENT_COMMANDS, SERVICES, type DatasetFile } from '@pitwall/contracts';
import { DEFAULT_LZ4_LIMITS, DEFAULT_MAX_CHANNELS_PER_FILE, DEFAULT_MAX_LAPS_PER_FILE, StoredChannelCache, writeLdFile } from '@pitwall/formats';
import { createLogger } from '@pitwall/service-kit';
import { DataFileReads } from '../../src/domain/data-file-reads';
import { Datasets } from '../../src/domain/datasets';
import { FairPool } from '../../src/domain/fair-pool';
import { DecompressedCache } from '../../src/domain/decompressed-cache';
import { bundleShapeWorker } from '../support/worker-bundle';
import { countingStore } from '../support/counting-store';
import { workspaceTempDir } from '../support/workspace-tmp';

const LAP_SECONDS = 60;
const LAPS = 6;
const HZ = 200;

/** 30 int16 channels at 200 Hz over six 60 s laps (about 4 MB), with the Lap Number channel the laps come from. */
function largeLd(): Uint8Array {
  const n = LAP_SECONDS * LAPS * HZ;
  const channels = Array.from({ length: 30 }, (_, k) => ({ name: `Sensor ${k}`, unit: 'V', frequency: HZ, type: 'int16' as const, scaling: { dec: 1 }, sampleCount: n, fill: (first: number, out: Float64Array) => out.forEach((_, i) => (out[i] = ((first + i + k) % 2000) / 10)) }));
  const lapNumber = { name: 'Lap Number', frequency: 10, type: 'int16' as const, sampleCount: LAP_SECONDS * LAPS * 10, fill: (first: number, out: Float64Array) => out.forEach((_, i) => (out[i] = Math.floor((first + i) / (LAP_SECONDS * 10)))) };
  return writeLdFile({ properties: { eventName: 'Bytes', venueName: 'Test' }, channels: [...channels, lapNumber] });
}

describe('a lap read of a large .ld through the datafile-service use case', () => {
  const dir = workspaceTempDir('datafile-bytes-');
  const bus = new InProcessBus({ logger: createLogger('bytes', 'silent') });
  let pool: Piscina;
  afterAll(async () => {
    await pool?.destroy();
    await bus.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('when one lap of 20 channels is read, then only those channels\' bytes of that lap (and the catalogue) are read', async () => {
    pool = new Piscina({ filename: await bundleShapeWorker(join(dir, 'worker')), maxThreads: 1 });
    const bytes = largeLd();
    const store = countingStore(new FilesystemBlobStore(join(dir, 'blobs')));
    const stored = await store.putStream([bytes]);
    // The bytes go straight into the store and the entity-service is a stand-in answering the dataset command: the
    // count needs the store's ranged reads wrapped, which a blob store behind the real upload flow does not allow.
    const file: DatasetFile = { attachedFileId: randomUUID(), fileName: 'large.ld', blobKey: stored.key, size: bytes.byteLength, useCompression: false, createdTime: new Date().toISOString() };
    await bus.serve(SERVICES.entity, async (request) => (request.type === ATTACHMENT_COMMANDS.dataset ? [file] : null));
    const datasets = new Datasets(bus, store, new DecompressedCache(join(dir, 'decompressed'), 1e9, DEFAULT_LZ4_LIMITS), { pool, maxChannels: DEFAULT_MAX_CHANNELS_PER_FILE, maxLaps: DEFAULT_MAX_LAPS_PER_FILE, maxInMemoryBytes: 256 * 1024 * 1024 });
    const reads = new DataFileReads(datasets, new StoredChannelCache(64 * 1024 * 1024), new FairPool(pool, pool.options.maxThreads), { timeoutMs: 30_000, sampleBudget: 16_000_000 });
    const ref = { caller: { accountId: randomUUID(), userId: randomUUID(), role: 'reader' as const }, type: 'RunSheets', id: randomUUID(), group: 'DataFile' };

    const meta = await reads.metadata(ref);
    // A single .ld's catalogue is parsed in place: its record comes as an object, not as JSON bytes from the pool.
    if (meta instanceof Uint8Array) throw new Error('a single .ld gave its metadata as bytes');
    expect(meta.lapCount).toBe(LAPS);
    const catalogue = store.bytesRead;
    store.bytesRead = 0;

    const names = Array.from({ length: 20 }, (_, k) => `Sensor ${k}`);
    const body = await reads.channels(ref, { channels: names, field: 'channels', scope: { mode: 'lap', lapIndex: 3 }, binary: true });
    const series = decodeChannels(await answerBytes(body)) as ChannelSeries[]; // numbers only
    const lapSamples = series[0].samples.length;
    expect(lapSamples).toBeGreaterThanOrEqual(LAP_SECONDS * HZ - 1);
    expect(lapSamples).toBeLessThanOrEqual(LAP_SECONDS * HZ + 1);
    // Exactly the lap's int16 samples of the 20 channels asked: none of the other 10 channels, none of the other laps.
    expect(store.bytesRead).toBe(series.reduce((sum, s) => sum + s.samples.length * 2, 0));
    // Opening read the header and channel list only, not the samples.
    expect(catalogue).toBeLessThanOrEqual(128 * 1024);
    expect(catalogue).toBeLessThan(bytes.byteLength / 20);

    // Warm: the same lap again reads nothing from the store.
    store.bytesRead = 0;
    await answerBytes(await reads.channels(ref, { channels: names, field: 'channels', scope: { mode: 'lap', lapIndex: 3 }, binary: false }));
    expect(store.bytesRead).toBe(0);
  }, 120_000);
});
