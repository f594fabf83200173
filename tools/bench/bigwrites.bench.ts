// Issue 9 item 8: big writes through the gateway on the real stack (five apps as separate processes).
// (a) one PUT /RunSheets/{id} whose CollectionUpdateModels adds 10,000 laps (floor: under 2 s);
// (b) one PUT adding 300 laps (StintLapNumber and LapTime each) to a run sheet;
// (c) for scale, the same 300 laps added one POST /Laps at a time, 8 in flight, as a client without collection updates would;
// (d) BENCH_CONCURRENT (default 48) PUTs of BENCH_BIG laps at once, each on its own run sheet with an Idempotency-Key:
//     how many answered 200 and how many `outcome-unknown` (issue 36.5: 0), then whether every run sheet holds its laps.
// Each PUT of (a) and (b) is timed on a fresh run sheet, BENCH_REPEAT times (default 3), and the median is reported. The
// answer comes at the commit; the write's events (one per lap) are published from the outbox after it (docs/events.md).
import { randomUUID } from 'node:crypto';
import { startBenchStack, inParallel, type BenchStack } from './stack-fixture';

// BENCH_BIG: items of the big PUT (default 10,000); BENCH_BUS_TIMEOUT_MS: the apps' bus timeout (default theirs,
// 10 s), raised on a machine so loaded that the big PUT would answer 504 instead of being measured.
const BIG = Number(process.env['BENCH_BIG'] ?? 10_000);
const RUN = 300;
const REPEAT = Number(process.env['BENCH_REPEAT'] ?? 3);
const CONCURRENT = Number(process.env['BENCH_CONCURRENT'] ?? 48);
const OUTCOME_UNKNOWN = 'urn:pitwall:problem:outcome-unknown';
// BENCH_CONCURRENT_ONLY=1: only (d), e.g. on a machine so loaded that a lone big PUT of (a) misses the bus timeout.
const CONCURRENT_ONLY = process.env['BENCH_CONCURRENT_ONLY'] === '1';
const FLOOR_BIG_MS = 2000;

async function newRunSheet(stack: BenchStack, ctx: { sessionId: string; carId: string }, n: number): Promise<string> {
  return stack.create('RunSheets', { sessionId: ctx.sessionId, carId: ctx.carId }, { Name: `Run ${n}` });
}

