import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { Bus } from '@pitwall/bus';
import type { Cache } from '@pitwall/cache';
import { datafileService } from '@pitwall/datafile-service';
import { entityService } from '@pitwall/entity-service';
import { gateway } from '@pitwall/gateway';
import { simulationService } from '@pitwall/simulation-service';
import { BaseServiceConfig, startService, type RunningService, type ServiceDefinition } from '@pitwall/service-host';
import { loadConfig, memoryMiB } from '@pitwall/service-kit';
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
 * the variable, before the embedded database and the other apps start. Returns what to warn of: the memory npm start's
 * one process may keep in its caches together (memoryKeptTogether) when it passes half of the machine's or container's.
 */
export function checkSettings(env: NodeJS.ProcessEnv): string[] {
  const settings: Record<string, unknown> = {};
  for (const definition of [...Object.values(SERVICES), gateway as ServiceDefinition]) {
    Object.assign(settings, loadConfig(definition.config ? BaseServiceConfig.extend(definition.config.shape) : BaseServiceConfig, env));
  }
  const kept = memoryKeptTogether(settings);
  const halfMiB = Math.floor(memoryMiB() / 2);
  if (kept.bytes <= halfMiB * MiB) return [];
  return [
    `The caches of this one process may together keep ${Math.round(kept.bytes / MiB)} MiB, more than half of the ${memoryMiB()} MiB this machine or container has (each is bounded by that half alone): ${kept.parts.join(', ')}. Lower one of them, or give the process more memory`,
  ];
}

const MiB = 1024 * 1024;

/**
 * The memory npm start keeps in caches, all in its one process: the entity-service's read cache, the datafile-service's
 * channel and result caches and each shape pool thread's scratch arrays, the gateway's held answers. Each setting is
 * bounded by half of the memory alone (memoryShareBytesVar); in several processes each has its own memory to share.
 */
export function memoryKeptTogether(settings: Record<string, unknown>): { bytes: number; parts: string[] } {
  const of = (key: string): number => (typeof settings[key] === 'number' ? (settings[key] as number) : 0);
  // The shape pool's threads: piscina's default, one and a half per core (the datafile-service sets no other).
  const threads = Math.max(1, Math.floor(availableParallelism() * 1.5));
  const parts: [string, number][] = [
    ['READ_CACHE_MB', of('READ_CACHE_MB') * MiB],
    ['DATAFILE_CHANNEL_CACHE_BYTES', of('DATAFILE_CHANNEL_CACHE_BYTES')],
    ['DATAFILE_RESULT_CACHE_BYTES', of('DATAFILE_RESULT_CACHE_BYTES')],
    [`DATAFILE_SCRATCH_BYTES × ${threads} pool threads`, of('DATAFILE_SCRATCH_BYTES') * threads],
    ['HELD_ANSWERS_BYTES', of('HELD_ANSWERS_BYTES')],
  ];
  return { bytes: parts.reduce((sum, [, bytes]) => sum + bytes, 0), parts: parts.filter(([, bytes]) => bytes > 0).map(([name, bytes]) => `${name} ${Math.round(bytes / MiB)} MiB`) };
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
