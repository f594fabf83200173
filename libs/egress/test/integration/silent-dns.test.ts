import { createSocket, type Socket } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { Egress, EgressTimeout, systemLookupWith } from '../../src';

// A name whose servers never answer (anyone can register such a domain and point a profile's BaseUrl or a callback at
// it). Resolved by getaddrinfo, each lookup held one of libuv's four pool threads past the request's own timeout, so a
// few at once stopped every other account's outbound calls (and, in `npm start`, file reads). Resolved by c-ares, the
// lookups wait on the event loop and are cancelled at the timeout.
describe('a host name whose DNS servers never answer', () => {
  let silent: Socket;
  let queries = 0;
  let egress: Egress;

  beforeAll(async () => {
    silent = createSocket('udp4');
    silent.on('message', () => void queries++);
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    const lookupAt = systemLookupWith({ servers: [`127.0.0.1:${silent.address().port}`] });
    egress = new Egress({ allow: '', maxResponseBytes: 1024, connectTimeoutMs: 1500, timeoutMs: 3000, lookup: lookupAt });
  });
  afterAll(async () => {
    await egress.close();
    silent.close();
  });

  test('when 12 requests to such names wait for their connect timeout, then the thread pool stays free: system lookups answer while they wait', async () => {
    let settled = 0;
    const requests = Array.from({ length: 12 }, (_, i) =>
      egress.request(`http://host${i}.silent.test/`).then(
        () => 'answered',
        (err: unknown) => err,
      ).finally(() => void settled++),
    );
    // Eight lookups through the system's getaddrinfo (the thread pool), while the twelve wait: all answered first.
    const local = await Promise.all(Array.from({ length: 8 }, () => lookup('localhost')));
    expect(local.every((l) => l.address === '127.0.0.1' || l.address === '::1')).toBe(true);
    expect(settled).toBe(0);
    const outcomes = await Promise.all(requests);
    expect(outcomes.every((o) => o instanceof EgressTimeout && o.phase === 'connect')).toBe(true);
    // The silent server was asked (not the system's resolver).
    expect(queries).toBeGreaterThanOrEqual(12);
  });
});
