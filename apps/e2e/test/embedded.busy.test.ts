import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbedded, type Embedded } from './support/embedded';

// eslint-disable-next-line @nx/enforce-module-boundaries
const { freePort } = require('../../../tools/stack.cjs') as { freePort(): Promise<number> };

/**
 * PGlite is one session: while one transaction holds it, every other statement waits. Past EMBEDDED_DB_WAIT_MS a
 * request is answered 503 with Retry-After (wire.md: busy, retry) instead of a 500 after the bus timeout.
 */
describe('npm start while one long transaction holds the embedded database', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pitwall-busy-'));
  let embedded: Embedded;
  let databasePort: number;
  beforeAll(async () => {
    databasePort = await freePort();
    embedded = await startEmbedded(dataDir, await freePort(), {
      EMBEDDED_DB_WAIT_MS: '300',
      EMBEDDED_DB_PORT: String(databasePort),
      // A 10,000-item write on a machine shared by many test runs must not turn into a 504: its speed is the bench's.
      BUS_TIMEOUT_MS: '60000',
    });
  }, 180_000);
  afterAll(async () => {
    expect(await embedded?.stop()).toBe(0);
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${embedded.baseUrl}${path}`, {
      method,
      headers: { ApiKey: embedded.apiKey, AccountId: embedded.accountId, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  test('when a read and a write cannot get the database in time, then each is a 503 problem with Retry-After, the write leaves nothing, and both work once it is free', async () => {
    const created = await call('POST', '/Championships', { ParameterUpdates: [{ Name: 'Name', Value: 'Before' }] });
    expect(created.status).toBe(201);
    const { Id: id } = (await created.json()) as { Id: string };

    const holder = new pg.Client({ connectionString: embedded.databaseUrl });
    holder.on('error', () => undefined);
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1');

      for (const res of [await call('GET', `/Championships/${id}?parametersToInclude=Name`), await call('POST', '/Championships', { ParameterUpdates: [{ Name: 'Name', Value: 'During' }] })]) {
        expect(res.status).toBe(503);
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(res.headers.get('retry-after')).toBe('1');
        expect(await res.json()).toMatchObject({ status: 503, title: 'Service Unavailable', detail: expect.stringMatching(/busy/) });
      }
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }

    const read = await call('GET', `/Championships/${id}?parametersToInclude=Name`);
    expect(read.status).toBe(200);
    expect(((await read.json()) as { Parameters: unknown }).Parameters).toEqual({ Name: 'Before' });
    const list = (await (await call('GET', '/Championships?parametersToInclude=Name')).json()) as { Parameters: { Name: string } }[];
    // The refused write left nothing (the demo run sheet's championship is seeded by npm start).
    expect(list.map((c) => c.Parameters.Name).sort()).toEqual(['Before', 'Demo Championship']);
  }, 120_000);

  test('when a PUT adds 10,000 events to a championship while another request comes in, then the PUT answers 200 with all of them and the other request is a 200 or a 503, never a 500', async () => {
    const championship = (await (await call('POST', '/Championships', { ParameterUpdates: [{ Name: 'Name', Value: 'Big' }] })).json()) as { Id: string };
    const items = Array.from({ length: 10_000 }, (_, i) => ({ ParameterUpdates: [{ Name: 'Name', Value: `Round ${i}` }] }));
    const put = call('PUT', `/Championships/${championship.Id}`, { CollectionUpdateModels: { Events: items } });
    const others = await Promise.all([call('GET', '/Championships'), call('GET', `/Championships/${championship.Id}`)]);
    expect((await put).status).toBe(200);
    for (const other of others) {
      expect([200, 503]).toContain(other.status);
      if (other.status === 503) expect(other.headers.get('retry-after')).toBe('1');
    }
    const events = (await (await call('GET', `/Events?championshipId=${championship.Id}&parametersToInclude=Name`)).json()) as { Parameters: { Name: string } }[];
    expect(events.map((e) => e.Parameters.Name)).toEqual(items.map((_, i) => `Round ${i}`));
  }, 180_000);
});

