// Issue 15: the cost of recording command ids. Write throughput of POST /Championships through the gateway on the
// five-process stack, with the entity-service's command inbox (the default: every write records its command id,
// request hash and reply in its transaction) against the same service with the inbox off (COMMAND_INBOX=0, a switch
// for this bench only: the entity-service restarted on the same database), in one run, interleaved: BENCH_ROUNDS
// (default 3) rounds of one run each way, the side that goes first alternating (on off, off on, on off, ...: a drift
// of the shared machine hits both sides alike, and consecutive runs of one side need no restart). Medians of the
// runs and their ratio are printed. Each run starts from an empty account and inbox.
// No Idempotency-Key is sent: the gateway gives every request a fresh command id, which is the common case.
// BENCH_DURATION (s, default 5), BENCH_CONNECTIONS (default 8).
import { load, printSummary, startBenchStack, summarise, type BenchStack, type LoadSummary } from './stack-fixture';

const DURATION_S = Number(process.env['BENCH_DURATION'] ?? 5);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 8);
const WARMUP_S = 2;
const EXPECTED_COST = 0.15;
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);

const median = (xs: number[]): number => {
  const v = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? (v[mid] as number) : ((v[mid - 1] as number) + (v[mid] as number)) / 2;
};

async function measure(stack: BenchStack, label: string): Promise<LoadSummary> {
  // Every run starts from the same state: the championships and commands of the run before are removed (a create
  // computes its position among its siblings, so a growing account would make later runs slower).
  await stack.pool.query('DELETE FROM entity.entities WHERE account_id = $1', [stack.accountId]);
  await stack.pool.query('DELETE FROM entity.inbox');
  await stack.pool.query('VACUUM ANALYZE entity.entities');
  await stack.pool.query('VACUUM ANALYZE entity.inbox');
  const opts = {
    url: `${stack.baseUrl}/Championships`,
    method: 'POST',
    headers: stack.headers,
    body: JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: 'Bench Cup' }] }),
    connections: CONNECTIONS,
  };
  await load({ ...opts, duration: WARMUP_S });
  const summary = summarise(label, await load({ ...opts, duration: DURATION_S }));
  printSummary(summary);
  return summary;
}

async function main(): Promise<void> {
  const stack = await startBenchStack({ env: { LOG_LEVEL: 'warn' } });
  try {
    console.log(`POST /Championships: autocannon, ${WARMUP_S} s warm-up then ${DURATION_S} s at ${CONNECTIONS} connections; ${ROUNDS} rounds, on/off alternating first`);
    const runs: Record<'on' | 'off', LoadSummary[]> = { on: [], off: [] };
    let running: 'on' | 'off' = 'on';
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
        if (side !== running) {
          await stack.restartApp('entity-service', side === 'off' ? { COMMAND_INBOX: '0' } : {});
          running = side;
        }
        runs[side].push(await measure(stack, `round ${round + 1}, inbox ${side}${side === 'off' ? ' (COMMAND_INBOX=0)' : ''}`));
      }
    }
    const on = median(runs.on.map((r) => r.reqPerSec));
    const off = median(runs.off.map((r) => r.reqPerSec));
    const cost = 1 - on / off;
    console.log(`
median req/s: inbox on ${on.toFixed(1)}, off ${off.toFixed(1)}; p50 on ${median(runs.on.map((r) => r.p50))} ms, off ${median(runs.off.map((r) => r.p50))} ms`);
    console.log(`inbox on / off: ${(on / off).toFixed(2)} (cost ${(cost * 100).toFixed(1)}%; expected under ${EXPECTED_COST * 100}%: ${cost < EXPECTED_COST ? 'PASS' : 'FAIL'})`);
    const spread = (xs: LoadSummary[]) => `${Math.min(...xs.map((r) => r.reqPerSec)).toFixed(0)}-${Math.max(...xs.map((r) => r.reqPerSec)).toFixed(0)}`;
    console.log(`spread of the runs (req/s): on ${spread(runs.on)}, off ${spread(runs.off)} (the machine's drift during the run)`);
    const recorded = await stack.pool.query<{ n: string }>('SELECT count(*) AS n FROM entity.inbox');
    const written = await stack.pool.query<{ n: string }>('SELECT count(*) AS n FROM entity.entities WHERE account_id = $1', [stack.accountId]);
    console.log(`last run (inbox ${running}): ${written.rows[0]?.n} championships written, ${recorded.rows[0]?.n} commands recorded in entity.inbox`);
  } finally {
    await stack.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
