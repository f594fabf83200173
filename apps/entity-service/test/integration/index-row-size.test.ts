import { randomBytes, randomUUID } from 'node:crypto';
import pino from 'pino';
import { createOutbox } from '@pitwall/messaging';
import type { CallerContext, EntityChangedEvent } from '@pitwall/contracts';
import { toAppError } from '@pitwall/service-kit';
import { ENTITY_SCHEMA } from '../../src/data-access/migrations';
import { EntityStore } from '../../src/domain/entity-store';
import { entityTestDatabase } from '../support/count-statements';

// The entities are found by their EventId, CarId and ChampionshipId through indexes of PostgreSQL, which holds at most
// about 2,700 bytes a value. A custom Text parameter may take such a name on a type that has none of its own.
const database = entityTestDatabase();

test('when a custom Text parameter named CarId holds 3,000 random characters, then the create is a 400 saying the value is too long to index, and nothing was created', async () => {
  const silent = pino({ level: 'silent' });
  const outbox = createOutbox<EntityChangedEvent>({ pool: database.pool, schema: ENTITY_SCHEMA, publish: async () => undefined, logger: silent });
  const store = new EntityStore(database.pool, outbox, undefined, () => ({}));
  const caller: CallerContext = { accountId: randomUUID(), userId: randomUUID(), role: 'editor' };
  const updates = (values: Record<string, string>) => ({ ParameterUpdates: Object.entries(values).map(([Name, Value]) => ({ Name, Value })) });
  await store.create(caller, 'ParameterDefinitions', {}, updates({ EntityType: 'Drivers', Name: 'CarId', ParameterType: 'Text' }));

  const refused = await store.create(caller, 'Drivers', {}, updates({ Name: 'Long', CarId: randomBytes(2250).toString('base64') })).then(
    () => undefined,
    (err: unknown) => toAppError(err),
  );
  expect(refused?.status).toBe(400);
  expect(refused?.message).toMatch(/^A value of this request is too long for the database to index/);
  const { rows } = await database.pool.query(`SELECT 1 FROM entity.entities WHERE account_id = $1 AND type = 'Drivers'`, [caller.accountId]);
  expect(rows).toEqual([]);
  // A value of ordinary length is kept.
  await store.create(caller, 'Drivers', {}, updates({ Name: 'Short', CarId: 'car 7' }));
});
