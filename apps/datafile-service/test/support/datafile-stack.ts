import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EncodedJson } from '@pitwall/bus';
import { entityService } from '@pitwall/entity-service';
import { admittedKey, gateway } from '@pitwall/gateway';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { datafileService } from '../../src/definition';
import { UploadedDatasets } from './uploaded-datasets';
import { bundleShapeWorker } from './worker-bundle';
import { workspaceTempDir } from './workspace-tmp';

/**
 * Defines one of the account's math channels through the gateway (`POST /MathChannels`) and returns its id: its
 * parameters as the wire writes them (Name, Expression, Unit, and Rate, DecimalPlaces when given). Anything but a 201
 * fails the test, with the answer's body.
 */
export async function defineMathChannel(at: Pick<DatafileStack, 'base' | 'headers'>, parameters: { Name: string; Expression: string; Unit: string; Rate?: string; DecimalPlaces?: string }): Promise<string> {
  const ParameterUpdates = Object.entries(parameters)
    .filter(([, value]) => value !== undefined)
    .map(([Name, Value]) => ({ Name, Value }));
  const r = await fetch(`${at.base}/MathChannels`, { method: 'POST', headers: { ...at.headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ ParameterUpdates }) });
  const body = (await r.json()) as { Id?: string };
  expect({ status: r.status, body }).toMatchObject({ status: 201 });
  return body.Id as string;
}

/**
 * A 4 s read timeout and 1 read running plus 1 waiting per user: the limits the fault tests run into. The timeout is
 * long enough that a read meant to be served is served within it on a machine as loaded as CI's can be (at 1.5 s an
 * ordinary delta answered 504 there), and short enough that the reads made to hang end soon.
 */
export const READ_LIMITS = { DATAFILE_READ_TIMEOUT_MS: '4000', DATAFILE_READS_PER_USER: '1', DATAFILE_READ_QUEUE: '1' };

/** The file whose existence lets the reads held by a worker wrapper's `held` go (in the stack's directory). */
export const RELEASE_FILE = 'release-held-reads';

/**
 * The source of `held(run)` for a worker wrapper (`DatafileStackOptions.worker`) in `dir`: a task held on its pool
 * thread until the test lets it go (`expectReadLimitAcrossReplicas` writes RELEASE_FILE), then the real worker's.
 */
export function heldTaskSource(dir: string): string {
  return `const { existsSync } = require('node:fs');
function held(run) {
  return new Promise((resolve, reject) => {
    const poll = () => {
      if (!existsSync(${JSON.stringify(join(dir, RELEASE_FILE))})) return void setTimeout(poll, 10);
      try {
        resolve(run());
      } catch (error) {
        reject(error);
      }
    };
    poll();
  });
}
`;
}

/**
 * Under READ_LIMITS with a second gateway replica: the demo user's read held on the pool runs (through the first
 * gateway), another waits for its slot (through the second), then one more read is a 429 problem+json with
 * Retry-After; the held reads are let go, both are served, and then that read is served. `held(at)` and `served(at)`
 * are the URLs of a read the stack's worker holds (`heldTaskSource`) and of one that is served, through the gateway at
 * `at`. Held until let go rather than left to hang until the read timeout: the limit is the point here, and the
 * timeout's 504 that of the tests of reads that hang.
 */
export async function expectReadLimitAcrossReplicas(started: DatafileTestStack, held: (at: string) => string, served: (at: string) => string): Promise<void> {
  const admitted = async (n: number) => {
    while ((await started.stack.cache.countPlaces(admittedKey(started.demo.userId))) !== n) await new Promise((resolve) => setTimeout(resolve, 10));
  };
  const running = fetch(held(started.base), { headers: started.headers });
  await admitted(1);
  const waiting = fetch(held(started.second), { headers: started.headers });
  await admitted(2);
  const refused = await fetch(served(started.second), { headers: started.headers });
  expect(refused.status).toBe(429);
  expect(refused.headers.get('retry-after')).toBe('1');
  expect(refused.headers.get('content-type')).toContain('application/problem+json');
  writeFileSync(join(started.dir, RELEASE_FILE), '');
  expect((await running).status).toBe(200);
  expect((await waiting).status).toBe(200);
  await admitted(0);
  expect((await fetch(served(started.second), { headers: started.headers })).status).toBe(200);
}

export interface DatafileStackOptions {
  /** The pool worker to run, given the bundled real one (e.g. a wrapper that makes some tasks fail); the real one by default. */
  worker?: (dir: string, real: string) => string;
  /** The shape pool's threads (2 by default). */
  maxThreads?: number;
  /** Also make a user of another account ('Other team'), whose datasets the demo user must not read. */
  outsider?: boolean;
  /** Also start a second gateway replica (sharing the stack's cache, where the per-user read limit is counted). */
  replica?: boolean;
  /** Environment of the datafile-service alone (e.g. its LZ4 bounds lower than the entity-service's finalise check). */
  datafileEnv?: NodeJS.ProcessEnv;
}

