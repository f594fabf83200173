import type { Bus } from '@pitwall/bus';
import { EXCHANGES, SERVICES } from '@pitwall/contracts';
import { hostService, runMain, type ServiceHandle } from '@pitwall/service-host';
import { ENTITY_SCHEMA, entityMigrations } from './data-access/migrations';
import { EntityStore } from './domain/entity-store';
import { commandContext, entityCommands } from './entry-points/bus/entity-commands';

/** Composition root: owns the `entity` schema, answers entity commands, publishes entity events. */
export function start(env: NodeJS.ProcessEnv = process.env, shared: { bus?: Bus } = {}): Promise<ServiceHandle> {
  return hostService({
    name: 'entity-service',
    busService: SERVICES.entity,
    database: { schema: ENTITY_SCHEMA, migrations: entityMigrations },
    env,
    shared,
    build: async ({ bus, pool, logger }) => {
      if (!pool) throw new Error('entity-service needs its database');
      // The write is committed when this runs: a publish failure is logged, never turned into an error for the caller.
      const store = new EntityStore(pool, async (events) => {
        for (const e of events) {
          const requestId = commandContext.getStore()?.requestId;
          await bus.publish(EXCHANGES.entityEvents, `entity.${e.entityType}.${e.action}`, e, requestId ? { requestId } : {}).catch((err: unknown) => {
            logger.error({ err, event: e }, 'entity event not published');
          });
        }
      });
      return { handler: entityCommands(store, logger) };
    },
  });
}

if (require.main === module) runMain('entity-service', () => start());
