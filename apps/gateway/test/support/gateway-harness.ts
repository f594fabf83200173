import { request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { InProcessBus, EncodedJson, type BusRequest } from '@pitwall/bus';
import { SERVICES, type Operation } from '@pitwall/contracts';
import { createLogger, listen, MAX_HEADER_BYTES, Metrics, type HttpEntryPoint } from '@pitwall/service-kit';
import { buildGateway } from '../../src/app';
import type { Authenticator } from '../../src/domain/caller';
import type { GatewayHandler } from '../../src/entry-points/http/operation-routes';

export const API_KEY = 'pw_test_key';
export const ACCOUNT_ID = randomUUID();
export const USER_ID = randomUUID();

/** The auth store as the gateway sees it: one key, admin of one account. */
export const fakeAuth: Authenticator = {
  authenticate: async (key) => (key === API_KEY ? { userId: USER_ID, keyId: randomUUID() } : null),
  roleFor: async (_user, account) => (account === ACCOUNT_ID ? 'admin' : null),
  listAccounts: async () => [{ Id: ACCOUNT_ID, Name: 'Test Racing', Role: 'admin' }],
  callerFor: async (key, account) => {
    const principal = await fakeAuth.authenticate(key);
    return principal && { principal, role: await fakeAuth.roleFor(principal.userId, account) };
  },
};

export interface Harness {
  baseUrl: string;
  /** Every command the services behind the gateway received. */
  received: BusRequest[];
  /** The gateway's metrics (what its internal port would serve). */
  metrics: Metrics;
  /** The gateway's log lines so far (info and above), parsed. */
  logLines(): Record<string, unknown>[];
  stop(): Promise<void>;
}

/** The gateway in-process on port 0 over an in-process bus whose services record each command and answer `{}`. */
export async function startGateway(operations?: readonly Operation[], handlers?: Record<string, GatewayHandler>): Promise<Harness> {
  const lines: string[] = [];
  const logger = createLogger('gateway-test', 'info', 'json', new Writable({ write: (chunk: Buffer, _encoding, done) => void (lines.push(chunk.toString('utf8')), done()) }));
  const bus = new InProcessBus({ logger });
  const received: BusRequest[] = [];
  for (const service of Object.values(SERVICES))
    await bus.serve(service, async (request) => {
      received.push(request);
      return new EncodedJson(Buffer.from('{}'), { entityId: '00000000-0000-4000-8000-000000000001' });
    });
  const metrics = new Metrics('gateway', { processMetrics: false });
  const http: HttpEntryPoint = await listen(buildGateway({ bus, auth: fakeAuth, logger, metrics, ...(operations ? { operations } : {}), ...(handlers ? { handlers } : {}) }), 0, '127.0.0.1', undefined, { maxHeaderSize: MAX_HEADER_BYTES });
  return {
    baseUrl: http.address,
    received,
    metrics,
    logLines: () => lines.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>),
    stop: async () => {
      await http.stop();
      await bus.close();
    },
  };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request with node:http (fetch cannot send a GET body, which search takes). */
export function send(baseUrl: string, method: string, path: string, options: { body?: string | Buffer; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, baseUrl), { method, headers: { ...(options.body !== undefined ? { 'Content-Length': String(Buffer.byteLength(options.body)) } : {}), ...options.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

export const authHeaders = { ApiKey: API_KEY, AccountId: ACCOUNT_ID };
