import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { createOutbox } from '@pitwall/messaging';
import type { CallerContext, EntityChangedEvent } from '@pitwall/contracts';
import { ENTITY_SCHEMA } from '../../src/data-access/migrations';
import { EntityStore } from '../../src/domain/entity-store';
import { DEFAULT_RULE_LIMITS } from '../../src/domain/type-rules';
import { entityTestDatabase } from '../support/count-statements';

// A collection update locks the siblings of each (parent, second parent) pair it adds items under: one lock each, in
// one transaction. PostgreSQL's lock table holds about 12,800 for the whole cluster by default; past it, this update
// and any other transaction of the cluster that needed a lock failed with "out of shared memory" (a 500).
const database = entityTestDatabase();

test('when a collection update adds items under more parent pairs than MAX_COLLECTION_PAIRS, then it is a 400 naming it and nothing is written; within it, the items are added', async () => {
  const outbox = createOutbox<EntityChangedEvent>({ pool: database.pool, schema: ENTITY_SCHEMA, publish: async () => undefined, logger: pino({ level: 'silent' }) });
  const store = new EntityStore(database.pool, outbox, undefined, undefined, { ruleLimits: { ...DEFAULT_RULE_LIMITS, maxCollectionPairs: 2 } });
  const caller: CallerContext = { accountId: randomUUID(), userId: randomUUID(), role: 'editor' };
  const create = async (type: string, parentIds: Record<string, string>) =>
    (JSON.parse((await store.create(caller, type, parentIds, { ParameterUpdates: [{ Name: 'Name', Value: `${type} ${randomUUID().slice(0, 6)}` }] })).json.toString('utf8')) as { Id: string }).Id;
  const championshipId = await create('Championships', {});
  const eventId = await create('Events', { championshipId });
  const cars = [await create('Cars', {}), await create('Cars', {}), await create('Cars', {})];
  const entries = (ids: string[]) => ({ CollectionUpdateModels: { Cars: ids.map((carId) => ({ ParameterUpdates: [{ Name: 'CarId', Value: carId }] })) } });

  await expect(store.update(caller, 'Events', eventId, entries(cars))).rejects.toMatchObject({
    status: 400,
    errors: { CollectionUpdateModels: ['adds EventCars under more than 2 parent pairs (MAX_COLLECTION_PAIRS: each is a lock of its transaction); split it into several updates'] },
  });
  const count = async () => Number((await database.pool.query(`SELECT count(*) AS n FROM entity.entities WHERE account_id = $1 AND type = 'EventCars'`, [caller.accountId])).rows[0].n);
  expect(await count()).toBe(0);
  await store.update(caller, 'Events', eventId, entries(cars.slice(0, 2)));
  expect(await count()).toBe(2);
});
