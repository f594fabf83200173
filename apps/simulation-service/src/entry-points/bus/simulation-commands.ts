import type { RequestHandler } from '@pitwall/bus';
import { SERVICES, SIMULATION_COMMANDS } from '@pitwall/contracts';
import type { Egress } from '@pitwall/egress';
import { dispatchCommands } from '@pitwall/service-host';
import type { CallbackRepository } from '../../data-access/callback-repository';
import type { EntityClient } from '../../data-access/entity-client';
import type { SimulationRepository } from '../../data-access/simulation-repository';
import { deleteCallback, listCallbacks, registerCallback } from '../../domain/callbacks';
import { putConnection } from '../../domain/put-connection';
import { readSimulationStatus } from '../../domain/read-simulation-status';
import { requestSimulations, type RequestDependencies } from '../../domain/request-simulations';
import type { SecretBox } from '../../domain/secret-box';

export interface SimulationCommandParts extends RequestDependencies {
  egress: Egress;
  entities: EntityClient;
  repository: SimulationRepository;
  secrets: SecretBox;
  callbacks: CallbackRepository;
}

/** Thin bus entry point: one handler per command the operation table routes to the simulation service. */
export function simulationCommands(parts: SimulationCommandParts): RequestHandler {
  const bus = (request: { headers: { requestId?: string }; deadline?: number }) => ({ headers: request.headers, ...(request.deadline === undefined ? {} : { deadline: request.deadline }), ...(request.headers.requestId ? { requestId: request.headers.requestId } : {}) });
  return dispatchCommands(SERVICES.simulation, {
    [SIMULATION_COMMANDS.trigger]: (m, request) => requestSimulations(parts, m.caller, { kind: 'trigger', body: m.body }, bus(request)),
    [SIMULATION_COMMANDS.reprocess]: (m, request) => requestSimulations(parts, m.caller, { kind: 'reprocess', body: m.body }, bus(request)),
    [SIMULATION_COMMANDS.status]: (m, request) => readSimulationStatus(parts.entities, m.caller, m.externalProfileId, m.setupIds, request.headers.requestId),
    [SIMULATION_COMMANDS.putConnection]: (m, request) => putConnection(parts, m.caller, m.body, bus(request)),
    [SIMULATION_COMMANDS.registerCallback]: (m, request) => registerCallback(parts, m.caller, m.body, bus(request)),
    [SIMULATION_COMMANDS.listCallbacks]: (m) => listCallbacks(parts, m.caller),
    [SIMULATION_COMMANDS.deleteCallback]: (m, request) => deleteCallback(parts, m.caller, m.id, bus(request)),
  });
}
