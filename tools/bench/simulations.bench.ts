// Issue 13: trigger 1,000 setups in one request; time to the answer and until every setup reaches `Processing
// completed`, with the stand-in external system answering at once (no running polls). The entity-service and the
// simulation-service run in-process on the real PostgreSQL with the in-process bus (the component-test stack); the
// request goes on the bus as the gateway would send it. BENCH_SETUPS (default 1000).
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { ENTITY_COMMANDS, EXCHANGES, SERVICES, SIMULATION_COMMANDS, type CallerContext, type EntityJson, type SimulationResults } from '@pitwall/contracts';
import { entityService } from '@pitwall/entity-service';
import { startInProcessStack } from '@pitwall/service-host/testing';
import { simulationService } from '@pitwall/simulation-service';
import { startSimulationStandIn } from '@pitwall/simulation-standin';

const SETUPS = Number(process.env['BENCH_SETUPS'] ?? 1000);

async function main(): Promise<void> {
  const standIn = await startSimulationStandIn({ runningPolls: 0 });
  const stack = await startInProcessStack();
  // Its lz4 worker from the build (npm run bench builds the apps first): this bundle is not beside it.
  await stack.start(entityService, { WORKER_DIR: join(process.cwd(), 'dist', 'apps', 'entity-service') });
  // The egress policy refuses loopback unless named: the stand-in's host:port is.
  await stack.start(simulationService, { SIMULATION_SECRET_KEY: randomBytes(32).toString('base64'), SIMULATION_POLL_INTERVAL_MS: '10', EGRESS_ALLOW: new URL(standIn.url).host });
  const caller: CallerContext = { accountId: randomUUID(), userId: randomUUID(), role: 'admin' };
  const create = (type: string, parentIds: Record<string, string>, p: Record<string, string>) =>
    stack.bus.request<EntityJson>(SERVICES.entity, ENTITY_COMMANDS.create, { caller, type, parentIds, body: { ParameterUpdates: Object.entries(p).map(([Name, Value]) => ({ Name, Value })) } });
  try {
    await create('ParameterDefinitions', {}, { Name: 'SimStatus', EntityType: 'Setups', ParameterType: 'Text' });
    const profile = await create('ExternalSimulationProfiles', {}, { Name: 'bench', BaseUrl: standIn.url, StatusParameterName: 'SimStatus' });
    const championship = await create('Championships', {}, { Name: 'Bench Cup' });
    const event = await create('Events', { championshipId: championship.Id }, { Name: 'Bench' });
    const car = await create('Cars', {}, { Name: 'Car' });
    await create('EventCars', { eventId: event.Id, carId: car.Id }, {});
    const setupIds: string[] = [];
    for (let i = 0; i < SETUPS; i += 50)
      setupIds.push(...(await Promise.all(Array.from({ length: Math.min(50, SETUPS - i) }, (_, k) => create('Setups', { eventId: event.Id, carId: car.Id }, { Name: `S${i + k}` })))).map((s) => s.Id));
    await stack.bus.request(SERVICES.simulation, SIMULATION_COMMANDS.putConnection, { caller, body: { clientId: 'c', clientSecret: 's', username: 'u', password: 'p', baseUrl: standIn.url } });

    const completed = new Set<string>();
    let allDone: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (allDone = resolve));
    await stack.bus.subscribe(EXCHANGES.simulationStatus, `bench-${randomUUID()}`, [`${caller.accountId}.#`], async (e) => {
      const p = e.payload as { setupId: string; status: string };
      if (p.status === 'Processing completed') completed.add(p.setupId);
      if (completed.size === SETUPS) allDone();
    });

    const started = performance.now();
    const answer = await stack.bus.request<SimulationResults>(SERVICES.simulation, SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: profile.Id, setupIds } }, { timeoutMs: 120_000 });
    const answered = performance.now() - started;
    await done;
    const finished = performance.now() - started;
    const accepted = answer.results.filter((r) => r.accepted).length;
    console.log(`setups: ${SETUPS}, accepted: ${accepted}`);
    console.log(`time to the answer: ${answered.toFixed(0)} ms (floor 1000 ms: ${(answered / 1000).toFixed(2)} x the floor)`);
    console.log(`time until all reached Processing completed: ${finished.toFixed(0)} ms (${((SETUPS / finished) * 1000).toFixed(0)} setups/s; ${(finished / answered).toFixed(1)} x the answer time)`);
  } finally {
    await stack.stop();
    await standIn.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