async function timedPut(stack: BenchStack, runSheetId: string, items: unknown[]): Promise<number> {
  const started = performance.now();
  const res = await stack.send('PUT', `/RunSheets/${runSheetId}`, { CollectionUpdateModels: { Laps: items } });
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`PUT answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  return ms;
}

async function lapCount(stack: BenchStack, runSheetId: string): Promise<number> {
  const res = await stack.send('GET', `/Laps?runSheetId=${runSheetId}&parametersToInclude=StintLapNumber`);
  return (res.body as unknown[]).length;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const lapItem = (n: number, withTime: boolean) => ({
  ParameterUpdates: [{ Name: 'StintLapNumber', Value: String(n) }, ...(withTime ? [{ Name: 'LapTime', Value: (100 + (n % 7) * 0.137).toFixed(3) }] : [])],
});

/** (d) Many big writes at once: each answer should come at its commit, none after the gateway gave up on it. Returns whether all answered 200. */
async function concurrentBigPuts(stack: BenchStack, ctx: { sessionId: string; carId: string }, bigBody: unknown[]): Promise<boolean> {
  const concurrentIds = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => newRunSheet(stack, ctx, 300 + i)));
  const concurrentStarted = performance.now();
  const answers = await Promise.all(
    concurrentIds.map(async (id) => {
      const started = performance.now();
      const res = await fetch(`${stack.baseUrl}/RunSheets/${id}`, {
        method: 'PUT',
        headers: { ...stack.headers, 'Idempotency-Key': randomUUID() },
        body: JSON.stringify({ CollectionUpdateModels: { Laps: bigBody } }),
      });
      const text = await res.text();
      const type = res.status === 200 || !text ? undefined : (JSON.parse(text) as { type?: string }).type;
      return { status: res.status, type, ms: performance.now() - started };
    }),
  );
  const concurrentS = (performance.now() - concurrentStarted) / 1000;
  const ok = answers.filter((a) => a.status === 200);
  const unknown = answers.filter((a) => a.type === OUTCOME_UNKNOWN);
  const others = answers.filter((a) => a.status !== 200 && a.type !== OUTCOME_UNKNOWN).map((a) => `${a.status} ${a.type ?? ''}`.trim());
  let complete = 0;
  for (const id of concurrentIds) if ((await lapCount(stack, id)) === BIG) complete++;
  console.log(
    `${CONCURRENT} PUTs of ${BIG} laps at once: ${ok.length} answered 200, ${unknown.length} outcome-unknown, ${others.length} other${others.length ? ` (${others.join(', ')})` : ''}; ` +
      `all answered in ${concurrentS.toFixed(1)} s, 200s in median ${ok.length ? (median(ok.map((a) => a.ms)) / 1000).toFixed(1) : '-'} s, slowest ${(Math.max(...answers.map((a) => a.ms)) / 1000).toFixed(1)} s; ${complete} of ${CONCURRENT} run sheets hold all ${BIG} laps`,
  );
  console.log(`floor: ${CONCURRENT} concurrent PUTs of ${BIG} laps all 200, 0 outcome-unknown: ${ok.length === CONCURRENT ? 'PASS' : 'FAIL'}`);
  return ok.length === CONCURRENT;
}

async function main(): Promise<void> {
  const busTimeout = process.env['BENCH_BUS_TIMEOUT_MS'];
  const stack = await startBenchStack({ env: busTimeout ? { BUS_TIMEOUT_MS: busTimeout } : {} });
  try {
    const championshipId = await stack.create('Championships', {}, { Name: 'Bench championship' });
    const eventId = await stack.create('Events', { championshipId }, { Name: 'Monza' });
    const carId = await stack.create('Cars', {}, { Name: 'Car 7' });
    await stack.create('EventCars', { eventId, carId }, {});
    const sessionId = await stack.create('Sessions', { eventId }, { Name: 'FP1' });
    const ctx = { sessionId, carId };
    // Warm-up: the first write of each kind pays for connections and JIT.
    await timedPut(stack, await newRunSheet(stack, ctx, 0), Array.from({ length: 50 }, (_, i) => lapItem(i, true)));

    const big: number[] = [];
    const bigBody = Array.from({ length: BIG }, (_, i) => lapItem(i, false));
    console.log(`${BIG}-lap body: ${(JSON.stringify({ CollectionUpdateModels: { Laps: bigBody } }).length / 1024).toFixed(0)} kB`);
    if (CONCURRENT_ONLY) {
      if (!(await concurrentBigPuts(stack, ctx, bigBody))) process.exitCode = 1;
      return;
    }
    for (let r = 0; r < REPEAT; r++) {
      const id = await newRunSheet(stack, ctx, r + 1);
      big.push(await timedPut(stack, id, bigBody));
      if ((await lapCount(stack, id)) !== BIG) throw new Error('the 10,000 laps are not all there');
    }

    const run: number[] = [];
    const runBody = Array.from({ length: RUN }, (_, i) => lapItem(i, true));
    for (let r = 0; r < REPEAT; r++) run.push(await timedPut(stack, await newRunSheet(stack, ctx, 100 + r), runBody));

    const oneByOneId = await newRunSheet(stack, ctx, 200);
    const oneByOneS = await inParallel(runBody, 8, (item) =>
      stack.create('Laps', { runSheetId: oneByOneId }, Object.fromEntries(item.ParameterUpdates.map((u) => [u.Name, u.Value]))),
    );
    if ((await lapCount(stack, oneByOneId)) !== RUN) throw new Error('the 300 laps posted one by one are not all there');

    const bigMs = median(big);
    const runMs = median(run);
    const oneByOneMs = oneByOneS * 1000;
    console.log(`PUT adding ${BIG} laps:  median ${bigMs.toFixed(0)} ms  (runs: ${big.map((m) => m.toFixed(0)).join(', ')} ms)  ${(bigMs / BIG).toFixed(3)} ms/lap`);
    console.log(`PUT adding ${RUN} laps:    median ${runMs.toFixed(0)} ms  (runs: ${run.map((m) => m.toFixed(0)).join(', ')} ms)  ${(runMs / RUN).toFixed(3)} ms/lap`);
    console.log(`${RUN} POST /Laps, 8 in flight: ${oneByOneMs.toFixed(0)} ms  ${(oneByOneMs / RUN).toFixed(3)} ms/lap`);
    console.log(`ratios: ${RUN} laps one POST at a time / in one PUT = ${(oneByOneMs / runMs).toFixed(1)}x; per lap, PUT of ${RUN} / PUT of ${BIG} = ${(runMs / RUN / (bigMs / BIG)).toFixed(1)}x`);
    console.log(`floor: PUT of ${BIG} laps under ${FLOOR_BIG_MS} ms: ${bigMs < FLOOR_BIG_MS ? 'PASS' : 'FAIL'} (${bigMs.toFixed(0)} ms)`);
    const allAnswered = await concurrentBigPuts(stack, ctx, bigBody);
    if (bigMs >= FLOOR_BIG_MS || !allAnswered) process.exitCode = 1;
  } finally {
    await stack.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
