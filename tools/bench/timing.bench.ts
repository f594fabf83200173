// Issue 12: the timing replay at full speed through the gateway on the five-process stack (tools/timing-replay),
// verified exactly, beside the ceiling of the database itself in the same run: pgbench with 8 clients running the
// same upsert of a lap plus its outbox row in one transaction. Then the read of another car's 300-lap run sheet at
// 8 connections while the replay feeds the same account at about 50 updates a second.
// BENCH_CARS (default 30), BENCH_HOURS (session hours of the full-speed feed, default 1), BENCH_CONCURRENCY (32),
// BENCH_PACED_RATE (updates/s of the paced play, default 850; 0 skips it), BENCH_DURATION (s of pgbench and of the loaded read, default 10). BENCH_PROFILE=1 runs the apps under --cpu-prof and
// prints the top self-time functions of the gateway, the timing-service and the entity-service during the replay.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { counts, createSession, generateFeed, replay, speedUpFor, verify, type ExpectedRun, type Send, type SessionSetup } from '../timing-replay/replay';
import { cpuSnapshot, load, nowMicros, printCpuPerRequest, printSummary, startProfiledBenchStack, summarise, type Window } from './stack-fixture';

const CARS = Number(process.env['BENCH_CARS'] ?? 30);
const HOURS = Number(process.env['BENCH_HOURS'] ?? 1);
const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 32);
const PACED_RATE = Number(process.env['BENCH_PACED_RATE'] ?? 850);
const DURATION_S = Number(process.env['BENCH_DURATION'] ?? 10);
const PROFILE = process.env['BENCH_PROFILE'] === '1';

/** Whether the store holds a play's feed exactly, printed under `label`; a difference fails the bench. */
async function verifyPlay(label: string, send: Send, setup: SessionSetup, expected: ExpectedRun[][]): Promise<void> {
  const problems = await verify(send, setup, expected);
  console.log(problems.length ? `${label}: ${problems.length} differences\n${problems.slice(0, 5).join('\n')}` : `${label}: the store holds the feed exactly`);
  if (problems.length) process.exitCode = 1;
}