export interface DatafileStack {
  stack: InProcessStack;
  /** The gateway's address. */
  base: string;
  /** The gateway. */
  running: Awaited<ReturnType<typeof startGateway>>;
  /** The datafile-service (its parts are its caches). */
  datafile: Awaited<ReturnType<typeof startDatafile>>;
  demo: { accountId: string; apiKey: string; userId: string };
  /** The demo user's request headers: its ApiKey and its AccountId. */
  headers: { ApiKey: string; AccountId: string };
  /** Datasets of the demo account. */
  attached: UploadedDatasets;
  /** Datasets of the other account, with `outsider: true`. */
  outsider?: UploadedDatasets;
  /** The second gateway's address, with `replica: true` ('' otherwise). */
  second: string;
}

function startGateway(stack: InProcessStack) {
  return stack.start(gateway);
}

function startDatafile(stack: InProcessStack, entry: string, maxThreads: number, env: NodeJS.ProcessEnv = {}) {
  // The service's own pool settings (its workers' data and heap bound), from the test's bundle of the worker.
  return stack.start({ ...datafileService, pools: (datafileService.pools ?? []).map((pool) => ({ ...pool, entry, maxThreads })) }, env);
}

/**
 * The gateway, the entity-service and the datafile-service (with its shape worker pool) in-process, blobs and
 * decompressed copies under `dir`, the demo account and its uploaded datasets. `env` is added to the stack's env.
 * The stack is stopped again if starting it fails.
 */
export function startDatafileStack(dir: string, env: NodeJS.ProcessEnv, options: DatafileStackOptions & { outsider: true }): Promise<DatafileStack & { outsider: UploadedDatasets }>;
export function startDatafileStack(dir: string, env: NodeJS.ProcessEnv, options?: DatafileStackOptions): Promise<DatafileStack>;
export async function startDatafileStack(dir: string, env: NodeJS.ProcessEnv, options: DatafileStackOptions = {}): Promise<DatafileStack> {
  const real = await bundleShapeWorker(join(dir, 'worker'));
  const worker = options.worker ? options.worker(dir, real) : real;
  const stack = await startInProcessStack({ env: { BLOB_DIR: join(dir, 'blobs'), DATAFILE_CACHE_DIR: join(dir, 'decompressed'), ...env } });
  try {
    // The gateway first: the entity-service signs upload URLs with its address.
    const running = await startGateway(stack);
    const base = running.address;
    await stack.start(entityService, { PUBLIC_BASE_URL: base });
    const datafile = await startDatafile(stack, worker, options.maxThreads ?? 2, options.datafileEnv);
    const second = options.replica ? (await startGateway(stack)).address : '';
    const { auth } = running.parts;
    const account = await auth.ensureDemoAccount({ keyFile: join(dir, 'demo-api-key') });
    const demo = { accountId: account.accountId, apiKey: account.apiKey as string, userId: account.userId };
    const attached = new UploadedDatasets(base, { accountId: demo.accountId, apiKey: demo.apiKey });
    let outsider: UploadedDatasets | undefined;
    if (options.outsider) {
      const other = await auth.createAccount('Other team');
      const user = await auth.createUser('Other engineer');
      await auth.addMembership(other.id, user.id, 'admin');
      outsider = new UploadedDatasets(base, { accountId: other.id, apiKey: (await auth.createApiKey(user.id)).apiKey });
    }
    return { stack, base, running, datafile, demo, headers: { ApiKey: demo.apiKey, AccountId: demo.accountId }, attached, outsider, second };
  } catch (error) {
    await stack.stop();
    throw error;
  }
}

/** The stack of one test file, and the directory its blobs, caches and worker bundle are in. */
export type DatafileTestStack = DatafileStack & { dir: string };

/**
 * The stack of one test file, for a `describe` body: a `beforeAll` starts it (`startDatafileStack`) in a fresh
 * directory `tmp/<prefix>...`, an `afterAll` stops it and removes the directory. The fields are set once that
 * `beforeAll` has run: read them in hooks and tests, not while the file is collected.
 */
export function useDatafileStack(prefix: string, env: NodeJS.ProcessEnv, options: DatafileStackOptions & { outsider: true }): DatafileTestStack & { outsider: UploadedDatasets };
export function useDatafileStack(prefix: string, env?: NodeJS.ProcessEnv, options?: DatafileStackOptions): DatafileTestStack;
export function useDatafileStack(prefix: string, env: NodeJS.ProcessEnv = {}, options: DatafileStackOptions = {}): DatafileTestStack {
  const dir = workspaceTempDir(prefix);
  const started = { dir } as DatafileTestStack;
  // Generous: the start bundles the pool worker first, on a machine the other suites share.
  beforeAll(async () => {
    Object.assign(started, await startDatafileStack(dir, env, options));
  }, 120_000);
  afterAll(async () => {
    await started.stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return started;
}

/** The replies the stack's gateway got on the bus while `run` ran (a claim instead of the bytes, when large). */
export async function busReplies(stack: InProcessStack, run: () => Promise<void>): Promise<EncodedJson[]> {
  const spy = jest.spyOn(stack.bus, 'requestEncoded');
  try {
    await run();
    return await Promise.all(spy.mock.results.map((r) => r.value as Promise<EncodedJson>));
  } finally {
    spy.mockRestore();
  }
}
