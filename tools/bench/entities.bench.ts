// Issue 3: entity reads through the gateway on the real stack (five apps as separate processes).
// (a) a run sheet with 300 laps x 3 sectors read with parametersToInclude=Laps.LapTime,Laps.LapSectors.* (another
//     projection with BENCH_RUNSHEET_INCLUDE);
// (b) a mode-4 tyre search (EventId + CarId, 100 matches) over an account holding 20,000 tyres.
// Everything is seeded through the API with 16 requests in flight. BENCH_DURATION (s, default 10).
// After seeding, ANALYZE entity.entities (what autovacuum does after a bulk load; this machine's PostgreSQL runs
// with autovacuum off). BENCH_ANALYZE=0 skips it, to see the plans on stale statistics.
// Each read is measured three ways in one run: with the entity-service's read cache (the default), with the cache
// while the account is written 10 times a second (each write retires the account's cached replies), and with the
// cache off (READ_CACHE_MB=0: the entity-service restarted on the same database), and the ratios are printed.
// BENCH_PROFILE=1 writes V8 CPU profiles of the apps and prints the top self-time functions of the gateway and the
// entity-service during each loaded read. Every loaded read also prints the CPU each process spent per request (/proc).
import {
  cpuSnapshot,
  inParallel,
  load,
  nowMicros,
  printCpuPerRequest,
  printSummary,
  runBench,
  startProfiledBenchStack,
  summarise,
  type AutocannonOptions,
  type BenchStack,
  type LoadSummary,
  type Window,
} from './stack-fixture';

const LAPS = 300;
const SECTORS = 3;
const TYRES = 20_000;
const EVENTS = 10;
const CARS = 20; // 10 events x 20 cars = 200 (event, car) pairs, 100 tyres each
const SEED_CONCURRENCY = 16;
const CONNECTIONS = 8;
const DURATION_S = Number(process.env['BENCH_DURATION'] ?? 10);
const WARMUP_S = 3;
const FLOOR_P50_MS = 25;
const PROFILE = process.env['BENCH_PROFILE'] === '1';
const WRITES_PER_S = 10;
// Experiment: ANALYZE after seeding, as autovacuum would eventually, to see the search with fresh planner statistics.
const ANALYZE_AFTER_SEED = process.env['BENCH_ANALYZE'] !== '0';
// BENCH_READS=runsheet or =search runs one of the two reads (default both); seeding the tyres takes about two minutes.
// The run sheet read's parametersToInclude. Comparing commits whose answers differ (LapSectors.* gained `Name: null`
// and `AttachedFiles: []` with the wire rules of issue 9), name paths both answer alike, e.g.
// Laps.LapTime,Laps.LapSectors.SectorTime,Laps.LapSectors.TrackSectorDefinitionId.
const RUNSHEET_INCLUDE = process.env['BENCH_RUNSHEET_INCLUDE'] ?? 'Laps.LapTime,Laps.LapSectors.*';
const READS = new Set((process.env['BENCH_READS'] ?? 'runsheet,search').split(',').map((r) => r.trim()));

