import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { entityService } from '@pitwall/entity-service';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { gateway } from '../../src/definition';
import { send } from '../support/gateway-harness';

// Every write of the entity-service here takes 1.5 s before its commit; the gateway waits BUS_TIMEOUT_MS (1 s) plus
// BUS_TIMEOUT_MS_PER_MB per MiB of the body. A 256 KiB body is a quarter of a MiB.
describe('POST /Championships: the wait for a write grows with its body (BUS_TIMEOUT_MS_PER_MB)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pitwall-command-timeout-'));
  const stacks: InProcessStack[] = [];
  afterAll(async () => {
    await Promise.all(stacks.map((s) => s.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(perMb: number): Promise<{ base: string; headers: Record<string, string> }> {
    const stack = await startInProcessStack();
    stacks.push(stack);
    await stack.start(entityService, { TEST_HOLD_BEFORE_COMMIT_MS: '1500' });
    const running = await stack.start(gateway, { BUS_TIMEOUT_MS: '1000', BUS_TIMEOUT_MS_PER_MB: String(perMb), BODY_LIMIT: '1mb' });
    const demo = await running.parts.auth.ensureDemoAccount({ keyFile: join(dir, `key-${stacks.length}`) });
    return { base: running.address, headers: { ApiKey: demo.apiKey as string, AccountId: demo.accountId, 'Content-Type': 'application/json' } };
  }
  const bigBody = (name: string) => JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: name }, { Name: 'Description', Value: 'x'.repeat(256 * 1024) }] });
  const names = async (base: string, headers: Record<string, string>) =>
    ((await (await fetch(`${base}/Championships`, { headers })).json()) as { Parameters: { Name: string } }[]).map((c) => c.Parameters.Name);

  test('when a big write takes longer than BUS_TIMEOUT_MS but within its size allowance, then it answers 201 at its commit', async () => {
    const { base, headers } = await start(20_000);
    const res = await send(base, 'POST', '/Championships', { body: bigBody('Big and patient'), headers });
    expect(res.status).toBe(201);
    expect(await names(base, headers)).toContain('Big and patient');
  });

  test('when the allowance is 0, then the same write is a 504 whose outcome is unknown, and it was not committed', async () => {
    const { base, headers } = await start(0);
    const res = await send(base, 'POST', '/Championships', { body: bigBody('Big and late'), headers });
    expect(res.status).toBe(504);
    expect(JSON.parse(res.body)).toMatchObject({ type: 'urn:pitwall:problem:outcome-unknown' });
    // The service checks the deadline before its commit: past it, the write rolled back.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await names(base, headers)).not.toContain('Big and late');
  });

  test('when a small write takes longer than BUS_TIMEOUT_MS, then it is a 504 even with an allowance per MiB', async () => {
    const { base, headers } = await start(20_000);
    const res = await send(base, 'POST', '/Championships', { body: JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: 'Small and late' }] }), headers });
    expect(res.status).toBe(504);
  });
});
