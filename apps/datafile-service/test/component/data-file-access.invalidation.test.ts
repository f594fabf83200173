import { createHash } from 'node:crypto';
import { EXCHANGES } from '@pitwall/contracts';
import { compressLz4, createDemoLdFile, openDataFile, sliceByLap } from '@pitwall/formats';
import { fixture } from '../support/fixtures';
import { useDatafileStack } from '../support/datafile-stack';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** The blob key a compressed upload is stored under (content-addressed: the hash of the bytes as uploaded). */
const blobKeyOf = async (bytes: Uint8Array) => `sha256/${createHash('sha256').update(await compressLz4(bytes)).digest('hex')}`;

/** Polls until `condition` holds: the cache events arrive after the write that caused them has answered. */
async function eventually(condition: () => Promise<boolean> | boolean): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the condition never held');
}

describe('the datafile-service caches follow the attached files (attachment and entity events)', () => {
  const started = useDatafileStack('datafile-invalidation-', { URL_SIGNING_SECRET: 'datafile-invalidation-test-secret' }, { maxThreads: 1 });
  const first = { bytes: fixture('Sample1.ld'), channel: 'Ground Speed' };
  const second = { bytes: createDemoLdFile(), channel: 'Ground Speed' };

  const caches = () => started.datafile.parts;

  const get = async (path: string): Promise<{ status: number; body: Json }> => {
    const r = await fetch(`${started.base}${path}`, { headers: started.headers });
    return { status: r.status, body: await r.json() };
  };
  const lap1 = (id: string, channel: string) => get(`/RunSheets/${id}/DataFileAccess/DataFile/channel?channel=${encodeURIComponent(channel)}&lapIndex=1`);
  const expectedLap1 = (bytes: Uint8Array, channel: string) => {
    const file = openDataFile(bytes);
    return Array.from(sliceByLap(file.readChannel(channel), file.laps, 1).samples);
  };

  test('when the file is replaced (IfSingleOverwriteExisting), then the next read sees the new file and the old one\'s cached channels and decompressed copy are dropped', async () => {
    const id = await started.attached.entityWithFile('DataFile', 'outing.ld', first.bytes, { compressed: true, replacing: 'outing' });
    const before = await lap1(id, first.channel);
    expect(before.status).toBe(200);
    expect(before.body.samples).toEqual(expectedLap1(first.bytes, first.channel));
    const oldKey = await blobKeyOf(first.bytes);
    expect(await caches().decompressed.has(oldKey)).toBe(true);
    // The same read again is the answer kept for these bytes.
    expect((await lap1(id, first.channel)).body).toEqual(before.body);
    expect(caches().results.heldBytes).toBeGreaterThan(0);

    await started.attached.attach(id, 'DataFile', 'outing.ld', second.bytes, { compressed: true, replacing: 'outing' });
    const meta = await get(`/RunSheets/${id}/DataFileAccess/DataFile/metadata`);
    expect(meta.body.lapCount).toBe(openDataFile(second.bytes).laps.length);
    const after = await lap1(id, second.channel);
    expect(after.body.samples).toEqual(expectedLap1(second.bytes, second.channel));
    expect(after.body.samples).not.toEqual(before.body.samples);

    await eventually(async () => !(await caches().decompressed.has(oldKey)));
    expect(caches().cache.deleteAll(oldKey)).toBe(0);
    expect(caches().results.deleteAll(oldKey)).toBe(0);
  }, 60_000);

  test('when the file is deleted, then a read is 404 and its cached channels and decompressed copy are dropped, also when the event comes again', async () => {
    const id = await started.attached.entity();
    const fileId = await started.attached.attach(id, 'DataFile', 'outing.ld', second.bytes, { compressed: true });
    expect((await lap1(id, second.channel)).status).toBe(200);
    const key = await blobKeyOf(second.bytes);
    expect(await caches().decompressed.has(key)).toBe(true);

    await started.attached.detach(id, fileId);
    expect((await lap1(id, second.channel)).status).toBe(404);
    await eventually(async () => !(await caches().decompressed.has(key)));
    expect(caches().cache.deleteAll(key)).toBe(0);

    // A redelivered event finds nothing left to drop, and other datasets keep being served.
    const other = await started.attached.entityWithFile('DataFile', 'other.ld', first.bytes);
    expect((await lap1(other, first.channel)).status).toBe(200);
    await started.stack.bus.publish(EXCHANGES.entityEvents, 'attachment.deleted', { entityId: id, attachedFileId: fileId });
    await started.stack.bus.publish(EXCHANGES.entityEvents, 'attachment.deleted', { entityId: id, attachedFileId: fileId });
    expect((await lap1(id, second.channel)).status).toBe(404);
    expect((await lap1(other, first.channel)).body.samples).toEqual(expectedLap1(first.bytes, first.channel));
  }, 60_000);

  test('when the entity is deleted, then a read is 404 and what was cached of its dataset is dropped', async () => {
    const id = await started.attached.entityWithFile('DataFile', 'outing.ld', first.bytes, { compressed: true });
    expect((await lap1(id, first.channel)).status).toBe(200);
    const key = await blobKeyOf(first.bytes);
    expect(await caches().decompressed.has(key)).toBe(true);

    await started.attached.remove(id);
    expect((await lap1(id, first.channel)).status).toBe(404);
    await eventually(async () => !(await caches().decompressed.has(key)));
    expect(caches().cache.deleteAll(key)).toBe(0);
  }, 60_000);
});
