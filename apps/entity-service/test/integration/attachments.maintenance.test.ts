import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import pino from 'pino';
import { FilesystemBlobStore, contentKey } from '@pitwall/blob-store';
import { createPool, migrate } from '@pitwall/db';
import { createTestDatabase, type TestDatabase } from '@pitwall/db/testing';
import { createOutbox } from '@pitwall/messaging';
import type { CallerContext, EntityChangedEvent } from '@pitwall/contracts';
import { ENTITY_SCHEMA, LEGACY_BYTES_DROPPED_VERSION, entityMigrations } from '../../src/data-access/migrations';
import { moveLegacyBytes, sweepAbandonedUploads, sweepUnreferencedBlobs } from '../../src/domain/attachments/maintenance';
import { EntityStore } from '../../src/domain/entity-store';
import { entityService } from '../../src/definition';
import { startInProcessStack } from '@pitwall/service-host/testing';

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

describe('bytes kept in PostgreSQL before the blob store: moved into it, then their table dropped (migration 50)', () => {
  let legacy: TestDatabase;
  let legacyPool: pg.Pool;
  const legacyBlobDir = join(dir, `legacy-${randomUUID()}`);
  const openBlobs = () => new FilesystemBlobStore(legacyBlobDir);
  const beforeBlobStore = entityMigrations.filter((m) => m.version < 40);

  beforeEach(async () => {
    legacy = await createTestDatabase();
    legacyPool = createPool({ url: legacy.url, applicationName: 'entity-service-test', logger: silent });
    // A database as the release before the blob store left it: the bytes are in entity.attached_file_blobs.
    await migrate(legacyPool, { schema: ENTITY_SCHEMA, migrations: beforeBlobStore, logger: silent });
  });
  afterEach(async () => {
    await legacyPool?.end();
    await legacy?.drop();
  });

  /** An entity and its attached files with their bytes in the legacy table, written as the old release did. */
  async function legacyFiles(contents: string[], q: pg.Pool = legacyPool): Promise<string[]> {
    const accountId = randomUUID();
    const entityId = randomUUID();
    await q.query(`INSERT INTO entity.entities (id, account_id, type, created_at, modified_at) VALUES ($1, $2, 'Cars', now(), now())`, [entityId, accountId]);
    const ids: string[] = [];
    for (const content of contents) {
      const id = randomUUID();
      await q.query(
        `INSERT INTO entity.attached_files (id, account_id, entity_id, file_name, state, file_size, created_time, modified_at) VALUES ($1, $2, $3, 'f.ld', 2, $4, now(), now())`,
        [id, accountId, entityId, Buffer.byteLength(content)],
      );
      await q.query(`INSERT INTO entity.attached_file_blobs (attached_file_id, data) VALUES ($1, $2)`, [id, Buffer.from(content)]);
      ids.push(id);
    }
    return ids;
  }
  const legacyRow = async (id: string) => (await legacyPool.query('SELECT blob_key, file_size FROM entity.attached_files WHERE id = $1', [id])).rows[0];
  /** What a database of the blob store's eve (version 41) still has to apply: migration 50 and every later one. */
  const laterThanLegacy = entityMigrations.map((m) => m.version).filter((v) => v >= LEGACY_BYTES_DROPPED_VERSION);
  const tableExists = async () => (await legacyPool.query(`SELECT to_regclass('entity.attached_file_blobs') IS NOT NULL AS present`)).rows[0].present as boolean;

  test('when the bytes are moved and the migrations run (the order of a start), then identical bytes are stored once and the emptied table is dropped', async () => {
    const [a, b, c] = await legacyFiles(['same bytes', 'same bytes', 'other bytes']);

    expect(await moveLegacyBytes(legacyPool, openBlobs, silent)).toBe(3);
    const { applied } = await migrate(legacyPool, { schema: ENTITY_SCHEMA, migrations: entityMigrations, logger: silent });

    expect(applied).toEqual(laterThanLegacy);
    expect(await tableExists()).toBe(false);
    const key = contentKey(await sha256('same bytes'));
    expect(await legacyRow(a as string)).toMatchObject({ blob_key: key, file_size: '10' });
    expect(await legacyRow(b as string)).toMatchObject({ blob_key: key });
    const other = (await legacyRow(c as string)).blob_key as string;
    expect((await openBlobs().readRange(other, 0, 100)).toString()).toBe('other bytes');
    // Run again (every start does): nothing to move, and the migrations have nothing left to apply.
    expect(await moveLegacyBytes(legacyPool, openBlobs, silent)).toBe(0);
    expect((await migrate(legacyPool, { schema: ENTITY_SCHEMA, migrations: entityMigrations, logger: silent })).applied).toEqual([]);
  });

  test('when the entity-service starts on such a database, then it comes up with the bytes in the blob store and the table gone', async () => {
    const stack = await startInProcessStack();
    const stackPool = createPool({ url: stack.databaseUrl, applicationName: 'entity-service-test', logger: silent });
    try {
      await migrate(stackPool, { schema: ENTITY_SCHEMA, migrations: beforeBlobStore, logger: silent });
      const [id] = await legacyFiles(['bytes from the old release'], stackPool);

      await stack.start(entityService, { BLOB_DIR: legacyBlobDir });

      expect((await stackPool.query(`SELECT to_regclass('entity.attached_file_blobs') AS t`)).rows[0].t).toBeNull();
      const { blob_key: key } = (await stackPool.query('SELECT blob_key FROM entity.attached_files WHERE id = $1', [id])).rows[0];
      expect((await openBlobs().readRange(key, 0, 100)).toString()).toBe('bytes from the old release');
    } finally {
      await stackPool.end();
      await stack.stop();
    }
  });

  test('when the migrations run while bytes are still in the table, then migration 50 stops with the reason and the bytes stay', async () => {
    const [a] = await legacyFiles(['not moved yet']);

    await expect(migrate(legacyPool, { schema: ENTITY_SCHEMA, migrations: entityMigrations, logger: silent })).rejects.toThrow(/still holds attached file bytes/);

    expect(await tableExists()).toBe(true);
    expect((await legacyPool.query('SELECT data FROM entity.attached_file_blobs WHERE attached_file_id = $1', [a])).rows[0].data.toString()).toBe('not moved yet');
    // The migrations before it were applied; the move then finds its table and the drop goes through.
    expect(await moveLegacyBytes(legacyPool, openBlobs, silent)).toBe(1);
    expect((await migrate(legacyPool, { schema: ENTITY_SCHEMA, migrations: entityMigrations, logger: silent })).applied).toEqual(laterThanLegacy);
  });

  test('when the database is new, then there is nothing to move and the table is created and dropped by the migrations', async () => {
    const fresh = await createTestDatabase();
    const freshPool = createPool({ url: fresh.url, applicationName: 'entity-service-test', logger: silent });
    try {
      expect(await moveLegacyBytes(freshPool, openBlobs, silent)).toBe(0);
      await migrate(freshPool, { schema: ENTITY_SCHEMA, migrations: entityMigrations, logger: silent });
      expect((await freshPool.query(`SELECT to_regclass('entity.attached_file_blobs') AS t`)).rows[0].t).toBeNull();
    } finally {
      await freshPool.end();
      await fresh.drop();
    }
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

describe('sweeping blobs no record refers to', () => {
  // A store of its own: the sweep walks all of it.
  const swept = new FilesystemBlobStore(join(dir, `sweep-${randomUUID()}`));
  const ctx = () => ({ pool, blobs: swept, logger: silent });
  const twoHoursAgo = new Date(Date.now() - 2 * 3600 * 1000);
  const age = (key: string) => utimesSync(join(swept.dir, key), twoHoursAgo, twoHoursAgo);
  const put = async (text: string, old = true) => {
    const blob = await swept.putStream([Buffer.from(`${text} ${randomUUID()}`)]);
    if (old) age(blob.key);
    return blob.key;
  };
  const staged = async (id: string) => {
    const key = swept.stagingKey(id);
    await swept.putStaged(key, [Buffer.from(`staged ${id}`)]);
    age(key);
    return key;
  };

  test('when blobs are unreferenced and older than the grace age, then they go; referenced, young, and staged bytes of uploads in progress stay', async () => {
    const caller = admin();
    const entity = await car(caller);
    const orphan = await put('deleted while the store was down');
    const referenced = await put('finalised');
    await record(caller, entity, 2, new Date().toISOString(), referenced);
    const young = await put('just promoted', false);
    const pending = await record(caller, entity, 0, new Date().toISOString());
    const stagedPending = await staged(pending);
    const stagedGone = await staged(randomUUID());
    const stagedAvailable = await staged(await record(caller, entity, 2, new Date().toISOString()));
    const stagedTemporary = await staged(`put-${randomUUID()}`);

    expect(await sweepUnreferencedBlobs(ctx(), 3600)).toEqual({ content: 1, staged: 3 });

    const left: string[] = [];
    for (const area of ['sha256', 'staging'] as const) for await (const b of swept.list(area)) left.push(b.key);
    expect(left.sort()).toEqual([referenced, young, stagedPending].sort());
    expect([orphan, stagedGone, stagedAvailable, stagedTemporary].every((k) => !left.includes(k))).toBe(true);
  });

  test('when the store\'s folders also hold files that are not blobs, then the sweep passes over them, sweeps the rest and leaves them be', async () => {
    // What an operator or a tool may leave there: a README first in the listing, an rsync temporary, a name in capitals.
    const strays = ['sha256/0000README', 'sha256/.notes.txt.x8Yq2z', `sha256/${'A'.repeat(64)}`, 'staging/a.b'];
    for (const stray of strays) {
      writeFileSync(join(swept.dir, stray), 'not a blob');
      age(stray);
    }
    const orphan = await put('left by a failed release');
    const stagedGone = await staged(randomUUID());

    expect(await sweepUnreferencedBlobs(ctx(), 3600)).toEqual({ content: 1, staged: 1 });
    expect(await swept.exists(orphan)).toBe(false);
    expect(await swept.exists(stagedGone)).toBe(false);
    expect(strays.filter((stray) => existsSync(join(swept.dir, stray)))).toEqual(strays);
    // And the next sweep does not fail on them either.
    expect(await sweepUnreferencedBlobs(ctx(), 3600)).toEqual({ content: 0, staged: 0 });
  });

  test('when a finalise records its reference under the blob\'s lock while the sweep runs, then the sweep waits for it and keeps the blob', async () => {
    const caller = admin();
    const entity = await car(caller);
    const key = await put('promoted, its record committing');
    const finalise = await pool.connect();
    try {
      await finalise.query('BEGIN');
      await finalise.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`blob:${key}`]);
      const sweep = sweepUnreferencedBlobs(ctx(), 3600);
      await new Promise((r) => setTimeout(r, 300));
      // The finalise's reference, in its transaction, committed while the sweep waits for the lock.
      await finalise.query(
        `INSERT INTO entity.attached_files (id, account_id, entity_id, user_id, file_name, use_compression, state, created_time, modified_at, blob_key)
         VALUES ($1, $2, $3, $4, 'f.ld', false, 2, now(), now(), $5)`,
        [randomUUID(), caller.accountId, entity, caller.userId, key],
      );
      await finalise.query('COMMIT');
      await sweep;
    } finally {
      finalise.release();
    }
    expect(await swept.exists(key)).toBe(true);
  });
});

async function sha256(text: string): Promise<string> {
  const { createHash } = await import('node:crypto');
  return createHash('sha256').update(text).digest('hex');
}
