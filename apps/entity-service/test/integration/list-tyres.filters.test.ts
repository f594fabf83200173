import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import pino from 'pino';
import { AppError } from '@pitwall/service-kit';
import { createPool, migrate } from '@pitwall/db';
import { createTestDatabase, type TestDatabase } from '@pitwall/db/testing';
import type { CallerContext, EntityChangedEvent } from '@pitwall/contracts';
import { createOutbox } from '@pitwall/messaging';
import { ENTITY_SCHEMA, entityMigrations } from '../../src/data-access/migrations';
import { EntityStore } from '../../src/domain/entity-store';

// The list command's declared filters (Tyres: tyreSpecificationId); the gateway's list route passes them once it reads them from the registry.
const silent = pino({ level: 'silent' });
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
});

const admin = (): CallerContext => ({ accountId: randomUUID(), userId: randomUUID(), role: 'admin' });
const json = (reply: { json: Buffer }) => JSON.parse(reply.json.toString('utf8'));
const create = async (caller: CallerContext, type: string, parameters: Record<string, string>) =>
  json(await store.create(caller, type, {}, { ParameterUpdates: Object.entries(parameters).map(([Name, Value]) => ({ Name, Value })) }));

describe('entity.list with filters', () => {
  test('when Tyres are listed with a tyreSpecificationId, then only the tyres of that specification answer', async () => {
    const caller = admin();
    const soft = await create(caller, 'TyreSpecifications', { Name: 'Soft' });
    const hard = await create(caller, 'TyreSpecifications', { Name: 'Hard' });
    const onSoft = await create(caller, 'Tyres', { Name: 'FL', TyreSpecificationId: soft.Id });
    await create(caller, 'Tyres', { Name: 'FR', TyreSpecificationId: hard.Id });
    await create(caller, 'Tyres', { Name: 'RL' });

    expect(json(await store.list(caller, 'Tyres', {}, ['Name'])).map((t: { Id: string }) => t.Id)).toHaveLength(3);
    expect(json(await store.list(caller, 'Tyres', {}, ['Name'], { tyreSpecificationId: soft.Id.toUpperCase() }))).toEqual([{ Id: onSoft.Id, Parameters: { Name: 'FL' } }]);
  });

  test('when a type is listed with a filter it does not declare, then it is a 400 naming the filter', async () => {
    const caller = admin();
    const error = await store.list(caller, 'TyreSets', {}, undefined, { tyreSpecificationId: randomUUID() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 400, errors: { tyreSpecificationId: ['is not a filter of TyreSets'] } });
  });
});
