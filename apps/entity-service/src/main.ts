import { z } from 'zod';
import type { Bus } from '@pitwall/bus';
import { EXCHANGES, SERVICES } from '@pitwall/contracts';
import { hostService, runMain, type ServiceHandle } from '@pitwall/service-host';
import { intVar } from '@pitwall/service-kit';
import { ENTITY_SCHEMA, entityMigrations } from './data-access/migrations';
import { EntityStore } from './domain/entity-store';
import { ReadCache } from './domain/read-cache';
import { commandContext, entityCommands } from './entry-points/bus/entity-commands';

const EntityServiceConfig = z.object({
  /** Memory for rendered read replies (get, list, search), in MiB; 0 turns the cache off. */
  READ_CACHE_MB: intVar(64),
});

/** Composition root: owns the `entity` schema, answers entity commands, publishes entity events. */
export function start(env: NodeJS.ProcessEnv = process.env, shared: { bus?: Bus } = {}): Promise<ServiceHandle> {
  return hostService({
    name: 'entity-service',
    busService: SERVICES.entity,
    database: { schema: ENTITY_SCHEMA, migrations: entityMigrations },
    config: EntityServiceConfig,
    env,
    shared,
    build: async ({ bus, pool, logger, config }) => {
      if (!pool) throw new Error('entity-service needs its database');
      // The write is committed when this runs: a publish failure is logged, never turned into an error for the caller.
      const store = new EntityStore(pool, async (events) => {
        for (const e of events) {
          const requestId = commandContext.getStore()?.requestId;
          await bus.publish(EXCHANGES.entityEvents, `entity.${e.entityType}.${e.action}`, e, requestId ? { requestId } : {}).catch((err: unknown) => {
            logger.error({ err, event: e }, 'entity event not published');
          });
        }
      }, new ReadCache(config.READ_CACHE_MB * 1024 * 1024));
      return { handler: entityCommands(store, logger) };
    },
  });
}

if (require.main === module) runMain('entity-service', () => start());
