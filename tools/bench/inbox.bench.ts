// Issue 15: the cost of recording command ids. Write throughput of POST /Championships through the gateway on the
// five-process stack, with the entity-service's command inbox (the default: every write records its command id,
// request hash and reply in its transaction) against the same service with the inbox off (COMMAND_INBOX=0, a switch
// for this bench only: the entity-service restarted on the same database), in one run. The order is on, off, on, so
// a drift of the shared machine during the run shows as a difference between the two "on" runs. Each run starts
// from an empty account and inbox.
// No Idempotency-Key is sent: the gateway gives every request a fresh command id, which is the common case.
// BENCH_DURATION (s, default 5), BENCH_CONNECTIONS (default 8).
import { load, printSummary, startBenchStack, summarise, type BenchStack, type LoadSummary } from './stack-fixture';

const DURATION_S = Number(process.env['BENCH_DURATION'] ?? 5);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 8);
const WARMUP_S = 2;
const EXPECTED_COST = 0.15;

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
    console.log(`POST /Championships: autocannon, ${WARMUP_S} s warm-up then ${DURATION_S} s at ${CONNECTIONS} connections, each way`);
    const on1 = await measure(stack, 'inbox on');
    await stack.restartApp('entity-service', { COMMAND_INBOX: '0' });
    const off = await measure(stack, 'inbox off (COMMAND_INBOX=0)');
    await stack.restartApp('entity-service', {});
    const on2 = await measure(stack, 'inbox on, again');
    const on = (on1.reqPerSec + on2.reqPerSec) / 2;
    const cost = 1 - on / off.reqPerSec;
    const recorded = await stack.pool.query<{ n: string }>('SELECT count(*) AS n FROM entity.inbox');
    const written = await stack.pool.query<{ n: string }>('SELECT count(*) AS n FROM entity.entities WHERE account_id = $1', [stack.accountId]);
    console.log(`\ninbox on / off: ${(on / off.reqPerSec).toFixed(2)} (cost ${(cost * 100).toFixed(1)}%; expected under ${EXPECTED_COST * 100}%: ${cost < EXPECTED_COST ? 'PASS' : 'FAIL'})`);
    console.log(`the two "on" runs differ by ${((Math.abs(on1.reqPerSec - on2.reqPerSec) / on) * 100).toFixed(1)}% (the machine's drift during the run)`);
    console.log(`last run: ${written.rows[0]?.n} championships written, ${recorded.rows[0]?.n} commands recorded in entity.inbox`);
  } finally {
    await stack.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
