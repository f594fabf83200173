import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import pino from 'pino';
import { FilesystemBlobStore } from '@pitwall/blob-store';
import { createPool, migrate } from '@pitwall/db';
import { createTestDatabase, type TestDatabase } from '@pitwall/db/testing';
import { createOutbox } from '@pitwall/messaging';
import type { CallerContext, EntityChangedEvent } from '@pitwall/contracts';
import { ENTITY_SCHEMA, entityMigrations } from '../../src/data-access/migrations';
import { attachedFileRepository } from '../../src/data-access/attached-file-repository';
import { releaseBlobs } from '../../src/domain/attachments/attachment-context';
import { EntityStore } from '../../src/domain/entity-store';

// The records are written with SQL as an upload leaves them; their bytes are in a blob store of the test's own.
const silent = pino({ level: 'silent' });
const dir = mkdtempSync(join(tmpdir(), 'pitwall-copy-all-'));
const blobs = new FilesystemBlobStore(join(dir, 'blobs'));
let db: TestDatabase;
let pool: pg.Pool;
let store: EntityStore;

beforeAll(async () => {
  db = await createTestDatabase();
  pool = createPool({ url: db.url, applicationName: 'entity-service-test', logger: pino({ level: 'silent' }) });
  await migrate(pool, { schema: ENTITY_SCHEMA, migrations: entityMigrations, logger: pino({ level: 'silent' }) });
  // A delete releases the blobs nothing refers to any more, as the service wires it.
  store = new EntityStore(pool, createOutbox<EntityChangedEvent>({ pool, schema: ENTITY_SCHEMA, publish: async () => undefined, logger: silent }), undefined, undefined, {
    releaseBlobs: (keys) => releaseBlobs({ pool, blobs, logger: silent }, keys),
  });
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const admin = (): CallerContext => ({ accountId: randomUUID(), userId: randomUUID(), role: 'admin' });
const json = (reply: { json: Buffer }) => JSON.parse(reply.json.toString('utf8'));
const named = (name: string) => ({ ParameterUpdates: [{ Name: 'Name', Value: name }] });

/** An available attached file whose bytes are in the blob store, as an upload leaves it. */
async function attach(caller: CallerContext, entityId: string, fileName: string, createdTime: string, bytes: string): Promise<string> {
  const id = randomUUID();
  const blob = await blobs.putStream([Buffer.from(bytes)]);
  await pool.query(
    `INSERT INTO entity.attached_files (id, account_id, entity_id, user_id, file_name, group_name, use_compression, state, file_size, created_time, modified_at, blob_key, blob_sha256)
     VALUES ($1, $2, $3, $4, $5, 'DataFile', false, 2, $6, $7, now(), $8, $9)`,
    [id, caller.accountId, entityId, caller.userId, fileName, blob.size, createdTime, blob.key, blob.sha256],
  );
  return id;
}

/** The bytes each record refers to, read from the blob store ('(none)': no key, or its blob is gone). */
async function storedBytes(fileIds: string[]): Promise<string[]> {
  const { rows } = await pool.query<{ id: string; blob_key: string | null }>(`SELECT id, blob_key FROM entity.attached_files WHERE id = ANY($1::uuid[])`, [fileIds]);
  const keys = new Map(rows.map((r) => [r.id, r.blob_key]));
  return Promise.all(
    fileIds.map(async (id) => {
      const key = keys.get(id);
      return key && (await blobs.exists(key)) ? (await blobs.readRange(key, 0, 1024)).toString('utf8') : '(none)';
    }),
  );
}

describe('create with CopyAll', () => {
  test('when the source and its children have attached files, then the copy gets its own copies, in the same order', async () => {
    const caller = admin();
    const championship = json(await store.create(caller, 'Championships', {}, named('Series')));
    const event = json(await store.create(caller, 'Events', { championshipId: championship.Id }, named('Monza')));
    // Per-lap files of one dataset: read in creation order, which the copy must keep.
    const lap2 = await attach(caller, event.Id, 'lap2.ld', '2026-04-12T14:10:00.000Z', 'bytes of lap 2');
    const lap1 = await attach(caller, event.Id, 'lap1.ld', '2026-04-12T14:05:00.000Z', 'bytes of lap 1');
    await attach(caller, championship.Id, 'regulations.pdf', '2026-01-01T00:00:00.000Z', 'rules');

    const copy = json(await store.create(caller, 'Championships', {}, { CopyFromId: championship.Id, CopyAll: true, ParameterUpdates: [] }));
    const read = json(await store.get(caller, 'Championships', copy.Id, ['AttachedFiles.*', 'Events.AttachedFiles.FileName']));

    expect(read.AttachedFiles.map((f: { Parameters: { FileName: string } }) => f.Parameters.FileName)).toEqual(['regulations.pdf']);
    expect(read.AttachedFiles[0].Parameters).toMatchObject({ FileSize: 5, ServerAttachedFileState: 2, AttachedFileGroupName: 'DataFile', CreatedTime: '2026-01-01T00:00:00.000Z' });
    const copiedEvent = read.Events[0];
    expect(copiedEvent.Id).not.toBe(event.Id);
    expect(copiedEvent.AttachedFiles.map((f: { Parameters: { FileName: string } }) => f.Parameters.FileName)).toEqual(['lap1.ld', 'lap2.ld']);
    const copiedIds = copiedEvent.AttachedFiles.map((f: { Id: string }) => f.Id);
    expect(copiedIds).not.toContain(lap1);
    expect(copiedIds).not.toContain(lap2);
    expect(await storedBytes(copiedIds)).toEqual(['bytes of lap 1', 'bytes of lap 2']);
  });

  test('when the source is deleted after the copy, then the copy keeps its files and their bytes', async () => {
    const caller = admin();
    const car = json(await store.create(caller, 'Cars', {}, named('Car 7')));
    await attach(caller, car.Id, 'chassis.pdf', '2026-02-01T00:00:00.000Z', 'drawing');
    const copy = json(await store.create(caller, 'Cars', {}, { CopyFromId: car.Id, CopyAll: true, ParameterUpdates: [] }));

    await store.delete(caller, 'Cars', car.Id);
    const read = json(await store.get(caller, 'Cars', copy.Id, ['AttachedFiles.*']));

    expect(read.AttachedFiles).toHaveLength(1);
    expect(await storedBytes([read.AttachedFiles[0].Id])).toEqual(['drawing']);
  });

  test('when CopyAll is false, then the files stay with the source', async () => {
    const caller = admin();
    const car = json(await store.create(caller, 'Cars', {}, named('Car 8')));
    await attach(caller, car.Id, 'chassis.pdf', '2026-02-01T00:00:00.000Z', 'drawing');

    const copy = json(await store.create(caller, 'Cars', {}, { CopyFromId: car.Id, CopyAll: false, ParameterUpdates: [] }));

    expect(json(await store.get(caller, 'Cars', copy.Id, ['AttachedFiles.*'])).AttachedFiles).toEqual([]);
    expect(json(await store.get(caller, 'Cars', car.Id, ['AttachedFiles.*'])).AttachedFiles).toHaveLength(1);
  });

  test('when the source has files of more distinct blobs than PostgreSQL\'s shared lock table holds, then every one is copied', async () => {
    const caller = admin();
    const car = json(await store.create(caller, 'Cars', {}, named('Car 9')));
    // 15,000 records of 15,000 distinct blobs: more locks than the cluster's lock table holds by default (about 12,800).
    const files = 15_000;
    await pool.query(
      `INSERT INTO entity.attached_files (id, account_id, entity_id, user_id, file_name, group_name, use_compression, state, file_size, created_time, modified_at, blob_key, blob_sha256)
       SELECT gen_random_uuid(), $1, $2::uuid, $3, 'part' || g || '.bin', 'DataFile', false, 2, 1, now(), now(), 'copy-all-many-' || $2::text || '-' || g, repeat('0', 64)
       FROM generate_series(1, $4::int) g`,
      [caller.accountId, car.Id, caller.userId, files],
    );

    const copy = json(await store.create(caller, 'Cars', {}, { CopyFromId: car.Id, CopyAll: true, ParameterUpdates: [] }));

    const { rows } = await pool.query<{ n: string; keys: string }>(`SELECT count(*) AS n, count(DISTINCT blob_key) AS keys FROM entity.attached_files WHERE entity_id = $1`, [copy.Id]);
    expect(rows[0]).toEqual({ n: String(files), keys: String(files) });
  });

  test('when the source is deleted while a copy of its files is being made, then the delete waits for the copy and the copy keeps the bytes', async () => {
    const caller = admin();
    const car = json(await store.create(caller, 'Cars', {}, named('Car 10')));
    await attach(caller, car.Id, 'chassis.pdf', '2026-02-01T00:00:00.000Z', 'only copy of the drawing');
    const target = json(await store.create(caller, 'Cars', {}, named('Car 10 copy')));
    const copying = await pool.connect();
    try {
      await copying.query('BEGIN');
      await attachedFileRepository.copyAttachedFiles(copying, caller.accountId, [[car.Id, target.Id]], new Date());
      // The delete runs while the copy is uncommitted: it either finishes or waits on a lock before the copy commits.
      let settled = false;
      const deleting = store.delete(caller, 'Cars', car.Id).finally(() => (settled = true));
      for (;;) {
        const { rows } = await pool.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
        if (settled || rows.length > 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      await copying.query('COMMIT');
      await deleting;
    } finally {
      copying.release();
    }

    const read = json(await store.get(caller, 'Cars', target.Id, ['AttachedFiles.*']));
    expect(read.AttachedFiles).toHaveLength(1);
    expect(await storedBytes([read.AttachedFiles[0].Id])).toEqual(['only copy of the drawing']);
  });
});
