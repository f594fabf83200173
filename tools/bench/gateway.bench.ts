// Issue 2: GET /Championships/{id} through the gateway (five apps as separate processes on the real PostgreSQL,
// RabbitMQ and Redis) against a bare express handler in this process returning the same JSON; autocannon, 32
// connections, same duration for both. Then the phases of one request, each timed serially on its own.
// BENCH_PROFILE=1 also writes V8 CPU profiles of the apps and prints the top self-time functions of the gateway
// and the entity-service. BENCH_DURATION (s, default 10) sets the measured duration.
import type { AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import { createBus } from '@pitwall/bus';
import { ENTITY_COMMANDS, SERVICES } from '@pitwall/contracts';
import { AMQP_URL, cpuSnapshot, load, nowMicros, printCpuPerRequest, printSummary, runBench, startProfiledBenchStack, summarise, type BenchStack, type Window } from './stack-fixture';

const CONNECTIONS = 32;
const DURATION_S = Number(process.env['BENCH_DURATION'] ?? 10);
const WARMUP_S = 3;
const PROFILE = process.env['BENCH_PROFILE'] === '1';
const FLOOR_RATIO = 0.15;
const FLOOR_P99_MS = 100;
const PHASE_ITERATIONS = 1000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function timeSerial(label: string, fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 50; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < PHASE_ITERATIONS; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  const p50 = median(times);
  console.log(`  ${label.padEnd(62)} p50 ${p50.toFixed(3).padStart(7)} ms`);
  return p50;
}

/** One request at a time: the whole GET, and each hop it is made of, timed from this process. */
async function phases(stack: BenchStack, id: string, bareUrl: string): Promise<void> {
  console.log(`\nphases, one request at a time (${PHASE_ITERATIONS} each, after 50 warm-up):`);
  const bus = createBus({ url: AMQP_URL, prefix: `${stack.prefix}.`, logger: pino({ level: 'silent' }) });
  try {
    const caller = { accountId: stack.accountId, userId: stack.userId, role: 'admin' as const };
    await timeSerial('GET via gateway (fetch, full stack)', async () => {
      const r = await fetch(`${stack.baseUrl}/Championships/${id}`, { headers: stack.headers });
      await r.arrayBuffer();
    });
    await timeSerial('GET bare handler (fetch)', async () => {
      const r = await fetch(`${bareUrl}/Championships/${id}`, { headers: stack.headers });
      await r.arrayBuffer();
    });
    await timeSerial('auth: authenticate + roleFor (2 Redis GETs, cached)', async () => {
      const p = await stack.auth.authenticate(stack.apiKey);
      await stack.auth.roleFor((p as { userId: string }).userId, stack.accountId);
    });
    await timeSerial('auth: callerFor, as the gateway asks (1 Redis MGET, cached)', () => stack.auth.callerFor(stack.apiKey, stack.accountId));
    await timeSerial('bus: ping round trip to the entity-service', () => bus.request(SERVICES.entity, 'ping', {}));
    // Nothing writes the account now, so after the first this is a read cache hit: validation + the account version.
    await timeSerial('bus: entity.get round trip (cached reply)', () => bus.requestEncoded(SERVICES.entity, ENTITY_COMMANDS.get, { caller, type: 'Championships', id }));
    await timeSerial('SQL: the account version (a cached get\'s one query)', () =>
      stack.pool.query(`SELECT version::text AS version FROM entity.account_versions WHERE account_id = $1`, [stack.accountId]),
    );
    const columns = 'id, account_id, type, parent_id, parent2_id, position, parameters';
    await timeSerial('SQL: parameter definitions + findById (a rendered get\'s 2 queries)', async () => {
      await stack.pool.query(`SELECT ${columns} FROM entity.entities WHERE account_id = $1 AND type = 'ParameterDefinitions'`, [stack.accountId]);
      await stack.pool.query(`SELECT ${columns} FROM entity.entities WHERE id = $1 AND account_id = $2 AND type = $3`, [id, stack.accountId, 'Championships']);
    });
  } finally {
    await bus.close();
  }
}

async function main(): Promise<void> {
  console.log(`node ${process.version}; 2 cores shared by the five apps, PostgreSQL, RabbitMQ, Redis and autocannon`);
  const { stack, profiles } = await startProfiledBenchStack(PROFILE);
  const bare = express();
  let server: import('node:http').Server | undefined;
  let measured: Window | undefined;
  try {
    const id = await stack.create('Championships', {}, { Name: 'GT World Challenge 2026' });
    const first = await fetch(`${stack.baseUrl}/Championships/${id}`, { headers: stack.headers });
    if (first.status !== 200) throw new Error(`GET /Championships/${id} answered ${first.status}`);
    const entity = await first.json();
    const lastModified = first.headers.get('x-last-modified-time') ?? '';
    console.log(`GET /Championships/${id} -> ${JSON.stringify(entity)}`);

    // The same JSON and header, with nothing behind it: what express alone costs on this machine.
    bare.disable('x-powered-by');
    bare.set('etag', false);
    bare.get('/Championships/:id', (_req, res) => {
      res.setHeader('X-Last-Modified-Time', lastModified);
      res.json(entity);
    });
    server = await new Promise<import('node:http').Server>((resolve) => {
      const s = bare.listen(0, '127.0.0.1', () => resolve(s));
    });
    const bareUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const run = async (label: string, base: string) => {
      const url = `${base}/Championships/${id}`;
      await load({ url, connections: CONNECTIONS, duration: WARMUP_S, headers: stack.headers });
      const from = nowMicros();
      const cpuFrom = cpuSnapshot(stack);
      const result = await load({ url, connections: CONNECTIONS, duration: DURATION_S, headers: stack.headers });
      const cpu = [cpuFrom, cpuSnapshot(stack)] as const;
      return { summary: summarise(label, result), window: [from, nowMicros()] as Window, cpu, requests: result.requests.total };
    };
    console.log(`\nautocannon, ${CONNECTIONS} connections, ${WARMUP_S} s warm-up then ${DURATION_S} s each${PROFILE ? ' (apps under --cpu-prof: slower)' : ''}:`);
    const fullRun = await run('full stack (gateway -> bus -> entity)', stack.baseUrl);
    const full = fullRun.summary;
    measured = fullRun.window;
    printSummary(full);
    // Where a request's CPU goes, by process (only the full stack's: the bare handler is this process alone).
    printCpuPerRequest('full stack GET', fullRun.cpu[0], fullRun.cpu[1], fullRun.requests);
    const plain = (await run('bare express handler', bareUrl)).summary;
    printSummary(plain);
    const ratio = full.reqPerSec / plain.reqPerSec;
    const clean = full.errors === 0 && full.non2xx === 0;
    const pass = ratio >= FLOOR_RATIO && full.p99 < FLOOR_P99_MS && clean;
    console.log(
      `full/bare throughput ${(ratio * 100).toFixed(1)}% (floor ${FLOOR_RATIO * 100}%), full p99 ${full.p99} ms (floor < ${FLOOR_P99_MS} ms), ` +
        `errors ${full.errors}, non-2xx ${full.non2xx}: ${pass ? 'PASS' : 'FAIL'}`,
    );

    if (!PROFILE) await phases(stack, id, bareUrl);
  } finally {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await stack.stop();
  }
  if (profiles) {
    console.log('\nCPU profiles, samples taken during the measured full-stack run only:');
    profiles.print('gateway', 15, measured);
    profiles.print('entity-service', 15, measured);
    profiles.remove();
  }
}

runBench(main);
