import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { entityService } from '@pitwall/entity-service';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { gateway } from '../../src/definition';

/** The gateway and the entity-service in-process on real PostgreSQL, with the demo account's key. */
export interface EntityStack {
  stack: InProcessStack;
  base: string;
  accountId: string;
  /** The demo account's ApiKey and AccountId, and `Content-Type: application/json`. */
  headers: Record<string, string>;
}

/**
 * Starts the stack before the enclosing describe's tests (the gateway with `gatewayEnv`) and stops it after them; the
 * returned object is filled in once it is up.
 */
export function useEntityStack(gatewayEnv: Record<string, string> = {}): EntityStack {
  const used = {} as EntityStack;
  let dir: string | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pitwall-gateway-entities-'));
    used.stack = await startInProcessStack();
    await used.stack.start(entityService);
    const running = await used.stack.start(gateway, gatewayEnv);
    used.base = running.address;
    const demo = await running.parts.auth.ensureDemoAccount({ keyFile: join(dir, 'demo-api-key') });
    used.accountId = demo.accountId;
    used.headers = { ApiKey: demo.apiKey as string, AccountId: demo.accountId, 'Content-Type': 'application/json' };
  });
  afterAll(async () => {
    await used.stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return used;
}
