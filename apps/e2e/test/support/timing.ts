import type { Member } from './distributed';

/** A plain HTTP call through the gateway as a member: status and parsed JSON body (tests look into arbitrary shapes). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Send = (m: Member, method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

/** A session with a track configuration of 3 sectors and 2 speed traps, and `cars` cars entered in its event. */
export interface TimingSession {
  ids: { accountId: string; championshipId: string; eventId: string; sessionId: string };
  cars: string[];
  sectors: string[];
  speedTraps: string[];
  drivers: string[];
}

/** One update of the feed: the endpoint and its body (without the session ids). */
export interface FeedItem {
  path: 'Runs' | 'Laps' | 'Sectors' | 'SpeedTraps';
  body: Record<string, unknown>;
}

async function create(send: Send, m: Member, plural: string, query: string, parameters: Record<string, string> = {}): Promise<string> {
  const res = await send(m, 'POST', `/${plural}${query}`, { ParameterUpdates: Object.entries(parameters).map(([Name, Value]) => ({ Name, Value })) });
  expect(res.status).toBe(201);
  return res.body.Id as string;
}

export async function timingSession(send: Send, m: Member, cars: number): Promise<TimingSession> {
  const track = await create(send, m, 'Tracks', '');
  const configuration = await create(send, m, 'TrackConfigurations', `?trackId=${track}`);
  const sectors = [];
  for (const n of [1, 2, 3]) sectors.push(await create(send, m, 'TrackSectorDefinitions', `?trackConfigurationId=${configuration}`, { Name: `S${n}` }));
  const speedTraps = [];
  for (const n of [1, 2]) speedTraps.push(await create(send, m, 'TrackSpeedTrapDefinitions', `?trackConfigurationId=${configuration}`, { Name: `ST${n}` }));
  const championshipId = await create(send, m, 'Championships', '');
  const eventId = await create(send, m, 'Events', `?championshipId=${championshipId}`);
  const sessionId = await create(send, m, 'Sessions', `?eventId=${eventId}`, { TrackConfigurationId: configuration });
  const carIds = [];
  for (let i = 0; i < cars; i++) {
    const carId = await create(send, m, 'Cars', '', { Number: String(i + 1) });
    await create(send, m, 'EventCars', `?eventId=${eventId}&carId=${carId}`);
    carIds.push(carId);
  }
  const drivers = [await create(send, m, 'Drivers', '', { Name: 'First' }), await create(send, m, 'Drivers', '', { Name: 'Second' })];
  return { ids: { accountId: m.accountId, championshipId, eventId, sessionId }, cars: carIds, sectors, speedTraps, drivers };
}

/**
 * A deterministic feed for one car: `runs` runs of `laps` laps (out lap 0, then 1..laps), each lap with 3 sectors
 * and 2 speed traps, a pit in ending every run but the last (creating the next run, with a driver change).
 */
export function timingFeed(s: TimingSession, car: number, runs: number, laps: number): FeedItem[] {
  const items: FeedItem[] = [];
  for (let run = 0; run < runs; run++) {
    items.push({ path: 'Runs', body: { runIndex: run, driverId: s.drivers[run % 2], pitOutSessionTime: run * 1000 + car } });
    for (let lap = 0; lap <= laps; lap++) {
      const at = { runIndex: run, stintLapNumber: lap };
      s.sectors.forEach((sectorId, i) => items.push({ path: 'Sectors', body: { ...at, sectorId, properties: [{ name: 'SectorTime', value: String(30 + car + run / 10 + lap / 100 + i / 1000) }] } }));
      s.speedTraps.forEach((speedTrapId, i) => items.push({ path: 'SpeedTraps', body: { ...at, speedTrapId, properties: [{ name: 'Speed', value: String(300 + car + lap + i) }] } }));
      items.push({ path: 'Laps', body: { ...at, properties: [{ name: 'LapTime', value: String(90 + car + run + lap / 100) }] } });
    }
    if (run < runs - 1) items.push({ path: 'Runs', body: { runIndex: run, pitInSessionTime: run * 1000 + 900 + car, pitInTime: `2026-04-12T12:${String(10 + run).padStart(2, '0')}:00.000Z`, shouldCreateNextRun: true } });
  }
  return items;
}

/** The query of a car's run sheets with their laps, sectors and speed traps (each nested entity with its Id). */
export function storedTimingPath(s: TimingSession, car: number): string {
  const include = 'Name,DriverId,PitInSessionTime,PitOutSessionTime,Laps.StintLapNumber,Laps.LapTime,Laps.LapSectors.SectorTime,Laps.LapSectors.TrackSectorDefinitionId,Laps.LapSpeedTraps.Speed';
  return `/RunSheets?sessionId=${s.ids.sessionId}&carId=${s.cars[car]}&parametersToInclude=${include}`;
}

/** What the store holds for a car: its runs with their laps, sectors and speed traps, in order. */
export async function storedTiming(send: Send, m: Member, s: TimingSession, car: number) {
  const res = await send(m, 'GET', storedTimingPath(s, car));
  expect(res.status).toBe(200);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return (res.body as any[]).map((run) => ({
    name: run.Parameters.Name,
    driver: run.Parameters.DriverId,
    pitIn: run.Parameters.PitInSessionTime ?? undefined,
    pitOut: run.Parameters.PitOutSessionTime ?? undefined,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    laps: run.Laps.map((lap: any) => ({
      n: lap.Parameters.StintLapNumber,
      time: lap.Parameters.LapTime,
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      sectors: [...lap.LapSectors].sort((a: any, b: any) => s.sectors.indexOf(a.Parameters.TrackSectorDefinitionId) - s.sectors.indexOf(b.Parameters.TrackSectorDefinitionId)).map((x: any) => x.Parameters.SectorTime),
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      traps: lap.LapSpeedTraps.map((x: any) => x.Parameters.Speed).sort(),
    })),
  }));
}

/** What the feed says the store must hold for a car. */
export function expectedTiming(s: TimingSession, car: number, runs: number, laps: number) {
  return Array.from({ length: runs }, (_, run) => ({
    name: `Run ${run + 1}`,
    driver: s.drivers[run % 2],
    pitIn: run < runs - 1 ? run * 1000 + 900 + car : undefined,
    pitOut: run * 1000 + car,
    laps: Array.from({ length: laps + 1 }, (_, lap) => ({
      n: lap,
      time: 90 + car + run + lap / 100,
      sectors: s.sectors.map((_, i) => 30 + car + run / 10 + lap / 100 + i / 1000),
      traps: s.speedTraps.map((_, i) => 300 + car + lap + i).sort(),
    })),
  }));
}
