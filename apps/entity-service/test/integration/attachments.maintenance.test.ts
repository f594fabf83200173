import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import pino from 'pino';
import { FilesystemBlobStore, contentKey } from '@pitwall/blob-store';
import { createPool, migrate } from '@pitwall/db';
import { createTestDatabase, type TestDatabase } from '@pitwall/db/testing';
import { createOutbox } from '@pitwall/messaging';
import type { CallerContext, EntityChangedEvent } from '@pitwall/contracts';
import { ENTITY_SCHEMA, entityMigrations } from '../../src/data-access/migrations';
import { drainDatabaseBytes, sweepAbandonedUploads } from '../../src/domain/attachments/maintenance';
import { EntityStore } from '../../src/domain/entity-store';

const silent = pino({ level: 'silent' });
const dir = mkdtempSync(join(tmpdir(), 'pitwall-maintenance-'));
const blobs = new FilesystemBlobStore(join(dir, 'blobs'));
let db: TestDatabase;
let pool: pg.Pool;
let store: EntityStore;

beforeAll(async () => {
  db = await createTestDatabase();
  pool = createPool({ url: db.url, applicationName: 'entity-service-test', logger: silent });
  await migrate(pool, { schema: ENTITY_SCHEMA, migrations: entityMigrations, logger: silent });
  store = new EntityStore(pool, createOutbox<EntityChangedEvent>({ pool, schema: ENTITY_SCHEMA, publish: async () => undefined, logger: silent }));
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const admin = (): CallerContext => ({ accountId: randomUUID(), userId: randomUUID(), role: 'admin' });

async function car(caller: CallerContext): Promise<string> {
  return JSON.parse((await store.create(caller, 'Cars', {}, { ParameterUpdates: [{ Name: 'Name', Value: 'Car' }] })).json.toString()).Id;
}

async function record(caller: CallerContext, entityId: string, state: number, createdTime: string, blobKey: string | null = null): Promise<string> {
  const id = randomUUID();
  await pool.query(
    `INSERT INTO entity.attached_files (id, account_id, entity_id, user_id, file_name, use_compression, state, created_time, modified_at, blob_key)
     VALUES ($1, $2, $3, $4, 'f.ld', false, $5, $6, now(), $7)`,
    [id, caller.accountId, entityId, caller.userId, state, createdTime, blobKey],
  );
  return id;
}

const row = async (id: string) => (await pool.query('SELECT state, blob_key, blob_sha256, file_size FROM entity.attached_files WHERE id = $1', [id])).rows[0];

describe('moving bytes out of PostgreSQL', () => {
  test('when attached file bytes are in entity.attached_file_blobs, then the drain moves them to the blob store, the records take their keys, and a second run moves nothing', async () => {
    const caller = admin();
    const entity = await car(caller);
    const a = await record(caller, entity, 2, '2026-01-01T00:00:00Z');
    const b = await record(caller, entity, 2, '2026-01-02T00:00:00Z');
    await pool.query(`INSERT INTO entity.attached_file_blobs (attached_file_id, data) VALUES ($1, $2), ($3, $2)`, [a, Buffer.from('same bytes'), b]);

    expect(await drainDatabaseBytes({ pool, blobs, logger: silent })).toBeGreaterThanOrEqual(2);

    const key = contentKey(await sha256('same bytes'));
    expect(await row(a)).toMatchObject({ blob_key: key, file_size: '10' });
    expect(await row(b)).toMatchObject({ blob_key: key });
    expect((await blobs.readRange(key, 0, 100)).toString()).toBe('same bytes');
    expect((await pool.query('SELECT count(*)::int AS n FROM entity.attached_file_blobs')).rows[0].n).toBe(0);
    expect(await drainDatabaseBytes({ pool, blobs, logger: silent })).toBe(0);
  });
});

describe('sweeping abandoned uploads', () => {
  test('when uploads stayed below state 2 past the limit, then they go with their unreferenced bytes; recent and available ones stay', async () => {
    const caller = admin();
    const entity = await car(caller);
    const stored = await blobs.putStream([Buffer.from(`abandoned ${randomUUID()}`)]);
    const old = new Date(Date.now() - 3 * 3600 * 1000).toISOString();
    const abandoned = await record(caller, entity, 1, old, stored.key);
    const pending = await record(caller, entity, 0, old);
    const recent = await record(caller, entity, 0, new Date().toISOString());
    const available = await record(caller, entity, 2, old);

    expect(await sweepAbandonedUploads({ pool, blobs, logger: silent }, 3600)).toBeGreaterThanOrEqual(2);

    expect(await row(abandoned)).toBeUndefined();
    expect(await row(pending)).toBeUndefined();
    expect(await row(recent)).toMatchObject({ state: 0 });
    expect(await row(available)).toMatchObject({ state: 2 });
    expect(await blobs.exists(stored.key)).toBe(false);
  });
});

async function sha256(text: string): Promise<string> {
  const { createHash } = await import('node:crypto');
  return createHash('sha256').update(text).digest('hex');
}
