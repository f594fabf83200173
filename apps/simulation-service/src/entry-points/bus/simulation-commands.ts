import type { RequestHandler } from '@pitwall/bus';
import { SERVICES, SIMULATION_COMMANDS } from '@pitwall/contracts';
import { dispatchCommands } from '@pitwall/service-host';
import type { EntityClient } from '../../data-access/entity-client';
import type { SimulationRepository } from '../../data-access/simulation-repository';
import { putConnection } from '../../domain/put-connection';
import { readSimulationStatus } from '../../domain/read-simulation-status';
import { requestSimulations, type RequestDependencies } from '../../domain/request-simulations';
import type { SecretBox } from '../../domain/secret-box';

export interface SimulationCommandParts extends RequestDependencies {
  entities: EntityClient;
  repository: SimulationRepository;
  secrets: SecretBox;
}

/** Thin bus entry point: one handler per command the operation table routes to the simulation service. */
export function simulationCommands(parts: SimulationCommandParts): RequestHandler {
  return dispatchCommands(SERVICES.simulation, {
    [SIMULATION_COMMANDS.trigger]: (m, request) => requestSimulations(parts, m.caller, { kind: 'trigger', body: m.body }, request.headers.requestId),
    [SIMULATION_COMMANDS.reprocess]: (m, request) => requestSimulations(parts, m.caller, { kind: 'reprocess', body: m.body }, request.headers.requestId),
    [SIMULATION_COMMANDS.status]: (m, request) => readSimulationStatus(parts.entities, m.caller, m.externalProfileId, m.setupIds, request.headers.requestId),
    [SIMULATION_COMMANDS.putConnection]: (m) => putConnection(parts.repository, parts.secrets, m.caller, m.body),
  });
}
