import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AddressNotAllowed, Egress, EgressInvalidRequest, EgressTimeout, EgressUnreachable, ResponseTooLarge, type EgressSettings, type Lookup } from '../../src';

/** A receiver on 127.0.0.1 that counts the requests reaching it and answers with `handler`. */
async function startReceiver(handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}')) {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    stop: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const SETTINGS: EgressSettings = { allow: '', maxResponseBytes: 64 * 1024, connectTimeoutMs: 2000, timeoutMs: 5000 };

/** A test resolver: the names it knows map to their addresses; any other name is unknown. */
const resolver =
  (names: Record<string, string>): Lookup =>
  async (hostname) => {
    const address = names[hostname];
    if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };

describe('Egress', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const egresses: Egress[] = [];
  const egress = (settings: Partial<EgressSettings> = {}) => {
    const created = new Egress({ ...SETTINGS, ...settings });
    egresses.push(created);
    return created;
  };
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await Promise.all(egresses.map((e) => e.close()));
    await receiver.stop();
  });

  describe('by default (EGRESS_ALLOW empty)', () => {
    const port = () => receiver.port;
    test.each([
      ['127.0.0.1', () => `http://127.0.0.1:${port()}/`],
      ['127.1', () => `http://127.1:${port()}/`],
      ['0x7f000001', () => `http://0x7f000001:${port()}/`],
      ['[::1]', () => `http://[::1]:${port()}/`],
      ['localhost', () => `http://localhost:${port()}/`],
      ['[::ffff:127.0.0.1]', () => `http://[::ffff:127.0.0.1]:${port()}/`],
      ['10.x', () => `http://10.1.2.3:${port()}/`],
      ['169.254.x', () => `http://169.254.169.254/latest/meta-data/`],
      ['100.64.x', () => `http://100.64.0.1:${port()}/`],
      ['a name the test resolver maps to 127.0.0.1', () => `http://sim.rebind.test:${port()}/`],
    ])('when the URL names %s, then the request is refused at connect time with AddressNotAllowed and nothing reaches the receiver', async (_what, url) => {
      const before = receiver.requests.length;
      const client = egress({ lookup: async (name) => (name === 'localhost' ? [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }] : resolver({ 'sim.rebind.test': '127.0.0.1' })(name)) });
      const refused = await client.request(url(), { method: 'POST', body: '{"client_secret":"s3cret"}' }).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(AddressNotAllowed);
      expect((refused as Error).message).toMatch(/^address not allowed: /);
      expect(receiver.requests.length).toBe(before);
    });

    test('when the system resolver maps localhost, then it is refused too', async () => {
      await expect(egress().request(`http://localhost:${receiver.port}/`)).rejects.toBeInstanceOf(AddressNotAllowed);
    });

    test('when a name resolves to a public address at the check and to 127.0.0.1 at connect time (DNS rebinding), then the connection is refused', async () => {
      let answers = 0;
      const client = egress({ lookup: async () => [{ address: answers++ === 0 ? '93.184.215.14' : '127.0.0.1', family: 4 }] });
      await expect(client.checkDestination(`http://rebind.test:${receiver.port}/`)).resolves.toBeUndefined();
      const before = receiver.requests.length;
      await expect(client.request(`http://rebind.test:${receiver.port}/`)).rejects.toMatchObject({ message: `address not allowed: rebind.test resolves to an address this service may not send requests to; EGRESS_ALLOW names the hosts and ranges that may be reached` });
      expect(receiver.requests.length).toBe(before);
    });

    test('when a destination is checked before it is stored, then a refused literal or name is AddressNotAllowed and an unresolvable name passes', async () => {
      const client = egress({ lookup: resolver({ 'hooks.internal': '10.0.0.7' }) });
      await expect(client.checkDestination('http://127.1/hook')).rejects.toBeInstanceOf(AddressNotAllowed);
      await expect(client.checkDestination('https://hooks.internal/hook')).rejects.toMatchObject({ message: 'address not allowed: hooks.internal resolves to an address this service may not send requests to; EGRESS_ALLOW names the hosts and ranges that may be reached', refused: '10.0.0.7 (private)' });
      await expect(client.checkDestination('https://nowhere.test/hook')).resolves.toBeUndefined();
      await expect(client.checkDestination('https://93.184.215.14/hook')).resolves.toBeUndefined();
    });
  });

  describe('with EGRESS_ALLOW', () => {
    test('when it names the receiver address and port, then the request reaches it; another port of the same address stays refused', async () => {
      const client = egress({ allow: `127.0.0.1:${receiver.port}` });
      const answer = await client.request(`${receiver.url}/studies`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
      expect(answer).toMatchObject({ status: 200, statusText: 'OK' });
      expect(JSON.parse(answer.body.toString())).toEqual({ ok: true });
      await expect(client.request(`http://127.0.0.1:${receiver.port + 1}/`)).rejects.toBeInstanceOf(AddressNotAllowed);
    });

    test('when it names a host the resolver maps to 127.0.0.1, then that host reaches the receiver, and 127.0.0.1 itself stays refused', async () => {
      const client = egress({ allow: 'sim.internal', lookup: resolver({ 'sim.internal': '127.0.0.1' }) });
      expect((await client.request(`http://sim.internal:${receiver.port}/`)).status).toBe(200);
      await expect(client.request(`${receiver.url}/`)).rejects.toBeInstanceOf(AddressNotAllowed);
    });

    test('when it names a CIDR range holding 127.0.0.1, then the receiver is reached', async () => {
      expect((await egress({ allow: '127.0.0.0/8' }).request(`${receiver.url}/`)).status).toBe(200);
    });
  });

  describe('answers', () => {
    test('when the receiver redirects, then the 3xx is the answer and the redirect target gets nothing', async () => {
      const target = await startReceiver();
      const redirecting = await startReceiver((_req, res) => res.writeHead(302, { Location: `${target.url}/oauth/token` }).end());
      try {
        const answer = await egress({ allow: '127.0.0.1' }).request(`${redirecting.url}/oauth/token`, { method: 'POST', body: 'client_secret=s3cret' });
        expect(answer).toMatchObject({ status: 302, statusText: 'Found' });
        expect(redirecting.requests).toEqual(['POST /oauth/token']);
        expect(target.requests).toEqual([]);
      } finally {
        await target.stop();
        await redirecting.stop();
      }
    });

    test('when the answer is 200 MiB, then the read stops past EGRESS_MAX_RESPONSE_BYTES with ResponseTooLarge and the receiver sees the socket closed before it finished writing', async () => {
      const total = 200 * 1024 * 1024;
      const chunk = Buffer.alloc(64 * 1024, 'x');
      let written = 0;
      let finished = false;
      let socketClosed!: () => void;
      const closed = new Promise<void>((resolve) => (socketClosed = resolve));
      const huge = await startReceiver((_req, res) => {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.on('close', socketClosed);
        // Writes as fast as the reader takes it, until all 200 MiB are out or the socket is gone.
        const pump = () => {
          while (written < total && !res.destroyed) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          if (!res.destroyed) res.end(() => (finished = true));
        };
        pump();
      });
      try {
        const outcome = await egress({ allow: '127.0.0.1' })
          .request(`${huge.url}/`)
          .catch((err: unknown) => err);
        await closed;
        expect(outcome).toBeInstanceOf(ResponseTooLarge);
        expect(outcome).toMatchObject({ status: 500, limitBytes: 64 * 1024 });
      } finally {
        await huge.stop();
      }
      expect(finished).toBe(false);
      expect(written).toBeLessThan(total / 4);
    });

    test('when the answer declares a Content-Length past the limit, then nothing of it is read', async () => {
      const big = await startReceiver((_req, res) => res.writeHead(200, { 'Content-Length': String(1024 * 1024) }).end(Buffer.alloc(1024 * 1024)));
      try {
        await expect(egress({ allow: '127.0.0.1', maxResponseBytes: 1024 }).request(`${big.url}/`)).rejects.toMatchObject({ name: 'ResponseTooLarge', status: 200, limitBytes: 1024 });
        expect((await egress({ allow: '127.0.0.1', maxResponseBytes: 2 * 1024 * 1024 }).request(`${big.url}/`)).body.length).toBe(1024 * 1024);
      } finally {
        await big.stop();
      }
    });
  });

  describe('time limits', () => {
    test('when the receiver never answers, then the request ends with EgressTimeout past its total time limit', async () => {
      const silent = await startReceiver(() => undefined);
      try {
        const started = Date.now();
        await expect(egress({ allow: '127.0.0.1' }).request(`${silent.url}/`, { timeoutMs: 300 })).rejects.toMatchObject({ name: 'EgressTimeout', phase: 'answer', timeoutMs: 300 });
        expect(Date.now() - started).toBeLessThan(4000);
      } finally {
        await silent.stop();
      }
    });

    test('when the name never resolves, then the request ends with EgressTimeout of the connect phase', async () => {
      const client = egress({ connectTimeoutMs: 200, lookup: () => new Promise(() => undefined) });
      await expect(client.request('http://stuck.test/')).rejects.toEqual(new EgressTimeout('connect', 200));
    });

    test('when nothing listens on the port, then the request ends with EgressUnreachable naming ECONNREFUSED', async () => {
      const closed = await startReceiver();
      await closed.stop();
      const refused = await egress({ allow: '127.0.0.1' }).request(`${closed.url}/`).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(EgressUnreachable);
      expect(refused).toMatchObject({ code: 'ECONNREFUSED' });
    });
  });

  describe('requests that cannot be sent', () => {
    test.each(['file:///etc/passwd', 'ftp://files.example/x', 'unix:/var/run/docker.sock', 'not a url', 'http://[fe80::1%25lo]:8378/'])('when the URL is %s, then the request ends with EgressInvalidRequest and nothing is sent', async (url) => {
      const before = receiver.requests.length;
      const refused = await egress({ allow: `127.0.0.1:${receiver.port}` })
        .request(url)
        .catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(EgressInvalidRequest);
      expect(receiver.requests.length).toBe(before);
    });

    test('when a header value holds a line break, then the request ends with EgressInvalidRequest and nothing is sent', async () => {
      const before = receiver.requests.length;
      const refused = await egress({ allow: `127.0.0.1:${receiver.port}` })
        .request(receiver.url, { headers: { Authorization: 'Bearer a\r\nX-Injected: 1' } })
        .catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(EgressInvalidRequest);
      expect(receiver.requests.length).toBe(before);
    });
  });
});
