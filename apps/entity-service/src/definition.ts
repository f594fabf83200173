import { z } from 'zod';
import { EXCHANGES, SERVICES, type EntityChangedEvent } from '@pitwall/contracts';
import { createOutbox } from '@pitwall/messaging';
import { defineService } from '@pitwall/service-host';
import { intVar } from '@pitwall/service-kit';
import { ENTITY_SCHEMA, entityMigrations } from './data-access/migrations';
import { EntityStore } from './domain/entity-store';
import { ReadCache } from './domain/read-cache';
import { commandContext, entityCommands } from './entry-points/bus/entity-commands';

const EntityServiceConfig = z.object({
  /** Memory for rendered read replies (get, list, search), in MiB; 0 turns the cache off. */
  READ_CACHE_MB: intVar(64),
});

/** Owns the `entity` schema, answers entity commands, publishes entity events. */
export const entityService = defineService({
  name: 'entity-service',
  config: EntityServiceConfig,
  database: { schema: ENTITY_SCHEMA, migrations: entityMigrations },
  build: async ({ bus, pool, logger, config }) => {
    if (!pool) throw new Error('entity-service needs its database');
    // Events are written with their write and published after its commit; what fails now is retried (outbox).
    // Timing events (`timing.*`, written by timing updates) share the outbox and go to their own exchange.
    const exchangeOf = (routingKey: string) => (routingKey.startsWith('timing.') ? EXCHANGES.timingEvents : EXCHANGES.entityEvents);
    const outbox = createOutbox<EntityChangedEvent>({ pool, schema: ENTITY_SCHEMA, publish: (routingKey, event, headers) => bus.publish(exchangeOf(routingKey), routingKey, event, headers), logger });
    const requestHeaders = (): Record<string, string> => {
      const requestId = commandContext.getStore()?.requestId;
      return requestId ? { requestId } : {};
    };
    const store = new EntityStore(pool, outbox, new ReadCache(config.READ_CACHE_MB * 1024 * 1024), requestHeaders);
    outbox.start();
    return { store, stop: () => outbox.stop() };
  },
  bus: { service: SERVICES.entity, commands: ({ store }, { logger }) => entityCommands(store, logger) },
});
