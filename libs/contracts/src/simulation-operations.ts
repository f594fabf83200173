import { z } from 'zod';
import { accountHeader, emptyResponse, idParam, jsonResponse, toBus, withDefaults, type Operation } from './operation-model';
import { ReprocessSimulationBody, SIMULATION_COMMANDS, SimulationCallbackCreated, SimulationCallbackRegistration, SimulationCallbacks, SimulationConnection, SimulationResults, SimulationStatusResults, TriggerSimulationBody } from './simulation';
import { Guid } from './wire';

/** External simulations (service-api.md): account-wide, so a non-member is refused (403); answered by the simulation-service. */
const operation = withDefaults({ tags: ['ExternalSimulations'], nonMember: 'forbidden', headers: accountHeader });
const PROFILE_NOT_FOUND = { 404: 'The simulation profile does not exist in the account' };

export const SIMULATION_OPERATIONS: Operation[] = [
  operation({
    operationId: 'TriggerExternalSimulations',
    method: 'post',
    path: '/ExternalSimulations/Trigger',
    summary: 'Validate each setup and queue a new external simulation for the accepted ones',
    permission: 'write',
    body: TriggerSimulationBody,
    response: jsonResponse(200, SimulationResults, 'One result per setup: accepted, or why not'),
    errors: PROFILE_NOT_FOUND,
    target: toBus(SIMULATION_COMMANDS.trigger, (r) => ({ body: r.body as TriggerSimulationBody })),
    client: [{ name: 'triggerExternalSimulations', body: { name: 'request', type: 'TriggerSimulationBody' }, returns: 'SimulationResults' }],
  }),
  operation({
    operationId: 'ReprocessExternalSimulations',
    method: 'post',
    path: '/ExternalSimulations/Reprocess',
    summary: "Reprocess the results of already-run simulations (the study ID read from each setup's parameter) without re-running them",
    permission: 'write',
    body: ReprocessSimulationBody,
    response: jsonResponse(200, SimulationResults, 'One result per setup with the resolved studyId'),
    errors: PROFILE_NOT_FOUND,
    target: toBus(SIMULATION_COMMANDS.reprocess, (r) => ({ body: r.body as ReprocessSimulationBody })),
    client: [{ name: 'reprocessExternalSimulations', body: { name: 'request', type: 'ReprocessSimulationBody' }, returns: 'SimulationResults' }],
  }),
  operation({
    operationId: 'GetExternalSimulationStatus',
    method: 'get',
    path: '/ExternalSimulations/Status',
    summary: "The simulation status of setups, read from the parameters the profile names (setupIds once per setup)",
    permission: 'read',
    query: z.object({ externalProfileId: Guid, setupIds: z.array(Guid).min(1).meta({ description: 'Repeat once per setup' }) }),
    repeatedQuery: ['setupIds'],
    response: jsonResponse(200, SimulationStatusResults, 'One status entry per setup'),
    errors: PROFILE_NOT_FOUND,
    target: toBus(SIMULATION_COMMANDS.status, (r) => ({ externalProfileId: r.query['externalProfileId'] as string, setupIds: r.queryLists?.['setupIds'] ?? [] })),
    client: [{ name: 'getExternalSimulationStatus', query: ['externalProfileId', 'setupIds'], returns: 'SimulationStatusResults' }],
  }),
  operation({
    operationId: 'PutExternalSimulationConnection',
    method: 'put',
    path: '/ExternalSimulations/Connection',
    summary: "Create or replace the account's connection to the external simulation system (stored encrypted, never returned)",
    permission: 'admin',
    body: SimulationConnection,
    response: emptyResponse(204, 'Stored'),
    target: toBus(SIMULATION_COMMANDS.putConnection, (r) => ({ body: r.body as SimulationConnection })),
    client: [{ name: 'putExternalSimulationConnection', body: { name: 'connection', type: 'SimulationConnection' }, returns: 'null' }],
  }),
  operation({
    operationId: 'RegisterExternalSimulationCallback',
    method: 'post',
    path: '/ExternalSimulations/Callbacks',
    summary: "Register an HTTP callback for the account's simulation status changes (signed per Standard Webhooks; the secret is in this answer only)",
    permission: 'admin',
    body: SimulationCallbackRegistration,
    response: jsonResponse(201, SimulationCallbackCreated, 'The callback with its signing secret (shown once)'),
    target: toBus(SIMULATION_COMMANDS.registerCallback, (r) => ({ body: r.body as SimulationCallbackRegistration })),
    client: [{ name: 'registerExternalSimulationCallback', body: { name: 'callback', type: 'SimulationCallbackRegistration' }, returns: 'SimulationCallbackCreated' }],
  }),
  operation({
    operationId: 'GetExternalSimulationCallbacks',
    method: 'get',
    path: '/ExternalSimulations/Callbacks',
    summary: "The account's callbacks (no secrets), with their deliveries by state and their recent failures",
    permission: 'admin',
    response: jsonResponse(200, SimulationCallbacks, 'The callbacks'),
    target: toBus(SIMULATION_COMMANDS.listCallbacks, () => ({})),
    client: [{ name: 'getExternalSimulationCallbacks', returns: 'SimulationCallbacks' }],
  }),
  operation({
    operationId: 'DeleteExternalSimulationCallback',
    method: 'delete',
    path: '/ExternalSimulations/Callbacks/{id}',
    summary: 'Delete a callback; its pending deliveries are dropped',
    permission: 'admin',
    params: idParam,
    response: emptyResponse(204, 'Deleted'),
    errors: { 404: 'The callback does not exist in the account' },
    target: toBus(SIMULATION_COMMANDS.deleteCallback, (r) => ({ id: r.params['id'] as string })),
    client: [{ name: 'deleteExternalSimulationCallback', returns: 'null' }],
  }),
];
