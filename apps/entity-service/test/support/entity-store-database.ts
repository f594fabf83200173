import type pg from 'pg';
import pino from 'pino';
import { createPool, migrate } from '@pitwall/db';
import { createTestDatabase, type TestDatabase } from '@pitwall/db/testing';
import { createOutbox, type Outbox, type PublishMessage } from '@pitwall/messaging';
import type { EntityChangedEvent } from '@pitwall/contracts';
import { ENTITY_SCHEMA, entityMigrations } from '../../src/data-access/migrations';
import { EntityStore } from '../../src/domain/entity-store';

/** An EntityStore on a database of its own, migrated, whose outbox publishes into `published`. */
export interface EntityStoreDatabase {
  pool: pg.Pool;
  outbox: Outbox<EntityChangedEvent>;
  store: EntityStore;
  /** Every event the outbox published, in order. */
  published: { routingKey: string; event: EntityChangedEvent }[];
}

/** Registers the suite's beforeAll (a new database, migrated) and afterAll (the outbox stopped, the database dropped). */
export function entityStoreOnTestDatabase(applicationName = 'entity-service-test'): EntityStoreDatabase {
  const silent = pino({ level: 'silent' });
  const harness = { published: [] } as unknown as EntityStoreDatabase;
  let db: TestDatabase | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
    harness.pool = createPool({ url: db.url, applicationName, logger: silent });
    await migrate(harness.pool, { schema: ENTITY_SCHEMA, migrations: entityMigrations, logger: silent });
    const publish: PublishMessage<EntityChangedEvent> = async (routingKey, event) => {
      harness.published.push({ routingKey, event });
    };
    harness.outbox = createOutbox({ pool: harness.pool, schema: ENTITY_SCHEMA, publish, logger: silent });
    harness.store = new EntityStore(harness.pool, harness.outbox);
  });
  afterAll(async () => {
    await harness.outbox?.stop();
    await harness.pool?.end();
    await db?.drop();
  });
  return harness;
}
