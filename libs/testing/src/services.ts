import { execSync } from 'node:child_process';
import { connect } from 'node:net';
import pg from 'pg';

/** A server the tests need: how to tell it answers, and the machine's command that starts it. */
export interface TestService {
  name: string;
  probe(): Promise<boolean>;
  startCommand: string;
}

export type TestServiceName = 'postgres' | 'redis' | 'rabbitmq';

const HOST = '127.0.0.1';

export const TEST_SERVICES: Record<TestServiceName, TestService> = {
  postgres: {
    name: 'PostgreSQL (127.0.0.1:5432)',
    // A real query: the port opens before the server accepts sessions ("the database system is starting up").
    probe: async () => {
      const client = new pg.Client({ host: HOST, port: 5432, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 1000 });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query('SELECT 1');
        return true;
      } catch {
        return false;
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    startCommand: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
  },
  redis: {
    name: 'Redis (127.0.0.1:6379)',
    probe: () => exchange(6379, Buffer.from('PING\r\n'), (reply) => reply.toString().startsWith('+PONG')),
    startCommand: 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no',
  },
  rabbitmq: {
    name: 'RabbitMQ (127.0.0.1:5672)',
    // The AMQP 0-9-1 header; a broker that is up answers with a Connection.Start method frame (type 1).
    probe: () => exchange(5672, Buffer.from([0x41, 0x4d, 0x51, 0x50, 0, 0, 9, 1]), (reply) => reply[0] === 1),
    startCommand: 'rabbitmq-server -detached',
  },
};

export interface EnsureOptions {
  /** How long to wait for a started server to answer (default 60 s, env TEST_SERVICE_WAIT_MS). */
  waitMs?: number;
  log?: (line: string) => void;
}

/** Probes each server; starts those that do not answer and waits (bounded) until they do. Throws naming the ones that never came up. */
export async function ensureServices(services: TestService[], { waitMs = Number(process.env['TEST_SERVICE_WAIT_MS'] ?? 60_000), log = () => undefined }: EnsureOptions = {}): Promise<void> {
  const failures = await Promise.all(services.map((s) => ensureService(s, waitMs, log)));
  const messages = failures.filter((f): f is string => f !== null);
  if (messages.length) throw new Error(`Test servers are not available:\n  ${messages.join('\n  ')}`);
}

async function ensureService(service: TestService, waitMs: number, log: (line: string) => void): Promise<string | null> {
  if (await service.probe()) return null;
  log(`${service.name} is down; starting it with: ${service.startCommand}`);
  let startError = '';
  try {
    execSync(service.startCommand, { stdio: 'pipe', timeout: waitMs, shell: '/bin/bash' });
  } catch (err) {
    // The server may still come up (e.g. "already running"); the wait below decides.
    startError = ` (start command failed: ${String((err as { stderr?: Buffer }).stderr ?? (err as Error).message).trim().slice(0, 300)})`;
  }
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    if (await service.probe()) {
      log(`${service.name} is up`);
      return null;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return `${service.name} did not answer within ${Math.round(waitMs / 1000)} s after \`${service.startCommand}\`${startError}`;
}

function exchange(port: number, request: Buffer, accept: (reply: Buffer) => boolean, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: HOST, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write(request));
    socket.once('data', (reply) => done(accept(reply)));
  });
}
