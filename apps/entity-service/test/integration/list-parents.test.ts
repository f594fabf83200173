import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { createOutbox } from '@pitwall/messaging';
import type { CallerContext, EntityChangedEvent } from '@pitwall/contracts';
import { ENTITY_SCHEMA } from '../../src/data-access/migrations';
import { EntityStore } from '../../src/domain/entity-store';
import { entityTestDatabase } from '../support/count-statements';

// A list names its parents in the query: a 400 names what is missing or unknown, in the words of the type's parents.
const database = entityTestDatabase();
const store = () => new EntityStore(database.pool, createOutbox<EntityChangedEvent>({ pool: database.pool, schema: ENTITY_SCHEMA, publish: async () => undefined, logger: pino({ level: 'silent' }) }));
const caller = (): CallerContext => ({ accountId: randomUUID(), userId: randomUUID(), role: 'admin' });

describe('the parent ids of a list', () => {
  test.each([
    ['Events', {}, { championshipId: ['is required'] }],
    ['RunSheets', {}, { sessionId: ['at least one of sessionId, carId is required'] }],
  ])('when %s are listed with %j, then 400 naming %j', async (type, parents, errors) => {
    await expect(store().list(caller(), type, parents)).rejects.toMatchObject({ status: 400, errors });
  });
});
