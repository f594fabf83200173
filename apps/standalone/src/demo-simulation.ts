import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PitwallClient } from '@pitwall/client';
import type { Logger } from '@pitwall/service-kit';
import { startSimulationStandIn, type SimulationStandIn } from '@pitwall/simulation-standin';

/** What the demo account gets to try external simulations on: a profile pointing at the stand-in and a setup. */
export interface DemoSimulation {
  standInUrl: string;
  profileId: string;
  setupId: string;
}

const PROFILE_NAME = 'Demo lap simulation';
const STATUS = { status: 'SimulationStatus', message: 'SimulationMessage', studyId: 'SimulationStudyId', updated: 'SimulationUpdated' } as const;
const RESULTS = ['LapTime', 'TopSpeed'] as const;

/**
 * The embedded default's external simulation system: the stand-in (apps/simulation-standin) in this process. It takes
 * one set of credentials, made afresh at each start and given to the demo account's connection alone: the egress
 * allowance for its address holds for every account, but no other account can log in to it (a connection's secret is
 * never answered back).
 */
export const startDemoStandIn = (port: number): Promise<SimulationStandIn> =>
  startSimulationStandIn({ scenario: 'success', runningPolls: 3, credentials: { clientId: 'demo', clientSecret: randomBytes(24).toString('base64url'), username: 'demo', password: randomBytes(24).toString('base64url') } }, port);

/**
 * EGRESS_ALLOW for `npm start`: what the operator set, plus the stand-in's own host:port and nothing else of
 * loopback, so the demo runs while every other private address stays refused.
 */
export const egressAllowance = (configured: string | undefined, standIn: { url: string } | undefined): string => [configured?.trim(), standIn ? new URL(standIn.url).host : undefined].filter(Boolean).join(',');

/**
 * The demo account set up to use the stand-in through the public API (its connection, bound to the stand-in's
 * origin, the setup parameters, a profile naming them, and a setup to simulate). The ids are kept in `stateFile`; on a
 * later start the connection and the profile are pointed at the stand-in's new address.
 */
export async function startDemoSimulation(options: { baseUrl: string; apiKey: string; accountId: string; stateFile: string; standIn: SimulationStandIn; logger: Logger }): Promise<DemoSimulation> {
  const { standIn } = options;
  const client = new PitwallClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, accountId: options.accountId });
  const ok = <T>(what: string, result: { statusCode: number; returnValue?: T | null }): T => {
    if (result.statusCode >= 300 || result.returnValue === undefined || result.returnValue === null) throw new Error(`demo simulation: ${what} answered ${result.statusCode}`);
    return result.returnValue;
  };
  const credentials = standIn.options.credentials;
  if (!credentials) throw new Error('demo simulation: the stand-in takes any credentials; the demo starts it with its own');
  await client.putExternalSimulationConnection({ ...credentials, baseUrl: standIn.url });

  const kept = existsSync(options.stateFile) ? (JSON.parse(readFileSync(options.stateFile, 'utf8')) as { profileId: string; setupId: string }) : undefined;
  if (kept && (await client.getExternalSimulationProfileById(kept.profileId)).statusCode === 200) {
    ok('pointing the profile at the stand-in', await client.updateExternalSimulationProfile(kept.profileId, { ParameterUpdates: [{ Name: 'BaseUrl', Value: standIn.url }] }));
    return { standInUrl: standIn.url, ...kept };
  }

  const defined = new Set(ok('listing parameter definitions', await client.getAllParameterDefinitions()).map((d) => String(d.Parameters['Name'])));
  const definitions: [string, string][] = [...Object.values(STATUS).map((n): [string, string] => [n, 'Text']), ...RESULTS.map((n): [string, string] => [n, 'Double'])];
  for (const [name, type] of definitions) {
    if (!defined.has(name)) ok(`defining ${name}`, await client.addParameterDefinition({ ParameterUpdates: [{ Name: 'Name', Value: name }, { Name: 'EntityType', Value: 'Setups' }, { Name: 'ParameterType', Value: type }] }));
  }
  const profile = ok(
    'creating the profile',
    await client.addExternalSimulationProfile({
      ParameterUpdates: [
        { Name: 'Name', Value: PROFILE_NAME },
        { Name: 'BaseUrl', Value: standIn.url },
        { Name: 'StatusParameterName', Value: STATUS.status },
        { Name: 'StatusMessageParameterName', Value: STATUS.message },
        { Name: 'StudyIdParameterName', Value: STATUS.studyId },
        { Name: 'StatusUpdateTimeParameterName', Value: STATUS.updated },
        { Name: 'ResultParameterNames', Value: RESULTS.join(',') },
      ],
    }),
  );
  const championship = ok('creating a championship', await client.addChampionship({ ParameterUpdates: [{ Name: 'Name', Value: 'Demo simulation cup' }] }));
  const event = ok('creating an event', await client.addEvent(championship.Id, { ParameterUpdates: [{ Name: 'Name', Value: 'Spa-Francorchamps' }] }));
  const car = ok('creating a car', await client.addCar({ ParameterUpdates: [{ Name: 'Name', Value: 'Demo car 7' }] }));
  ok('entering the car', await client.addEventCar(event.Id, car.Id, {}));
  const setup = ok('creating a setup', await client.addSetup(event.Id, car.Id, { ParameterUpdates: [{ Name: 'Name', Value: 'Qualifying trim' }] }));
  const state = { profileId: profile.Id, setupId: setup.Id };
  writeFileSync(options.stateFile, `${JSON.stringify(state)}\n`);
  return { standInUrl: standIn.url, ...state };
}

/**
 * `npm start`: sets the demo simulation up on the stand-in (unless none runs or the demo has no key) and returns the
 * lines the first-request text prints about it; a failure is logged and leaves the rest running.
 */
export async function demoSimulationLines(options: { base: string; apiKey: string | null; accountId: string; dataDir: string; standIn: SimulationStandIn | undefined; logger: Logger }): Promise<string[]> {
  if (!options.standIn || !options.apiKey) return [];
  try {
    const demo = await startDemoSimulation({ baseUrl: options.base, apiKey: options.apiKey, accountId: options.accountId, stateFile: join(options.dataDir, 'demo-simulation.json'), standIn: options.standIn, logger: options.logger });
    const headers = `-H 'ApiKey: ${options.apiKey}' -H 'AccountId: ${options.accountId}'`;
    return [
      `External simulations (stand-in system on ${demo.standInUrl}): trigger the demo setup, then read its status:`,
      `  curl -s -X POST ${options.base}/ExternalSimulations/Trigger ${headers} -H 'Content-Type: application/json' -d '{"externalProfileId":"${demo.profileId}","setupIds":["${demo.setupId}"]}'`,
      `  curl -s '${options.base}/ExternalSimulations/Status?externalProfileId=${demo.profileId}&setupIds=${demo.setupId}' ${headers}`,
    ];
  } catch (err) {
    options.logger.warn({ err: err instanceof Error ? err.message : err }, 'the demo external simulation system did not start; the rest runs without it');
    return [];
  }
}
