import { DistributedStack, readJson, type Member } from './support/distributed';

describe('when two entity-service instances share one bus prefix', () => {
  let stack: DistributedStack;
  beforeAll(async () => {
    stack = await DistributedStack.start({ apps: ['entity-service', 'entity-service', 'gateway'] });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test('then they compete for the same request queue and both serve requests', async () => {
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

  describe('and reads are answered from their read caches', () => {
    const send = (m: Member, method: string, path: string, body?: unknown) =>
      fetch(`${stack.baseUrl}${path}`, {
        method,
        headers: { ApiKey: m.apiKey, AccountId: m.accountId, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    // Enough reads at once that both instances answer some of them (and so have the answer cached).
    const readMany = async (m: Member, path: string) => Promise.all(Array.from({ length: 24 }, () => send(m, 'GET', path).then(async (r) => ({ status: r.status, body: await readJson(r), modified: r.headers.get('x-last-modified-time') }))));
    const rename = (name: string) => ({ ParameterUpdates: [{ Name: 'Name', Value: name }] });

    test('when an entity is updated through one instance, then every read after the answer shows the update', async () => {
      const m = await stack.member('admin');
      const created = await readJson(await send(m, 'POST', '/Championships', rename('Before')));
      const path = `/Championships/${created.Id as string}?parametersToInclude=Name,Events.Name`;
      expect((await readMany(m, path)).every((r) => r.body.Parameters.Name === 'Before')).toBe(true);

      const updated = await send(m, 'PUT', `/Championships/${created.Id as string}`, rename('After'));
      expect(updated.status).toBe(200);
      const reads = await readMany(m, path);

      expect(reads.map((r) => r.body.Parameters.Name)).toEqual(reads.map(() => 'After'));
      expect(new Set(reads.map((r) => r.modified))).toEqual(new Set([updated.headers.get('x-last-modified-time')]));
    });

    test('when a child is added or deleted, then every read of the parent after the answer shows it', async () => {
      const m = await stack.member('admin');
      const championship = await readJson(await send(m, 'POST', '/Championships', rename('Series')));
      const path = `/Championships/${championship.Id as string}?parametersToInclude=Events.Name`;
      const listPath = `/Events?championshipId=${championship.Id as string}`;
      expect((await readMany(m, path)).every((r) => r.body.Events.length === 0)).toBe(true);
      expect((await readMany(m, listPath)).every((r) => r.body.length === 0)).toBe(true);

      const event = await readJson(await send(m, 'POST', `/Events?championshipId=${championship.Id as string}`, rename('Monza')));
      expect((await readMany(m, path)).map((r) => r.body.Events)).toEqual(Array(24).fill([{ Id: event.Id, Parameters: { Name: 'Monza' } }]));
      expect((await readMany(m, listPath)).every((r) => r.body.length === 1 && r.body[0].Id === event.Id)).toBe(true);

      expect((await send(m, 'DELETE', `/Events/${event.Id as string}`)).status).toBe(204);
      expect((await readMany(m, path)).every((r) => r.body.Events.length === 0)).toBe(true);
      expect((await readMany(m, `/Events/${event.Id as string}`)).every((r) => r.status === 404)).toBe(true);
    });

    test('when another account writes, then this account reads what it had, and neither sees the other', async () => {
      const a = await stack.member('admin');
      const b = await stack.member('admin');
      const mine = await readJson(await send(a, 'POST', '/Championships', rename('Mine')));
      await readMany(a, `/Championships/${mine.Id as string}`);

      await send(b, 'POST', '/Championships', rename('Theirs'));

      expect((await readMany(a, '/Championships')).every((r) => r.body.length === 1 && r.body[0].Parameters.Name === 'Mine')).toBe(true);
      expect((await readMany(b, `/Championships/${mine.Id as string}`)).every((r) => r.status === 404)).toBe(true);
    });
  });
});
