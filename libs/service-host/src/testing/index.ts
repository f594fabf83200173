import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { z } from 'zod';
import { InProcessBus } from '@pitwall/bus';
import { MemoryCache } from '@pitwall/cache';
import { createTestDatabase, type TestDatabase } from '@pitwall/db/testing';
import { createLogger } from '@pitwall/service-kit';
import type { ServiceDefinition, ServiceParts } from '../definition';
import { startService, type RunningService } from '../start-service';
import { bundleWorkerEntry } from './worker-bundle';

export interface InProcessStack {
  /** The bus every definition of the stack shares: send it commands as another service would. */
  bus: InProcessBus;
  cache: MemoryCache;
  /** The fresh database (on the real PostgreSQL) the definitions migrate their schemas into; '' without one. */
  databaseUrl: string;
  /** Starts one more definition on the stack's bus, cache and database (in order: a dependency first). */
  start<S extends z.ZodObject, P extends ServiceParts>(definition: ServiceDefinition<S, P>, env?: NodeJS.ProcessEnv): Promise<RunningService<P>>;
  /** Stops the started definitions (last started first), the bus, and drops the database. */
  stop(): Promise<void>;
}

/**
 * A component-test stack: definitions started in this process against the real PostgreSQL (a fresh database per
 * call, one per test file; `database: false` for definitions that own none) with a shared in-process bus and
 * memory cache; HTTP and health ports are picked free, and AMQP_URL is ignored.
 */
export async function startInProcessStack(options: { env?: NodeJS.ProcessEnv; database?: boolean } = {}): Promise<InProcessStack> {
  const database: TestDatabase | undefined = options.database === false ? undefined : await createTestDatabase();
  const bus = new InProcessBus({ prefix: 'test.', logger: createLogger('test-bus') });
  const cache = new MemoryCache();
  const running: RunningService[] = [];
  return {
    bus,
    cache,
    databaseUrl: database?.url ?? '',
    async start(definition, env = {}) {
      // A definition's pools run bundles: from the sources, bundled here unless the test gives its own WORKER_DIR.
      // (A definition bundled elsewhere, as a bench is, names sources that are not there: it is given a WORKER_DIR.)
      const sources = (definition.pools ?? []).flatMap((pool) => (pool.source && existsSync(pool.source) ? [pool.source] : []));
      const workers = sources.length && !env['WORKER_DIR'] && !options.env?.['WORKER_DIR'] ? { WORKER_DIR: await bundledWorkers(sources) } : {};
      const service = await startService(definition, {
        env: { ...process.env, DATABASE_URL: database?.url ?? '', HEALTH_PORT: '0', PORT: '0', ...options.env, ...workers, ...env, AMQP_URL: '' },
        shared: { bus, cache },
      });
      running.push(service);
      return service;
    },
    async stop() {
      for (const service of running.splice(0).reverse()) await service.stop();
      await bus.close();
      await cache.close();
      await database?.drop();
    },
  };
}

export { bundleWorkerEntry } from './worker-bundle';

/** The folder each set of worker sources was bundled into, once per test process (removed when it exits). */
const bundled = new Map<string, Promise<string>>();

/** Bundles the pool workers of `sources` into one folder under the repository's tmp/ (where their packages resolve). */
function bundledWorkers(sources: readonly string[]): Promise<string> {
  const key = [...sources].sort().join('\n');
  let dir = bundled.get(key);
  if (!dir) {
    dir = (async () => {
      const root = join(repositoryOf(sources[0] as string), 'tmp');
      mkdirSync(root, { recursive: true });
      // A test process ended by its runner (not exiting) leaves its folder: those of an hour ago go now.
      for (const name of readdirSync(root).filter((n) => n.startsWith('workers-'))) {
        const at = join(root, name);
        if (statSync(at).mtimeMs < Date.now() - 3600_000) rmSync(at, { recursive: true, force: true });
      }
      const out = mkdtempSync(join(root, 'workers-'));
      process.once('exit', () => rmSync(out, { recursive: true, force: true }));
      for (const source of sources) await bundleWorkerEntry(source, out);
      return out;
    })();
    bundled.set(key, dir);
  }
  return dir;
}

/**
 * What a definition's start says of `env`: its error's message, or `started` (then stopped at once) when it took it.
 * No broker (an in-process bus) and no database (an address that refuses at once, one try): a configuration that
 * is wrongly taken ends the test quickly instead of starting a service on shared servers.
 */
export async function startRefusal<S extends z.ZodObject, P extends ServiceParts>(definition: ServiceDefinition<S, P>, env: NodeJS.ProcessEnv): Promise<string> {
  const bus = new InProcessBus({ prefix: 'refusal.', logger: createLogger('test-bus') });
  const cache = new MemoryCache();
  try {
    const started = await startService(definition, {
      env: { DATABASE_URL: 'postgres://127.0.0.1:1/none', STARTUP_WAIT_S: '0', HEALTH_PORT: '0', PORT: '0', ...env },
      shared: { bus, cache },
    }).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
    if (started instanceof Error) return started.message;
    await started.stop();
    return 'started';
  } finally {
    await bus.close();
    await cache.close();
  }
}

/** The repository holding `file` (the folder above it with package-lock.json), where the bundles' packages resolve. */
function repositoryOf(file: string): string {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package-lock.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no repository above ${file}`);
  }
}