async function seedRunSheet(stack: BenchStack): Promise<{ runSheetId: string; lapCount: number }> {
  const championshipId = await stack.create('Championships', {}, { Name: 'Bench championship' });
  const eventId = await stack.create('Events', { championshipId }, { Name: 'Monza' });
  const carId = await stack.create('Cars', {}, { Name: 'Car 7' });
  await stack.create('EventCars', { eventId, carId }, {});
  const trackId = await stack.create('Tracks', {}, { Name: 'Monza' });
  const trackConfigurationId = await stack.create('TrackConfigurations', { trackId }, { Name: 'Grand Prix' });
  const sectorIds: string[] = [];
  for (let s = 0; s < SECTORS; s++) sectorIds.push(await stack.create('TrackSectorDefinitions', { trackConfigurationId }, { Name: `S${s + 1}` }));
  const sessionId = await stack.create('Sessions', { eventId }, { Name: 'FP1', TrackConfigurationId: trackConfigurationId });
  const runSheetId = await stack.create('RunSheets', { sessionId, carId }, { Name: 'Run 1' });

  const lapNumbers = Array.from({ length: LAPS }, (_, i) => i);
  const lapIds: string[] = [];
  const lapSeconds = await inParallel(lapNumbers, SEED_CONCURRENCY, async (n) => {
    lapIds[n] = await stack.create('Laps', { runSheetId }, { StintLapNumber: String(n), LapTime: (100 + Math.random() * 5).toFixed(3) });
  });
  const sectorWork = lapIds.flatMap((lapId) => sectorIds.map((sectorId, s) => ({ lapId, sectorId, s })));
  const sectorSeconds = await inParallel(sectorWork, SEED_CONCURRENCY, (w) =>
    stack.create('LapSectors', { lapId: w.lapId }, { TrackSectorDefinitionId: w.sectorId, SectorTime: (33 + w.s + Math.random()).toFixed(3) }),
  );
  console.log(`seeded ${LAPS} laps in ${lapSeconds.toFixed(1)} s (${(LAPS / lapSeconds).toFixed(0)}/s), ${sectorWork.length} lap sectors in ${sectorSeconds.toFixed(1)} s (${(sectorWork.length / sectorSeconds).toFixed(0)}/s)`);
  return { runSheetId, lapCount: LAPS };
}

async function seedTyres(stack: BenchStack): Promise<{ eventId: string; carId: string }> {
  const championshipId = await stack.create('Championships', {}, { Name: 'Tyre championship' });
  const eventIds: string[] = [];
  for (let e = 0; e < EVENTS; e++) eventIds.push(await stack.create('Events', { championshipId }, { Name: `Round ${e + 1}` }));
  const carIds: string[] = [];
  for (let c = 0; c < CARS; c++) carIds.push(await stack.create('Cars', {}, { Name: `Car ${c + 1}` }));
  const tyres = Array.from({ length: TYRES }, (_, i) => i);
  const seconds = await inParallel(tyres, SEED_CONCURRENCY, (i) => {
    const pair = i % (EVENTS * CARS);
    return stack.create('Tyres', {}, {
      Name: `Set ${Math.floor(i / (EVENTS * CARS)) + 1} ${['FL', 'FR', 'RL', 'RR'][i % 4]}`,
      ChampionshipId: championshipId,
      EventId: eventIds[pair % EVENTS] as string,
      CarId: carIds[Math.floor(pair / EVENTS)] as string,
    });
  });
  console.log(`seeded ${TYRES} tyres in ${seconds.toFixed(1)} s (${(TYRES / seconds).toFixed(0)}/s)`);
  return { eventId: eventIds[0] as string, carId: carIds[0] as string };
}

interface Measured {
  loaded: LoadSummary;
  single: LoadSummary;
  window: Window;
}

async function measure(stack: BenchStack, label: string, opts: AutocannonOptions): Promise<Measured> {
  await load({ ...opts, connections: CONNECTIONS, duration: WARMUP_S });
  const from = nowMicros();
  const cpuBefore = cpuSnapshot(stack);
  const result = await load({ ...opts, connections: CONNECTIONS, duration: DURATION_S });
  const cpuAfter = cpuSnapshot(stack);
  const loaded = summarise(`${label}, ${CONNECTIONS} conn`, result);
  const window: Window = [from, nowMicros()];
  printSummary(loaded);
  printCpuPerRequest(`${CONNECTIONS} connections`, cpuBefore, cpuAfter, result['2xx']);
  // One connection: the latency of a request when nothing else is queued behind it.
  const single = summarise(`${label}, 1 conn`, await load({ ...opts, connections: 1, duration: Math.max(3, Math.round(DURATION_S / 2)) }));
  printSummary(single);
  return { loaded, single, window };
}

