// One five-process stack shared by the e2e files that only make requests (no kill -9, no restarts, no reading a
// process's output, no environment of their own): started once by the suite's global setup, each file acting in
// accounts of its own (DistributedStack.shared()). Starting and stopping five processes costs each file several
// seconds; the files that change a stack's processes or environment still start their own.
// Jest runs globalSetup and globalTeardown in its parent process and starts the test workers after globalSetup, so
// the stack's addresses reach every file through the environment (SHARED_STACK_VARIABLE).
import { randomBytes } from 'node:crypto';
// eslint-disable-next-line @nx/enforce-module-boundaries
import servicesUp from '../../../../libs/testing/src/global-setup';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createTestDatabase, type TestDatabase } from '../../../../libs/db/src/testing/index';
import { crashedProcesses } from './crashed';
import type { Stack } from './distributed';

// eslint-disable-next-line @nx/enforce-module-boundaries
const { startStack, deleteBusTopology } = require('../../../../tools/stack.cjs') as {
  startStack(options: { env: Record<string, string> }): Promise<Stack>;
  deleteBusTopology(amqpUrl: string, busPrefix: string): Promise<void>;
};

/** Where the shared stack's addresses travel from the global setup to the test files (JSON of SharedStackAddress). */
export const SHARED_STACK_VARIABLE = 'PITWALL_E2E_SHARED_STACK';

export interface SharedStackAddress {
  baseUrl: string;
  databaseUrl: string;
  prefix: string;
  env: Record<string, string>;
}

const AMQP_URL = process.env['AMQP_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672';
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

interface Running {
  stack: Stack;
  db: TestDatabase;
  prefix: string;
}
const holder = globalThis as { pitwallSharedStack?: Running };

/** Jest globalSetup of the e2e project: the servers up (libs/testing), then the shared stack. */
export async function setUp(): Promise<void> {
  await servicesUp();
  const db = await createTestDatabase();
  const prefix = `pitwall-t-e2e-shared-${randomBytes(4).toString('hex')}`;
  const env = { DATABASE_URL: db.url, AMQP_URL, REDIS_URL, BUS_PREFIX: `${prefix}.`, REDIS_PREFIX: `${prefix}:`, LOG_LEVEL: 'warn', CLAIM_SECRET: randomBytes(24).toString('base64url') };
  let stack: Stack;
  try {
    stack = await startStack({ env });
  } catch (err) {
    await db.drop();
    throw err;
  }
  holder.pitwallSharedStack = { stack, db, prefix };
  const address: SharedStackAddress = { baseUrl: stack.baseUrl, databaseUrl: db.url, prefix, env };
  process.env[SHARED_STACK_VARIABLE] = JSON.stringify(address);
}

/** Jest globalTeardown: the shared stack stopped, its bus topology and database removed. */
export async function tearDown(): Promise<void> {
  const running = holder.pitwallSharedStack;
  if (!running) return;
  holder.pitwallSharedStack = undefined;
  delete process.env[SHARED_STACK_VARIABLE];
  // Each step even when one before it fails: nothing of the shared stack is left on the shared servers. A process of
  // the shared stack that ended on its own during the run fails it.
  const crashed = crashedProcesses(running.stack);
  try {
    await running.stack.stop();
    if (crashed.length) throw new Error(`processes of the shared stack exited on their own:\n${crashed.join('\n')}`);
  } finally {
    try {
      await deleteBusTopology(AMQP_URL, `${running.prefix}.`);
    } finally {
      await running.db.drop();
    }
  }
}

/** The shared stack's address when the global setup started one (undefined when a file runs without it). */
export function sharedStackAddress(): SharedStackAddress | undefined {
  const raw = process.env[SHARED_STACK_VARIABLE];
  return raw ? (JSON.parse(raw) as SharedStackAddress) : undefined;
}
