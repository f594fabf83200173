import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { Piscina } from 'piscina';
import { bytesSource, createDemoLdFile, openDataFile, openDataFileFromSource, sliceByLap, StoredChannelCache } from '@pitwall/formats';
import { AppError } from '@pitwall/service-kit';
import { DataFileReads } from '../../src/domain/data-file-reads';
import type { Datasets, DatasetRef, OpenDataset } from '../../src/domain/datasets';
import { fixture } from '../support/fixtures';
import { bundleShapeWorker } from '../support/worker-bundle';
import { workspaceTempDir } from '../support/workspace-tmp';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * A warm read starts on the dataset its ref resolved to last while the entity-service checks the caller and the
 * files (data-file-reads.ts). The check always decides: these drive DataFileReads with the real pool and channel
 * cache, and a stand-in for the entity-service's side of `Datasets` whose check answers what each test needs.
 */
describe('a warm channel read starts before its check answers, and the check decides', () => {
  const dir = workspaceTempDir('datafile-early-start-');
  let pool: Piscina;
  const ref: DatasetRef = { caller: { accountId: randomUUID(), userId: randomUUID(), role: 'reader' }, type: 'RunSheets', id: randomUUID(), group: 'DataFile' };
  const read = { channels: ['Ground Speed'], scope: { mode: 'lap' as const, lapIndex: 1 }, binary: false };
  const before = fixture('Sample1.ld');
  const after = createDemoLdFile();
  let oldDataset: OpenDataset;
  let newDataset: OpenDataset;

  beforeAll(async () => {
    pool = new Piscina({ filename: await bundleShapeWorker(dir), maxThreads: 1 });
    oldDataset = { file: await openDataFileFromSource(bytesSource(before)), contentKey: 'sha256/old' };
    newDataset = { file: await openDataFileFromSource(bytesSource(after)), contentKey: 'sha256/new' };
  }, 60_000);
  afterAll(async () => {
    await pool?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Datasets whose last resolution was `last` and whose check now answers `check` (or refuses with it). */
  const datasets = (last: OpenDataset | undefined, check: OpenDataset | AppError): Datasets =>
    ({
      lastOpened: () => (last ? { contentKey: last.contentKey, dataset: Promise.resolve(last) } : undefined),
      open: async () => {
        await new Promise((resolve) => setTimeout(resolve, 20)); // the entity-service's round trip
        if (check instanceof AppError) throw check;
        return check;
      },
    }) as unknown as Datasets;
  const reads = (d: Datasets) => new DataFileReads(d, new StoredChannelCache(64 * 1024 * 1024), pool, { timeoutMs: 10_000 });
  const samplesOf = (body: Uint8Array): number[] => (JSON.parse(Buffer.from(body).toString()) as Json[])[0].samples;
  const lap1 = (bytes: Uint8Array) => {
    const file = openDataFile(bytes);
    return Array.from(sliceByLap(file.readChannel('Ground Speed'), file.laps, 1).samples);
  };

  test('when the check names the files of last time, then the early read is the answer (one task on the pool)', async () => {
    const tasks = pool.completed;
    const body = await reads(datasets(oldDataset, oldDataset)).channels(ref, read);
    expect(samplesOf(body)).toEqual(lap1(before));
    expect(pool.completed - tasks).toBe(1);
  });

  test('when the check names other files (replaced since), then the early read is dropped and the answer is of the new files', async () => {
    const tasks = pool.completed;
    const body = await reads(datasets(oldDataset, newDataset)).channels(ref, read);
    expect(samplesOf(body)).toEqual(lap1(after));
    expect(samplesOf(body)).not.toEqual(lap1(before));
    expect(pool.completed - tasks).toBe(2);
  });

  test('when the check refuses (the file was deleted, or the caller may not read it), then that is the answer, not the early read', async () => {
    await expect(reads(datasets(oldDataset, AppError.notFound('RunSheets has no data file dataset'))).channels(ref, read)).rejects.toMatchObject({ status: 404 });
  });

  test('when nothing was resolved before (cold), then the read waits for the check', async () => {
    const body = await reads(datasets(undefined, newDataset)).channels(ref, read);
    expect(samplesOf(body)).toEqual(lap1(after));
  });
});