/** Updates one entity of the account `perSecond` times a second until stopped; returns the writes made. */
function writeSteadily(stack: BenchStack, path: string, body: () => unknown, perSecond: number): { stop(): Promise<number> } {
  let running = true;
  let writes = 0;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const r = await stack.send('PUT', path, body());
      if (r.status !== 200) throw new Error(`PUT ${path} answered ${r.status}`);
      writes++;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 / perSecond - (performance.now() - started))));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return writes;
    },
  };
}

interface Scenario {
  name: string;
  cached: Measured;
  written: Measured;
  cold: Measured;
}

/** The three ways of one read, then the entity-service back on its defaults. */
async function scenarios(stack: BenchStack, name: string, opts: AutocannonOptions, write: { path: string; body: () => unknown }): Promise<Scenario> {
  console.log(`\n${name}: autocannon, ${WARMUP_S} s warm-up then ${DURATION_S} s at ${CONNECTIONS} connections, then 1 connection`);
  const cached = await measure(stack, `${name}, cached`, opts);
  const writer = writeSteadily(stack, write.path, write.body, WRITES_PER_S);
  const written = await measure(stack, `${name}, ${WRITES_PER_S} writes/s`, opts);
  console.log(`  (${await writer.stop()} writes to the account during that run)`);
  await stack.restartApp('entity-service', { READ_CACHE_MB: '0' });
  const cold = await measure(stack, `${name}, cache off`, opts);
  await stack.restartApp('entity-service', {});
  return { name, cached, written, cold };
}

/**
 * The search's SQL as the repository sends it: its plan with the statistics the stack has now, then with fresh
 * statistics (ANALYZE inside a transaction that is rolled back, so the run's state is not changed).
 */
async function explainSearch(stack: BenchStack, pair: { eventId: string; carId: string }): Promise<void> {
  const sql = `EXPLAIN (ANALYZE, BUFFERS) SELECT id, account_id, type, parent_id, parent2_id, position, parameters, created_at, modified_at FROM entity.entities
     WHERE account_id = $1 AND type = $2 AND parameters->>'EventId' = $3 AND parameters->>'CarId' = $4 ORDER BY position, created_at`;
  const values = [stack.accountId, 'Tyres', pair.eventId, pair.carId];
  const stats = await stack.pool.query(
    "SELECT n_live_tup, n_mod_since_analyze, last_analyze, last_autoanalyze FROM pg_stat_user_tables WHERE schemaname = 'entity' AND relname = 'entities'",
  );
  console.log(`\nentity.entities statistics: ${JSON.stringify(stats.rows[0])}`);
  const show = (title: string, rows: { 'QUERY PLAN': string }[]) => {
    console.log(`search SQL plan, ${title}:`);
    for (const r of rows) if (/Scan|Sort |Rows Removed|Execution Time/.test(r['QUERY PLAN'])) console.log(`  ${r['QUERY PLAN'].trim()}`);
  };
  show('statistics as the run left them', (await stack.pool.query(sql, values)).rows);
  const client = await stack.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('ANALYZE entity.entities');
    show('after ANALYZE (rolled back)', (await client.query(sql, values)).rows);
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
}

