// The timing replay: a deterministic, realistic session feed (cars, hours, out laps, in laps, pit stops with driver
// changes, 3 sectors and 2 speed traps per lap), played against the gateway's PUT /TimingIntegration/* at a chosen
// speed-up and concurrency, then verified against what the store holds, exactly. Used by the CLI (main.ts) and the
// timing bench (tools/bench/timing.bench.ts).

import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { seededRandom as random } from '@pitwall/random';

/** Sends one request to the gateway (the caller's key and account in its headers); the status and the parsed body. */
export type Send = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; body: any }>;

/**
 * A `Send` over node's own http (https for an https base URL) with kept-alive sockets, `headers` on every request.
 * About a third of the client CPU of `fetch` per request, which matters when the client shares the machine with
 * the service it measures.
 */
export function httpSend(baseUrl: string, headers: Record<string, string>, maxSockets = 64): Send {
  const base = new URL(baseUrl);
  const transport = base.protocol === 'https:' ? https : http;
  const agent = new transport.Agent({ keepAlive: true, maxSockets });
  const prefix = base.pathname.replace(/\/$/, '');
  return (method, path, body, extra) =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = transport.request(
        { protocol: base.protocol, hostname: base.hostname, port: base.port, path: `${prefix}${path}`, method, agent, headers: { ...headers, ...extra, ...(payload ? { 'Content-Length': String(payload.length) } : {}) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            try {
              resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null });
            } catch (err) {
              reject(err);
            }
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
}

export interface FeedOptions {
  cars: number;
  /** Session length in hours of session time. */
  hours: number;
  /** Seed of the generator: the same seed and options give the same feed. */
  seed: number;
}

/** The entities a feed runs in: the session, its track configuration's definitions, the cars entered, the drivers. */
export interface SessionSetup {
  ids: { accountId: string; championshipId: string; eventId: string; sessionId: string };
  cars: string[];
  sectors: string[];
  speedTraps: string[];
  /** Two drivers per car: a pit stop changes driver. */
  drivers: string[][];
}

export type Endpoint = 'Runs' | 'Laps' | 'Sectors' | 'SpeedTraps';

/** One update of the feed, at `at` seconds of session time, for car index `car`. */
export interface FeedUpdate {
  at: number;
  car: number;
  endpoint: Endpoint;
  body: Record<string, unknown>;
}

/** What the store must hold for one car after the feed: its runs in order, each lap with its sectors and traps. */
export interface ExpectedRun {
  driver: number;
  pitOutSessionTime: number | null;
  pitInSessionTime: number | null;
  laps: { stintLapNumber: number; lapTime: number; sectors: number[]; speeds: number[] }[];
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/**
 * The feed of a session: each car leaves the pits (run 0, pit out, out lap 0), laps at about 90 s with noise, a stint
 * of 18 to 30 laps ends with an in lap and a pit in that creates the next run (`shouldCreateNextRun`), the next run
 * starts with a pit out and the other driver. Sectors complete at a third of the lap each, speed traps within
 * sectors 1 and 2, the lap time when the lap ends. Sorted by session time (per car in order).
 */
export function generateFeed(options: FeedOptions): { updates: FeedUpdate[]; expected: ExpectedRun[][] } {
  const rnd = random(options.seed);
  const end = options.hours * 3600;
  const updates: FeedUpdate[] = [];
  const expected: ExpectedRun[][] = [];
  for (let car = 0; car < options.cars; car++) {
    const runs: ExpectedRun[] = [];
    const pace = 88 + rnd() * 6;
    let t = 60 + car * 7 + rnd() * 30;
    for (let runIndex = 0; t < end; runIndex++) {
      const driver = runIndex % 2;
      const pitOut = round3(t);
      const run: ExpectedRun = { driver, pitOutSessionTime: pitOut, pitInSessionTime: null, laps: [] };
      runs.push(run);
      updates.push({ at: t, car, endpoint: 'Runs', body: { runIndex, driverIndex: driver, pitOutSessionTime: pitOut } });
      const stint = 18 + Math.floor(rnd() * 13);
      for (let lap = 0; lap <= stint && t < end; lap++) {
        // The out lap and the in lap are slower.
        const lapTime = round3(pace + rnd() * 1.5 + (lap === 0 || lap === stint ? 12 : 0));
        const sectors = [0, 1, 2].map(() => 0);
        sectors[0] = round3(lapTime * (0.31 + rnd() * 0.02));
        sectors[1] = round3(lapTime * (0.33 + rnd() * 0.02));
        sectors[2] = round3(lapTime - sectors[0] - sectors[1]);
        const speeds = [round3(280 + rnd() * 40), round3(230 + rnd() * 40)];
        const at = { runIndex, stintLapNumber: lap };
        let clock = t;
        for (let s = 0; s < 3; s++) {
          clock += sectors[s] as number;
          if (s < 2) updates.push({ at: clock - (sectors[s] as number) / 2, car, endpoint: 'SpeedTraps', body: { ...at, speedTrapIndex: s, properties: [{ name: 'Speed', value: String(speeds[s]) }] } });
          updates.push({ at: clock, car, endpoint: 'Sectors', body: { ...at, sectorIndex: s, properties: [{ name: 'SectorTime', value: String(sectors[s]) }] } });
        }
        updates.push({ at: t + lapTime, car, endpoint: 'Laps', body: { ...at, properties: [{ name: 'LapTime', value: String(lapTime) }] } });
        run.laps.push({ stintLapNumber: lap, lapTime, sectors, speeds });
        t += lapTime;
      }
      if (t < end) {
        const pitIn = round3(t);
        run.pitInSessionTime = pitIn;
        updates.push({ at: t, car, endpoint: 'Runs', body: { runIndex, pitInSessionTime: pitIn, shouldCreateNextRun: true } });
        t += 25 + rnd() * 15;
      }
    }
    expected.push(runs);
  }
  updates.sort((a, b) => a.at - b.at || a.car - b.car);
  return { updates, expected };
}

/** How often a setup request is asked again after a 5xx or no answer (about a minute in all). */
const SETUP_RETRIES = 30;

/** Creates what a feed runs in: a track configuration with 3 sectors and 2 speed traps, a session, cars, drivers. */
export async function createSession(send: Send, accountId: string, cars: number): Promise<SessionSetup> {
  // Each create keeps its Idempotency-Key through its retries: a service busy or lost (a 503, a 504 outcome-unknown, no
  // answer) is asked again, and a create that had committed answers as it did, never twice.
  const create = async (plural: string, query: string, parameters: Record<string, string> = {}): Promise<string> => {
    const key = randomUUID();
    for (let attempt = 0; ; attempt++) {
      const r = await send('POST', `/${plural}${query}`, { ParameterUpdates: Object.entries(parameters).map(([Name, Value]) => ({ Name, Value })) }, { 'Idempotency-Key': key }).catch(() => ({ status: 0, body: null }));
      if (r.status === 201) return r.body.Id as string;
      if ((r.status !== 0 && r.status < 500) || attempt >= SETUP_RETRIES) throw new Error(`POST /${plural} answered ${r.status}: ${JSON.stringify(r.body)}`);
      await new Promise((resolve) => setTimeout(resolve, 200 * Math.min(attempt + 1, 10)));
    }
  };
  const track = await create('Tracks', '', { Name: 'Replay Ring' });
  const configuration = await create('TrackConfigurations', `?trackId=${track}`, { Name: 'GP' });
  const sectors = [];
  for (const n of [1, 2, 3]) sectors.push(await create('TrackSectorDefinitions', `?trackConfigurationId=${configuration}`, { Name: `Sector ${n}` }));
  const speedTraps = [];
  for (const n of [1, 2]) speedTraps.push(await create('TrackSpeedTrapDefinitions', `?trackConfigurationId=${configuration}`, { Name: `Speed Trap ${n}` }));
  const championshipId = await create('Championships', '', { Name: 'Replay Series' });
  const eventId = await create('Events', `?championshipId=${championshipId}`, { Name: 'Replay Event' });
  const sessionId = await create('Sessions', `?eventId=${eventId}`, { Name: 'Race', TrackConfigurationId: configuration });
  const carIds: string[] = [];
  const drivers: string[][] = [];
  for (let i = 0; i < cars; i++) {
    const carId = await create('Cars', '', { Name: `Car ${i + 1}`, Number: String(i + 1) });
    await create('EventCars', `?eventId=${eventId}&carId=${carId}`);
    carIds.push(carId);
    drivers.push([await create('Drivers', '', { Name: `Driver ${i + 1}A` }), await create('Drivers', '', { Name: `Driver ${i + 1}B` })]);
  }
  return { ids: { accountId, championshipId, eventId, sessionId }, cars: carIds, sectors, speedTraps, drivers };
}

/** The request body of one feed update for the session. */
function requestBody(setup: SessionSetup, u: FeedUpdate): Record<string, unknown> {
  const { driverIndex, sectorIndex, speedTrapIndex, ...rest } = u.body as { driverIndex?: number; sectorIndex?: number; speedTrapIndex?: number };
  const carId = setup.cars[u.car] as string;
  return {
    ...setup.ids,
    carId,
    ...rest,
    ...(driverIndex === undefined ? {} : { driverId: (setup.drivers[u.car] as string[])[driverIndex] }),
    ...(sectorIndex === undefined ? {} : { sectorId: setup.sectors[sectorIndex] }),
    ...(speedTrapIndex === undefined ? {} : { speedTrapId: setup.speedTraps[speedTrapIndex] }),
  };
}

/** The speed-up that plays `updates` at `rate` updates a second on average (the feed's own rate varies along it). */
export function speedUpFor(updates: readonly FeedUpdate[], rate: number): number {
  const span = updates.reduce((last, u) => Math.max(last, u.at), 0);
  return (rate * span) / Math.max(1, updates.length);
}

export interface ReplayOptions {
  /** Session seconds per wall second; Infinity plays as fast as the service answers. */
  speedUp: number;
  /** Updates in flight at most (the updates of one car are always sent one after another). */
  concurrency: number;
  /** Retries of an update answered 5xx or not at all (a restarted service), 200 ms apart. */
  retries?: number;
}

export interface ReplayResult {
  updates: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  retried: number;
  /** Paced plays only: how much later than its time / speedUp an update was sent, p99 (its car's previous update still unanswered, or no slot free). */
  lateP99: number;
}

/**
 * Plays the feed: each car's updates in order, each after the answer to the previous one (a timing system per car),
 * cars side by side up to `concurrency` in flight, an update not sent before its time / speedUp.
 */
export async function replay(send: Send, setup: SessionSetup, updates: readonly FeedUpdate[], options: ReplayOptions): Promise<ReplayResult> {
  const byCar = new Map<number, FeedUpdate[]>();
  for (const u of updates) byCar.set(u.car, [...(byCar.get(u.car) ?? []), u]);
  const latencies: number[] = [];
  const late: number[] = [];
  let retried = 0;
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const acquire = async () => {
    while (inFlight >= options.concurrency) await new Promise<void>((r) => waiting.push(r));
    inFlight++;
  };
  const release = () => {
    inFlight--;
    waiting.shift()?.();
  };
  const start = performance.now();
  await Promise.all(
    [...byCar.values()].map(async (items) => {
      for (const u of items) {
        const paced = Number.isFinite(options.speedUp);
        if (paced) {
          const due = (u.at / options.speedUp) * 1000 - (performance.now() - start);
          if (due > 0) await new Promise((r) => setTimeout(r, due));
        }
        await acquire();
        if (paced) late.push(Math.max(0, performance.now() - start - (u.at / options.speedUp) * 1000));
        try {
          for (let attempt = 0; ; attempt++) {
            const sent = performance.now();
            const r = await send('PUT', `/TimingIntegration/${u.endpoint}`, requestBody(setup, u)).catch(() => ({ status: 0, body: null }));
            if (r.status === 200) {
              latencies.push(performance.now() - sent);
              break;
            }
            if ((r.status !== 0 && r.status < 500) || attempt >= (options.retries ?? 50)) throw new Error(`PUT /TimingIntegration/${u.endpoint} answered ${r.status}: ${JSON.stringify(r.body)}`);
            retried++;
            await new Promise((res) => setTimeout(res, 200));
          }
        } finally {
          release();
        }
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  late.sort((a, b) => a - b);
  const at = (q: number, sorted = latencies) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { updates: updates.length, seconds, perSecond: updates.length / seconds, p50: at(0.5), p99: at(0.99), max: latencies.at(-1) ?? 0, retried, lateP99: at(0.99, late) };
}

/**
 * Reads every car's run sheets back (one read per car) and compares them with the feed, exactly: the runs in order
 * with their driver and pit times, each run's laps by stint lap number with their lap time, sector times and speeds.
 * Returns the differences (empty when the store holds the feed).
 */
export async function verify(send: Send, setup: SessionSetup, expected: ExpectedRun[][]): Promise<string[]> {
  const include = [
    'DriverId',
    'PitInSessionTime',
    'PitOutSessionTime',
    'Laps.StintLapNumber',
    'Laps.LapTime',
    'Laps.LapSectors.SectorTime',
    'Laps.LapSectors.TrackSectorDefinitionId',
    'Laps.LapSpeedTraps.Speed',
    'Laps.LapSpeedTraps.TrackSpeedTrapDefinitionId',
  ].join(',');
  const problems: string[] = [];
  for (const [car, runs] of expected.entries()) {
    const r = await send('GET', `/RunSheets?sessionId=${setup.ids.sessionId}&carId=${setup.cars[car]}&parametersToInclude=${include}`);
    if (r.status !== 200) {
      problems.push(`car ${car}: GET /RunSheets answered ${r.status}`);
      continue;
    }
    const stored = (r.body as any[]).map((run) => ({
      driver: (setup.drivers[car] as string[]).indexOf(run.Parameters.DriverId),
      pitOutSessionTime: run.Parameters.PitOutSessionTime ?? null,
      pitInSessionTime: run.Parameters.PitInSessionTime ?? null,
      laps: (run.Laps as any[]).map((lap) => ({
        stintLapNumber: lap.Parameters.StintLapNumber,
        lapTime: lap.Parameters.LapTime,
        sectors: setup.sectors.map((id) => (lap.LapSectors as any[]).filter((s) => s.Parameters.TrackSectorDefinitionId === id).map((s) => s.Parameters.SectorTime)).flat(),
        speeds: setup.speedTraps.map((id) => (lap.LapSpeedTraps as any[]).filter((s) => s.Parameters.TrackSpeedTrapDefinitionId === id).map((s) => s.Parameters.Speed)).flat(),
      })),
    }));
    // The pit in of the last run creates a run the feed never drives: it must be there, empty.
    const want = runs.at(-1)?.pitInSessionTime !== null ? [...runs, { driver: -1, pitOutSessionTime: null, pitInSessionTime: null, laps: [] }] : runs;
    if (stored.length !== want.length) problems.push(`car ${car}: ${stored.length} runs stored, ${want.length} expected`);
    want.forEach((run, i) => {
      const got = stored[i];
      if (JSON.stringify(got) !== JSON.stringify(run)) problems.push(`car ${car} run ${i}: stored ${JSON.stringify(got)?.slice(0, 300)}, expected ${JSON.stringify(run).slice(0, 300)}`);
    });
  }
  return problems;
}

/** Laps, sectors and speed traps of an expected session, to report what was verified. */
export function counts(expected: ExpectedRun[][]): { runs: number; laps: number; sectors: number; speedTraps: number } {
  const runs = expected.flat();
  const laps = runs.flatMap((r) => r.laps);
  return { runs: runs.length, laps: laps.length, sectors: laps.length * 3, speedTraps: laps.length * 2 };
}
