import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { AuthStore, type Role } from '@pitwall/auth';
import { RedisCache } from '@pitwall/cache';
import { PitwallClient } from '@pitwall/client';
import { createPool } from '@pitwall/db';
import { createTestDatabase, type TestDatabase } from '@pitwall/db/testing';
import { uniquePrefix } from '@pitwall/testing';
import { crashedProcesses } from './crashed';
import { sharedStackAddress } from './shared-stack';

// tools/stack.cjs is the process-level twin of docker/compose.yaml, shared with `npm run start:distributed`.
// eslint-disable-next-line @nx/enforce-module-boundaries
const { startStack, deleteBusTopology } = require('../../../../tools/stack.cjs') as {
  startStack(options: { env: Record<string, string>; apps?: string[]; readyPath?: string; readyTimeoutMs?: number; port?: number; supervise?: boolean }): Promise<Stack>;
  deleteBusTopology(amqpUrl: string, busPrefix: string): Promise<void>;
};

export interface Stack {
  baseUrl: string;
  /** Each app's process now (`child` is the new one after a supervised restart), its health port and environment. */
  procs: { name: string; output: string; child: import('node:child_process').ChildProcess; healthPort: number; env: Record<string, string>; restarts: number }[];
  /** What supervision did (`supervise`), one line per exit and per restart. */
  supervision: string[];
  stop(): Promise<{ name: string; exitCode: number | null; signal: string | null }[]>;
}

export const AMQP_URL = process.env['AMQP_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672';
export const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

export interface Member {
  accountId: string;
  userId: string;
  keyId: string;
  apiKey: string;
  client: PitwallClient;
}

/** The five apps as separate processes on the real PostgreSQL, RabbitMQ and Redis, isolated by database and prefixes. */
export class DistributedStack {
  private constructor(
    readonly stack: Stack,
    readonly auth: AuthStore,
    private readonly db: TestDatabase,
    private readonly closeAuth: () => Promise<void>,
    readonly prefix: string,
    /** The environment the apps were started with (database, bus and cache addresses, prefixes). */
    readonly env: Record<string, string>,
    /** The suite's shared stack (shared-stack.ts): stop() closes only this file's own connections. */
    private readonly isShared = false,
  ) {}

  /**
   * The suite's shared five-process stack (started once by the e2e global setup), for a file that only makes requests
   * in accounts of its own: it must not stop, kill or read the output of the stack's processes. Without the global
   * setup (a file run with another config), a stack of the file's own.
   */
  static async shared(): Promise<DistributedStack> {
    const address = sharedStackAddress();
    if (!address) return DistributedStack.start();
    const stack: Stack = { baseUrl: address.baseUrl, procs: [], supervision: [], stop: async () => [] };
    const db: TestDatabase = { url: address.databaseUrl, drop: async () => undefined };
    const pool = createPool({ url: address.databaseUrl, applicationName: 'e2e', logger: pino({ level: 'silent' }) });
    const cache = new RedisCache(REDIS_URL, `${address.prefix}:`);
    const auth = new AuthStore(pool, cache, pino({ level: 'silent' }));
    return new DistributedStack(stack, auth, db, async () => {
      await cache.close();
      await pool.end();
    }, address.prefix, address.env, true);
  }

  static async start(options: { apps?: string[]; env?: Record<string, string>; readyPath?: string; readyTimeoutMs?: number; supervise?: boolean } = {}): Promise<DistributedStack> {
    const db = await createTestDatabase();
    const prefix = uniquePrefix('e2e');
    // CLAIM_SECRET here (not left to stack.cjs) so a test that starts another instance gives it the same.
    const env = { DATABASE_URL: db.url, AMQP_URL, REDIS_URL, BUS_PREFIX: `${prefix}.`, REDIS_PREFIX: `${prefix}:`, LOG_LEVEL: 'info', CLAIM_SECRET: randomBytes(24).toString('base64url'), ...options.env };
    const stack = await startStack({ env, apps: options.apps, readyPath: options.readyPath, supervise: options.supervise, ...(options.readyTimeoutMs ? { readyTimeoutMs: options.readyTimeoutMs } : {}) });
    const pool = createPool({ url: db.url, applicationName: 'e2e', logger: pino({ level: 'silent' }) });
    const cache = new RedisCache(REDIS_URL, `${prefix}:`);
    const auth = new AuthStore(pool, cache, pino({ level: 'silent' }));
    return new DistributedStack(stack, auth, db, async () => {
      await cache.clear();
      await cache.close();
      await pool.end();
    }, prefix, env);
  }

  get baseUrl(): string {
    return this.stack.baseUrl;
  }

  /** The stack's own database, for tests that check rows directly (orphans after a cascade). */
  get databaseUrl(): string {
    return this.db.url;
  }

  /** A new account with a user of `role` and a key for it. */
  async member(role: Role = 'admin', accountId?: string): Promise<Member> {
    const account = accountId ?? (await this.auth.createAccount(`Team ${Math.random().toString(36).slice(2, 8)}`)).id;
    const user = await this.auth.createUser(`${role}-${Math.random().toString(36).slice(2, 8)}`);
    await this.auth.addMembership(account, user.id, role);
    const { keyId, apiKey } = await this.auth.createApiKey(user.id, 'e2e');
    return { accountId: account, userId: user.id, keyId, apiKey, client: new PitwallClient({ baseUrl: this.baseUrl, apiKey, accountId: account }) };
  }

  /**
   * Stops the stack and removes what it made. Throws, once all is removed, when one of its processes ended on its own
   * before the stop ("no process exits on a lost connection"): every fault test of a stack of its own checks it.
   */
  async stop(): Promise<{ name: string; exitCode: number | null; signal: string | null }[]> {
    if (this.isShared) {
      await this.closeAuth();
      return [];
    }
    const crashed = crashedProcesses(this.stack);
    const exits = await this.stack.stop();
    await this.closeAuth();
    await deleteBusTopology(AMQP_URL, `${this.prefix}.`);
    await this.db.drop();
    if (crashed.length) throw new Error(`processes of the stack exited on their own:\n${crashed.join('\n')}`);
    return exits;
  }
}

/** A JSON response body for assertions (tests look into arbitrary shapes). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function readJson(res: Response): Promise<any> {
  return res.json();
}