async function main(): Promise<void> {
  console.log(`node ${process.version}; 2 cores shared by the five apps, PostgreSQL, RabbitMQ, Redis and autocannon`);
  const { stack, profiles } = await startProfiledBenchStack(PROFILE);
  const results: Scenario[] = [];
  try {
    if (READS.has('runsheet')) {
      const { runSheetId } = await seedRunSheet(stack);
      const runSheetPath = `/RunSheets/${runSheetId}?parametersToInclude=${encodeURIComponent(RUNSHEET_INCLUDE)}`;
      console.log(`run sheet read: GET /RunSheets/{id}?parametersToInclude=${RUNSHEET_INCLUDE}`);
      const check = await stack.send('GET', runSheetPath);
      const laps = check.body?.Laps ?? [];
      const sectors = laps.reduce((n: number, l: { LapSectors?: unknown[] }) => n + (l.LapSectors?.length ?? 0), 0);
      if (check.status !== 200 || laps.length !== LAPS || sectors !== LAPS * SECTORS) throw new Error(`run sheet read: ${check.status}, ${laps.length} laps, ${sectors} sectors`);
      // Live timing: the last lap's time is corrected again and again.
      const lastLap = `/Laps/${laps[LAPS - 1].Id as string}`;
      const lapTime = () => ({ ParameterUpdates: [{ Name: 'LapTime', Value: (100 + Math.random() * 5).toFixed(3) }] });
      results.push(await scenarios(stack, `GET run sheet (${LAPS} laps, ${sectors} sectors)`, { url: `${stack.baseUrl}${runSheetPath}`, headers: stack.headers }, { path: lastLap, body: lapTime }));
    }
    if (READS.has('search')) {
      const pair = await seedTyres(stack);
      if (ANALYZE_AFTER_SEED) {
        await stack.pool.query('ANALYZE entity.entities');
        console.log('ANALYZE entity.entities ran after seeding (BENCH_ANALYZE=0 skips it)');
      }
      const searchBody = JSON.stringify({ AssociatedModelSearchMode: 4, EventId: pair.eventId, CarId: pair.carId });
      const found = await stack.send('POST', '/Tyres/Search', JSON.parse(searchBody));
      if (found.status !== 200 || found.body.length !== TYRES / (EVENTS * CARS)) throw new Error(`tyre search: ${found.status}, ${found.body?.length} tyres`);
      const tyre = `/Tyres/${found.body[0].Id as string}`;
      const rename = () => ({ ParameterUpdates: [{ Name: 'Name', Value: `Set ${Math.floor(Math.random() * 1000)} FL` }] });
      results.push(
        await scenarios(
          stack,
          `POST /Tyres/Search mode 4 (${found.body.length} of ${TYRES})`,
          { url: `${stack.baseUrl}/Tyres/Search`, method: 'POST', headers: stack.headers, body: searchBody },
          { path: tyre, body: rename },
        ),
      );
      await explainSearch(stack, pair);
    }
    console.log('');
    for (const r of results) {
      const line = (m: Measured) => `${m.loaded.reqPerSec.toFixed(0)} req/s, p50 ${m.loaded.p50} ms, p99 ${m.loaded.p99} ms`;
      console.log(`${r.name} at ${CONNECTIONS} connections:`);
      console.log(`  cached ${line(r.cached)} | ${WRITES_PER_S} writes/s ${line(r.written)} | cache off ${line(r.cold)}`);
      console.log(
        `  throughput cached / cache off ${(r.cached.loaded.reqPerSec / r.cold.loaded.reqPerSec).toFixed(1)}x, ` +
          `with ${WRITES_PER_S} writes/s / cache off ${(r.written.loaded.reqPerSec / r.cold.loaded.reqPerSec).toFixed(1)}x`,
      );
      for (const [how, m] of [['cached', r.cached], [`${WRITES_PER_S} writes/s`, r.written], ['cache off', r.cold]] as const) {
        const clean = m.loaded.errors === 0 && m.loaded.non2xx === 0;
        console.log(`  ${how}: p50 ${m.loaded.p50} ms (floor < ${FLOOR_P50_MS} ms): ${m.loaded.p50 < FLOOR_P50_MS && clean ? 'PASS' : 'FAIL'}`);
      }
    }
  } finally {
    await stack.stop();
  }
  if (profiles) {
    for (const r of results) {
      for (const [how, m] of [['cached', r.cached], [`${WRITES_PER_S} writes/s`, r.written], ['cache off', r.cold]] as const) {
        console.log(`\nCPU profiles during ${r.name}, ${how} (${CONNECTIONS} connections):`);
        profiles.print('gateway', 12, m.window);
        profiles.print('entity-service', 12, m.window);
      }
    }
    profiles.remove();
  }
}

runBench(main);