async function main(): Promise<void> {
  const { stack, profiles } = await startProfiledBenchStack(PROFILE);
  let measured: Window | undefined;
  try {
    const send: Send = stack.send;
    const { updates, expected } = generateFeed({ cars: CARS, hours: HOURS, seed: 12 });
    const c = counts(expected);
    console.log(`feed: ${CARS} cars, ${HOURS} h, ${updates.length} updates (${c.runs} runs, ${c.laps} laps, ${c.sectors} sectors, ${c.speedTraps} speed traps)`);
    const setup = await createSession(send, stack.accountId, CARS);
    const cpuBefore = cpuSnapshot(stack);
    const replayFrom = nowMicros();
    const full = await replay(send, setup, updates, { speedUp: Infinity, concurrency: CONCURRENCY });
    measured = [replayFrom, nowMicros()];
    const cpuAfter = cpuSnapshot(stack);
    console.log(`replay at full speed, ${CONCURRENCY} in flight${PROFILE ? ' (apps under --cpu-prof: slower)' : ''}: ${full.perSecond.toFixed(0)} updates/s over ${full.seconds.toFixed(1)} s; p50 ${full.p50.toFixed(1)} ms, p99 ${full.p99.toFixed(1)} ms, max ${full.max.toFixed(1)} ms; ${full.retried} retried`);
    // Where the CPU of an update goes (the replay client is this process: "bench").
    printCpuPerRequest('replay update', cpuBefore, cpuAfter, updates.length);
    await verifyPlay('verify', send, setup, expected);

    // The same feed (another session, another seed) paced as a timing system sends it: each car's updates at their
    // time / speed-up, the speed-up chosen to give PACED_RATE updates a second on average. Full speed keeps 32 in
    // flight whatever the latency, so its p99 is mostly queueing the bench itself makes; this is the latency at a
    // sustained rate. Sustained means the replay kept pace: its rate reached and its updates not sent late.
    if (PACED_RATE > 0) {
      const pacedFeed = generateFeed({ cars: CARS, hours: HOURS, seed: 13 });
      const pacedSetup = await createSession(send, stack.accountId, CARS);
      const speedUp = speedUpFor(pacedFeed.updates, PACED_RATE);
      const paced = await replay(send, pacedSetup, pacedFeed.updates, { speedUp, concurrency: CONCURRENCY });
      console.log(
        `replay paced at ${PACED_RATE} updates/s (speed-up ${speedUp.toFixed(0)}, ${CONCURRENCY} in flight at most): ${paced.perSecond.toFixed(0)} updates/s over ${paced.seconds.toFixed(1)} s; p50 ${paced.p50.toFixed(1)} ms, p99 ${paced.p99.toFixed(1)} ms, max ${paced.max.toFixed(1)} ms; sent late p99 ${paced.lateP99.toFixed(1)} ms; ${paced.retried} retried`,
      );
      await verifyPlay('verify (paced)', send, pacedSetup, pacedFeed.expected);
    }

    // The database's ceiling: the same upsert of a lap (on its timing key) plus an outbox row, one transaction each.
    const { rows } = await stack.pool.query<{ id: string }>(`SELECT id FROM entity.entities WHERE type = 'RunSheets' AND account_id = $1 LIMIT 1`, [stack.accountId]);
    const runId = rows[0]?.id as string;
    const dir = mkdtempSync(path.join(tmpdir(), 'pitwall-pgbench-'));
    const script = path.join(dir, 'lap-upsert.sql');
    writeFileSync(
      script,
      `\\set n random(1000, 1000000)
BEGIN;
INSERT INTO entity.entities (id, account_id, type, parent_id, parent2_id, position, parameters, created_at, modified_at, timing_key)
  VALUES (gen_random_uuid(), '${stack.accountId}', 'Laps', '${runId}', NULL, :n, '{"Name": "Lap", "StintLapNumber": 1, "LapTime": 91.234}', now(), now(), :n::text)
  ON CONFLICT (parent_id, type, timing_key) WHERE timing_key IS NOT NULL DO UPDATE SET parameters = EXCLUDED.parameters, modified_at = now();
INSERT INTO entity.outbox (routing_key, payload) VALUES ('timing.lap.updated', '{"part": "lap"}');
COMMIT;
`,
    );
    const pgbench = spawnSync('pgbench', ['-n', '-c', '8', '-j', '2', '-T', String(DURATION_S), '-f', script, stack.databaseUrl], { encoding: 'utf8' });
    rmSync(dir, { recursive: true, force: true });
    const tps = Number(/tps = ([\d.]+)/.exec(pgbench.stdout)?.[1] ?? NaN);
    console.log(`pgbench, 8 clients, lap upsert + outbox row per transaction: ${tps.toFixed(0)} transactions/s${pgbench.status ? ` (pgbench failed: ${pgbench.stderr.trim()})` : ''}`);
    console.log(`ratio: the replay sustains ${((full.perSecond / tps) * 100).toFixed(0)} % of the database's ceiling`);
    await stack.pool.query(`DELETE FROM entity.entities WHERE parent_id = $1 AND type = 'Laps' AND timing_key::int >= 1000`, [runId]);

    // Reads during a live session: another car's run sheet of 300 laps (3 sectors each) at 8 connections while the
    // replay feeds about 50 updates a second into the same account.
    const reader = await createSession(send, stack.accountId, 1);
    const lapsFeed = Array.from({ length: 300 }, (_, lap) =>
      [0, 1, 2].map((s) => ({ at: 0, car: 0, endpoint: 'Sectors' as const, body: { runIndex: 0, stintLapNumber: lap, sectorIndex: s, properties: [{ name: 'SectorTime', value: '30.5' }] } })),
    ).flat();
    await replay(send, reader, lapsFeed, { speedUp: Infinity, concurrency: 1 });
    const list = await send('GET', `/RunSheets?sessionId=${reader.ids.sessionId}&carId=${reader.cars[0]}`);
    const readUrl = `${stack.baseUrl}/RunSheets/${list.body[0].Id as string}?parametersToInclude=Laps.LapTime,Laps.LapSectors.*`;
    const live = generateFeed({ cars: 10, hours: 1, seed: 99 });
    const liveSetup = await createSession(send, stack.accountId, 10);
    // A car emits about 6 updates a lap (about 0.07 a second of session time): the speed-up that makes the 10 cars
    // feed 50 updates a second is measured on the feed. Played from 5 minutes in, when every car is out.
    const from = 300;
    const rate = live.updates.filter((u) => u.at >= from && u.at < from + 1800).length / 1800;
    const speedUp = 50 / rate;
    const window = live.updates.filter((u) => u.at >= from && u.at - from < (DURATION_S + 6) * speedUp).map((u) => ({ ...u, at: u.at - from }));
    const feeding = replay(send, liveSetup, window, { speedUp, concurrency: 8 });
    const loaded = summarise('run sheet read (300 laps) while the replay feeds the account', await load({ url: readUrl, connections: 8, duration: DURATION_S, headers: stack.headers }));
    const fed = await feeding;
    printSummary(loaded);
    console.log(`  meanwhile the replay fed ${(fed.updates / fed.seconds).toFixed(0)} updates/s (p99 ${fed.p99.toFixed(1)} ms)`);
    const quiet = summarise('run sheet read (300 laps), no writes', await load({ url: readUrl, connections: 8, duration: DURATION_S, headers: stack.headers }));
    printSummary(quiet);
  } finally {
    await stack.stop();
  }
  if (profiles) {
    console.log('\nCPU profiles, samples taken during the full-speed replay only:');
    for (const app of ['gateway', 'timing-service', 'entity-service']) profiles.print(app, 30, measured);
    profiles.remove();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
