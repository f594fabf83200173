import { DistributedStack } from './support/distributed';

describe('when two entity-service instances share one bus prefix', () => {
  let stack: DistributedStack;
  afterAll(async () => {
    await stack?.stop();
  });

  test('then they compete for the same request queue and both serve requests', async () => {
    stack = await DistributedStack.start({ apps: ['entity-service', 'entity-service', 'gateway'] });
    const m = await stack.member('admin');
    const ids = Array.from({ length: 40 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    const results = await Promise.all(ids.map((id) => fetch(`${stack.baseUrl}/Championships/${id}`, { headers: { ApiKey: m.apiKey, AccountId: m.accountId, 'X-Request-Id': `scale-${id}` } })));
    expect(results.every((r) => r.status === 404)).toBe(true);
    const [a, b] = stack.stack.procs.filter((p) => p.name === 'entity-service');
    const served = (output: string) => ids.filter((id) => output.includes(`scale-${id}`)).length;
    // Each instance's log reaches us through its stdout a moment after the HTTP answers.
    for (const until = Date.now() + 5000; served(a!.output) + served(b!.output) < ids.length && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
    expect(served(a!.output)).toBeGreaterThan(0);
    expect(served(b!.output)).toBeGreaterThan(0);
    expect(served(a!.output) + served(b!.output)).toBe(ids.length);
  });
});
