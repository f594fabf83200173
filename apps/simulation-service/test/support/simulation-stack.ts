import { randomBytes, randomUUID } from 'node:crypto';
import type { BusEvent } from '@pitwall/bus';
import { ENTITY_COMMANDS, EXCHANGES, SERVICES, SIMULATION_COMMANDS, type CallerContext, type EntityJson, type SimulationConnection, type SimulationStatusChanged } from '@pitwall/contracts';
import type { RunningService } from '@pitwall/service-host';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { entityService } from '@pitwall/entity-service';
import { simulationService } from '../../src/definition';
import { startSimulationStandIn, type SimulationStandIn, type StandInOptions } from '@pitwall/simulation-standin';

/** The setup parameters a test profile writes to. */
export const PARAMS = { status: 'SimStatus', message: 'SimMessage', studyId: 'SimStudyId', updated: 'SimUpdated' } as const;
export const RESULT_PARAMS = ['LapTime', 'TopSpeed'] as const;

export interface SimulationStack {
  stack: InProcessStack;
  /** The entity-service, as its running instance: stopped, the simulation-service finds it without one. */
  entity: RunningService;
  standIn: SimulationStandIn;
  /** Every status event published on `simulation.status`, in arrival order. */
  events: SimulationStatusChanged[];
  request<R>(type: string, payload: unknown): Promise<R>;
  stop(): Promise<void>;
}

/**
 * Entity-service and simulation-service in-process on a fresh database, the stand-in external system beside them. The
 * egress policy allows the stand-in's host:port and whatever `env.EGRESS_ALLOW` adds (a test's receivers), no more.
 */
export async function startSimulationStack(standInOptions: StandInOptions = {}, env: NodeJS.ProcessEnv = {}): Promise<SimulationStack> {
  const standIn = await startSimulationStandIn(standInOptions);
  const stack = await startInProcessStack();
  const entity = await stack.start(entityService);
  await stack.start(simulationService, {
    SIMULATION_SECRET_KEY: randomBytes(32).toString('base64'),
    SIMULATION_POLL_INTERVAL_MS: '5',
    SIMULATION_RETRY_BASE_DELAY_MS: '5',
    SIMULATION_RETRY_ATTEMPTS: '3',
    ...env,
    EGRESS_ALLOW: [new URL(standIn.url).host, env['EGRESS_ALLOW']].filter(Boolean).join(','),
  });
  const events: SimulationStatusChanged[] = [];
  await stack.bus.subscribe(EXCHANGES.simulationStatus, `status-watch-${randomUUID()}`, ['#'], async (e: BusEvent) => void events.push(e.payload as SimulationStatusChanged));
  return {
    stack,
    entity,
    standIn,
    events,
    request: (type, payload) => stack.bus.request(SERVICES.simulation, type, payload),
    stop: async () => {
      await stack.stop();
      await standIn.stop();
    },
  };
}

export const callerIn = (accountId: string, role: CallerContext['role'] = 'admin'): CallerContext => ({ accountId, userId: randomUUID(), role });
export const newAccount = (role: CallerContext['role'] = 'admin'): CallerContext => callerIn(randomUUID(), role);

export const connection = (overrides: Partial<SimulationConnection> = {}): SimulationConnection => ({ clientId: `client-${randomUUID().slice(0, 8)}`, clientSecret: 's3cret-value', username: 'engineer@team.example', password: 'correct horse', ...overrides });

export async function create(s: SimulationStack, caller: CallerContext, type: string, parentIds: Record<string, string>, parameters: Record<string, string>): Promise<EntityJson> {
  const ParameterUpdates = Object.entries(parameters).map(([Name, Value]) => ({ Name, Value }));
  return s.stack.bus.request<EntityJson>(SERVICES.entity, ENTITY_COMMANDS.create, { caller, type, parentIds, body: { ParameterUpdates } });
}

