import { z } from 'zod';
import type { CommandInput, CommandName } from './commands';
import { accountHeader, emptyResponse, idParam, jsonResponse, toBus, withDefaults, type ClientMethod, type Operation, type OperationSpecWith } from './operation-model';
import { MAX_SIMULATION_SETUPS, ReprocessSimulationBody, SIMULATION_COMMANDS, SimulationCallbackCreated, SimulationCallbackRegistration, SimulationCallbacks, SimulationConnection, SimulationResults, SimulationStatusResults, TriggerSimulationBody } from './simulation';
import { atMostItems } from './request-limits';
import { Guid } from './wire';

/** External simulations (service-api.md): account-wide, so a non-member is refused (403); answered by the simulation-service. */
const AREA = { tags: ['ExternalSimulations'], nonMember: 'forbidden', headers: accountHeader } as const;
const withAreaDefaults = withDefaults(AREA);

/** An operation of the area as it is declared: its path below `/ExternalSimulations`, its one client method without the name. */
type SimulationOperationSpec = Omit<OperationSpecWith<typeof AREA>, 'path' | 'client'> & { path: `/${string}`; client: Omit<ClientMethod, 'name'> };

/** The area's declarer: the path under `/ExternalSimulations`, the client method named after the operationId (`GetX`: `getX`). */
function operation({ path, client, ...spec }: SimulationOperationSpec): Operation {
  const name = spec.operationId.charAt(0).toLowerCase() + spec.operationId.slice(1);
  return withAreaDefaults({ ...spec, path: `/ExternalSimulations${path}`, client: [{ name, ...client }] });
}

/** The commands whose message (beside the caller) is the request's body alone. */
type BodyCommand = { [N in CommandName]: CommandInput<N> extends { body: unknown } ? ([keyof CommandInput<N>] extends ['body'] ? N : never) : never }[CommandName];
/** The bus target of a body command: its message is the body the gateway validated against the operation's `body`. */
const bodyTarget = <N extends BodyCommand>(name: N) => toBus(name, (r) => ({ body: r.body }) as CommandInput<N>);

const PROFILE_NOT_FOUND = { 404: 'The simulation profile does not exist in the account' };

export const SIMULATION_OPERATIONS: Operation[] = [
  operation({
    operationId: 'TriggerExternalSimulations',
    method: 'post',
    path: '/Trigger',
    summary: 'Validate each setup and queue a new external simulation for the accepted ones',
    permission: 'write',
    body: TriggerSimulationBody,
    response: jsonResponse(200, SimulationResults, 'One result per setup: accepted, or why not'),
    errors: PROFILE_NOT_FOUND,
    target: bodyTarget(SIMULATION_COMMANDS.trigger),
    client: { body: { name: 'request', type: 'TriggerSimulationBody' }, returns: 'SimulationResults' },
  }),
  operation({
    operationId: 'ReprocessExternalSimulations',
    method: 'post',
    path: '/Reprocess',
    summary: "Reprocess the results of already-run simulations (the study ID read from each setup's parameter) without re-running them",
    permission: 'write',
    body: ReprocessSimulationBody,
    response: jsonResponse(200, SimulationResults, 'One result per setup with the resolved studyId'),
    errors: PROFILE_NOT_FOUND,
    target: bodyTarget(SIMULATION_COMMANDS.reprocess),
    client: { body: { name: 'request', type: 'ReprocessSimulationBody' }, returns: 'SimulationResults' },
  }),
  operation({
    operationId: 'GetExternalSimulationStatus',
    method: 'get',
    path: '/Status',
    summary: "The simulation status of setups, read from the parameters the profile names (setupIds once per setup)",
    permission: 'read',
    query: z.object({ externalProfileId: Guid, setupIds: z.array(Guid).min(1).max(MAX_SIMULATION_SETUPS, atMostItems('MAX_SIMULATION_SETUPS')).meta({ description: 'Repeat once per setup' }) }),
    repeatedQuery: ['setupIds'],
    response: jsonResponse(200, SimulationStatusResults, 'One status entry per setup'),
    errors: PROFILE_NOT_FOUND,
    target: toBus(SIMULATION_COMMANDS.status, (r) => ({ externalProfileId: r.query['externalProfileId'] as string, setupIds: r.queryLists?.['setupIds'] ?? [] })),
    client: { query: ['externalProfileId', 'setupIds'], returns: 'SimulationStatusResults' },
  }),
  operation({
    operationId: 'PutExternalSimulationConnection',
    method: 'put',
    path: '/Connection',
    summary: "Create or replace the account's connection to the external simulation system (stored encrypted, never returned)",
    permission: 'admin',
    body: SimulationConnection,
    response: emptyResponse(204, 'Stored'),
    target: bodyTarget(SIMULATION_COMMANDS.putConnection),
    client: { body: { name: 'connection', type: 'SimulationConnection' }, returns: 'null' },
  }),
  operation({
    operationId: 'RegisterExternalSimulationCallback',
    method: 'post',
    path: '/Callbacks',
    summary: "Register an HTTP callback for the account's simulation status changes (signed per Standard Webhooks; the secret is in this answer only)",
    permission: 'admin',
    body: SimulationCallbackRegistration,
    response: jsonResponse(201, SimulationCallbackCreated, 'The callback with its signing secret (shown once)'),
    errors: { 409: 'The account already holds MAX_SIMULATION_CALLBACKS callbacks (20 by default; a simulation-service variable), the most it may: delete one first' },
    target: bodyTarget(SIMULATION_COMMANDS.registerCallback),
    client: { body: { name: 'callback', type: 'SimulationCallbackRegistration' }, returns: 'SimulationCallbackCreated' },
  }),
  operation({
    operationId: 'GetExternalSimulationCallbacks',
    method: 'get',
    path: '/Callbacks',
    summary: "The account's callbacks (no secrets), with their deliveries by state and their recent failures",
    permission: 'admin',
    response: jsonResponse(200, SimulationCallbacks, 'The callbacks'),
    target: toBus(SIMULATION_COMMANDS.listCallbacks, () => ({})),
    client: { returns: 'SimulationCallbacks' },
  }),
  operation({
    operationId: 'DeleteExternalSimulationCallback',
    method: 'delete',
    path: '/Callbacks/{id}',
    summary: 'Delete a callback; its pending deliveries are dropped',
    permission: 'admin',
    params: idParam,
    response: emptyResponse(204, 'Deleted'),
    errors: { 404: 'The callback does not exist in the account' },
    target: toBus(SIMULATION_COMMANDS.deleteCallback, (r) => ({ id: r.params['id'] as string })),
    client: { returns: 'null' },
  }),
];
