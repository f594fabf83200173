import { randomBytes } from 'node:crypto';
import type { Bus } from '@pitwall/bus';
import type { Cache } from '@pitwall/cache';
import { datafileService } from '@pitwall/datafile-service';
import { entityService } from '@pitwall/entity-service';
import { gateway } from '@pitwall/gateway';
import { simulationService } from '@pitwall/simulation-service';
import { BaseServiceConfig, startService, type RunningService, type ServiceDefinition } from '@pitwall/service-host';
import { loadConfig } from '@pitwall/service-kit';
import { timingService } from '@pitwall/timing-service';
import apps from '../apps.json';

/** Every service definition by app name; apps/standalone/apps.json says which run and in what order. */
const SERVICES: Record<string, ServiceDefinition> = {
  [entityService.name]: entityService,
  [timingService.name]: timingService,
  [simulationService.name]: simulationService,
  [datafileService.name]: datafileService,
};

/**
 * Checks `env` against every app's settings, as each app's start will: a bad value stops `npm start` at once, naming
 * the variable, before the embedded database and the other apps start.
 */
export function checkSettings(env: NodeJS.ProcessEnv): void {
  for (const definition of [...Object.values(SERVICES), gateway as ServiceDefinition]) {
    loadConfig(definition.config ? BaseServiceConfig.extend(definition.config.shape) : BaseServiceConfig, env);
  }
}

export interface ComposedStack {
  gateway: RunningService<Awaited<ReturnType<NonNullable<typeof gateway.build>>>>;
  services: RunningService[];
  /** The gateway first (stop taking requests, answer those taken), then the services, last started first. */
  stop(): Promise<void>;
}

/** Starts the services of apps/standalone/apps.json, then the gateway, in this process on the given shared transports. */
export async function composeStack(given: NodeJS.ProcessEnv, shared: { bus?: Bus; cache?: Cache }): Promise<ComposedStack> {
  // One process: its gateway and datafile-service share a claim secret made here, on a real broker (AMQP_URL, no
  // shared bus) too, where each would otherwise ask for CLAIM_SECRET. Several processes on one broker share one
  // CLAIM_SECRET (docs/operations.md): each gateway may redeem the other processes' claims.
  const env = shared.bus || given['CLAIM_SECRET'] ? given : { ...given, CLAIM_SECRET: randomBytes(32).toString('base64url') };
  const services: RunningService[] = [];
  const stopServices = async (graceEndsAt?: number): Promise<void> => {
    for (const s of services.splice(0).reverse()) await s.stop(graceEndsAt);
  };
  try {
    for (const name of apps.services) {
      const definition = SERVICES[name];
      if (!definition) throw new Error(`apps/standalone/apps.json lists ${name}, which has no definition in apps/standalone`);
      services.push(await startService(definition, { env, shared }));
    }
    if (apps.gateway !== gateway.name) throw new Error(`apps/standalone/apps.json names the gateway ${apps.gateway}, its definition ${gateway.name}`);
    const running = await startService(gateway, { env, shared });
    return {
      gateway: running,
      services: [...services],
      // One grace for the whole stack: what the services still hold for the gateway's requests (a claim) waits as
      // long as the gateway did, not a grace more.
      stop: async () => {
        const graceEndsAt = Date.now() + running.graceMs;
        await running.stop(graceEndsAt);
        await stopServices(graceEndsAt);
      },
    };
  } catch (err) {
    await stopServices().catch(() => undefined);
    throw err;
  }
}