/** The account's setup parameter definitions and a profile naming them; `profile` overrides its parameters. */
export async function buildProfile(s: SimulationStack, caller: CallerContext, profile: Record<string, string | null> = {}): Promise<string> {
  const existing = await s.stack.bus.request<EntityJson[]>(SERVICES.entity, ENTITY_COMMANDS.list, { caller, type: 'ParameterDefinitions', parentIds: {} });
  if (!existing.length) {
    for (const name of Object.values(PARAMS)) await create(s, caller, 'ParameterDefinitions', {}, { Name: name, EntityType: 'Setups', ParameterType: 'Text' });
    for (const name of RESULT_PARAMS) await create(s, caller, 'ParameterDefinitions', {}, { Name: name, EntityType: 'Setups', ParameterType: 'Double' });
  }
  const parameters: Record<string, string | null> = {
    Name: 'Lap sim',
    BaseUrl: s.standIn.url,
    StatusParameterName: PARAMS.status,
    StatusMessageParameterName: PARAMS.message,
    StudyIdParameterName: PARAMS.studyId,
    StatusUpdateTimeParameterName: PARAMS.updated,
    ResultParameterNames: RESULT_PARAMS.join(','),
    ...profile,
  };
  const set = Object.fromEntries(Object.entries(parameters).filter((e): e is [string, string] => e[1] !== null));
  return (await create(s, caller, 'ExternalSimulationProfiles', {}, set)).Id;
}

/** A fresh connected account's setup triggered with a profile of the stand-in: the Trigger accepted it. */
export async function triggerOne(s: SimulationStack, setupParameters: Record<string, string> = {}): Promise<{ caller: CallerContext; profileId: string; setupId: string }> {
  const caller = newAccount();
  await connect(s, caller);
  const profileId = await buildProfile(s, caller);
  const setupId = await buildSetup(s, caller, setupParameters);
  const answer = await s.request<{ results: { accepted: boolean }[] }>(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: profileId, setupIds: [setupId] } });
  if (answer.results[0]?.accepted !== true) throw new Error(`the Trigger did not accept the setup: ${JSON.stringify(answer)}`);
  return { caller, profileId, setupId };
}

/** A car entered in an event of a new championship of the caller's account: the parents a setup needs. */
export async function enteredCar(s: SimulationStack, caller: CallerContext, carName = `Car ${randomUUID().slice(0, 4)}`): Promise<{ eventId: string; carId: string }> {
  const championship = await create(s, caller, 'Championships', {}, { Name: 'Endurance Cup' });
  const event = await create(s, caller, 'Events', { championshipId: championship.Id }, { Name: 'Spa 6h' });
  const car = await create(s, caller, 'Cars', {}, { Name: carName });
  await create(s, caller, 'EventCars', { eventId: event.Id, carId: car.Id }, {});
  return { eventId: event.Id, carId: car.Id };
}

/** A setup of a car entered in an event of the caller's account. */
export async function buildSetup(s: SimulationStack, caller: CallerContext, parameters: Record<string, string> = {}): Promise<string> {
  const parents = await enteredCar(s, caller);
  return (await create(s, caller, 'Setups', parents, { Name: `Setup ${randomUUID().slice(0, 6)}`, ...parameters })).Id;
}

export async function readSetup(s: SimulationStack, caller: CallerContext, id: string): Promise<Record<string, unknown>> {
  return (await s.stack.bus.request<EntityJson>(SERVICES.entity, ENTITY_COMMANDS.get, { caller, type: 'Setups', id })).Parameters;
}

/** The account connected to the stand-in: credentials bound to its origin. */
export async function connect(s: SimulationStack, caller: CallerContext, overrides: Partial<SimulationConnection> = {}): Promise<SimulationConnection> {
  const body = connection({ baseUrl: s.standIn.url, ...overrides });
  await s.request(SIMULATION_COMMANDS.putConnection, { caller: { ...caller, role: 'admin' }, body });
  return body;
}

/** The statuses a simulation ends with. */
export const FINAL_STATUS = /^(Processing completed|Simulation failed|Simulation start failed)$/;

/** A connected account's setup (its own profile) simulated on the stand-in until its last status event; its id. */
export async function simulateToEnd(s: SimulationStack, caller: CallerContext): Promise<string> {
  await connect(s, caller);
  const profileId = await buildProfile(s, caller);
  const setupId = await buildSetup(s, caller);
  await s.request(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: profileId, setupIds: [setupId] } });
  await waitFor(() => s.events.find((e) => e.setupId === setupId && FINAL_STATUS.test(e.status)), 'the last status event');
  return setupId;
}

export async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, ms = 20000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
