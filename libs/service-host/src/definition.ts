import type express from 'express';
import type { Pool } from 'pg';
import type { Piscina } from 'piscina';
import type { z } from 'zod';
import type { Bus, EventHandler, RequestHandler } from '@pitwall/bus';
import type { Cache } from '@pitwall/cache';
import type { Migration } from '@pitwall/db';
import type { HealthChecks, Logger, Metrics } from '@pitwall/service-kit';
import type { BaseServiceConfig } from './settings';

/** Transports one process shares between the definitions it runs (`npm start`, component tests). */
export interface SharedTransports {
  bus?: Bus;
  cache?: Cache;
}

/** What `build` and the builders receive. */
export interface ServiceContext<C = BaseServiceConfig> {
  name: string;
  config: C;
  logger: Logger;
  bus: Bus;
  /** Present when the definition declares a database. */
  pool: Pool | undefined;
  /** The app's Prometheus metrics (`/metrics` on its internal port). */
  metrics: Metrics;
  /** The worker pools the definition declares, by name. */
  workers: Record<string, Piscina>;
  shared: SharedTransports;
  /**
   * When the stop's grace ends (ms since the epoch; SHUTDOWN_GRACE_MS from the stop's start, or from now before it):
   * what serves requests of its own (the claim port) waits for them until then.
   */
  graceEnd(): number;
}

/**
 * What `build` makes from the context: anything the builders and the caller of `startService` need. A `stop`
 * function among them is the definition's extra clean-up, run after the entry points and consumers stop and
 * before connections close.
 */
export type ServiceParts = object;

/** The optional clean-up member of a definition's parts. */
export interface PartsCleanUp {
  stop?: () => Promise<void>;
  /**
   * Runs first on stop, before the consumers close: long-running handlers (a simulation job polling for minutes)
   * end their deliveries now, unacked, so they are redelivered to another instance instead of holding the stop.
   */
  drain?: () => void;
}

export interface EventSubscription<P, C> {
  /** Logical topic exchange (unprefixed), e.g. `entity.events`. */
  exchange: string;
  /** The durable queue this service consumes it through (unprefixed); its instances compete for it. */
  queue: string;
  bindingKeys: string[];
  handler(parts: P, ctx: ServiceContext<C>): EventHandler;
  prefetch?: number;
  /**
   * Every instance hears every event (for state local to a process, such as its caches): the host consumes through
   * a queue of this instance alone, `<queue>.<random id>`, which goes with it (SubscribeOptions.perInstance).
   */
  perInstance?: boolean;
}

export interface WorkerPool<C = unknown> {
  name: string;
  /** The worker's entry file: an absolute path, or a path relative to the running bundle's directory. */
  entry: string;
  /**
   * The entry's TypeScript source (absolute, `src/<name>.worker.entry.ts`): what a test stack running the sources
   * bundles when it is given no WORKER_DIR (`startInProcessStack`). Not read by a running bundle.
   */
  source?: string;
  maxThreads?: number;
  /** What each worker is given from the validated config (its `workerData`): settings a worker applies itself. */
  workerData?(config: C): unknown;
  /**
   * Each worker's JavaScript heap bound (MiB, its `resourceLimits.maxOldGenerationSizeMb`; 0: the process's) and what a
   * task that passes it is answered: the worker alone is ended and replaced, never the process.
   */
  heapLimit?(config: C): { mb: number; outOfMemory: () => Error };
}

export interface HttpPart<P, C> {
  /** The port setting (e.g. `PORT`), read from the validated config. */
  port(config: C): number;
  host?(config: C): string;
  /** The settings `port` and `host` read, named when the listen fails (default `PORT` and `HOST`). */
  variables?: { port: string; host: string };
  /** The longest pause in a request body before it is answered 408 (`ListenOptions.bodyIdleTimeoutMs`); none unless given. */
  bodyIdleTimeoutMs?(config: C): number;
  /** Connections open at once at most, in all and per client address (`ListenOptions.connectionLimits`); none unless given. */
  connectionLimits?(config: C): { total: number; perClient: number };
  /** The longest a response in progress may wait for its client to accept a byte (`ListenOptions.responseIdleTimeoutMs`); none unless given. */
  responseIdleTimeoutMs?(config: C): number;
  /** The express app; `checks` are the host's readiness checks (database, bus, the definition's own). */
  app(parts: P, ctx: ServiceContext<C>, checks: HealthChecks): express.Express;
}

export type ServiceConfig<S extends z.ZodObject> = BaseServiceConfig & z.infer<S>;

/** A service as a value: what the host runs in production, `npm start` composes and a component test starts. */
export interface ServiceDefinition<S extends z.ZodObject = z.ZodObject, P extends ServiceParts = ServiceParts> {
  name: string;
  /** The service's own settings, merged with BaseServiceConfig. */
  config?: S;
  /** The schema it owns and its migrations; DATABASE_URL becomes required. */
  database?: {
    schema: string;
    migrations: readonly Migration[];
    /**
     * Runs before the migrations, for a data move SQL cannot do (bytes into the blob store) that a migration waits for
     * (it drops their table). It must be idempotent and safe from several instances at once.
     */
    beforeMigrate?(pool: Pool, ctx: { config: ServiceConfig<S>; logger: Logger }): Promise<void>;
  };
  /** The request queue it answers (`ping` is answered for it) and the handler of its commands. */
  bus?: { service: string; commands(parts: P, ctx: ServiceContext<ServiceConfig<S>>): RequestHandler };
  subscriptions?: EventSubscription<P, ServiceConfig<S>>[];
  pools?: WorkerPool<ServiceConfig<S>>[];
  /** Readiness checks beside the database and the bus. */
  health?(parts: P, ctx: ServiceContext<ServiceConfig<S>>): HealthChecks;
  /** A public HTTP entry point (the gateway); its app serves the health endpoints instead of a health port. */
  http?: HttpPart<P, ServiceConfig<S>>;
  /** Gauges of what `build` made (a cache's bytes, streams running), read at each scrape; called once it started. */
  metrics?(parts: P, metrics: Metrics): void;
  build?(ctx: ServiceContext<ServiceConfig<S>>): Promise<P>;
  /**
   * Runs once its subscriptions consume and its request queue is served (their queues exist): start-up work that
   * publishes to its own queues (the simulation-service hands an in-process bus its unfinished jobs again).
   */
  started?(parts: P, ctx: ServiceContext<ServiceConfig<S>>): Promise<void>;
}

/** Declares a service; the identity function that gives the definition its types. */
export function defineService<S extends z.ZodObject = z.ZodObject<Record<string, never>>, P extends ServiceParts = ServiceParts>(
  definition: ServiceDefinition<S, P>,
): ServiceDefinition<S, P> {
  return definition;
}
