import { z } from 'zod';
import { entitySchemaOf } from './entity-schemas';
import { accountHeader, defineOperation, jsonResponse, toBus, type BusTarget, type Operation } from './operation-model';
import { TIMING_COMMANDS, timingPartitionKey, TimingLapUpdate, TimingRunUpdate, TimingSectorUpdate, TimingSpeedTrapUpdate, timingUpdateOf, type TimingLevel } from './timing';

/** An update goes to the timing-service partition of its (session, car): one car's updates stay in order. */
function timingTarget(type: TimingLevel): BusTarget<typeof TIMING_COMMANDS.update> {
  return { ...toBus(TIMING_COMMANDS.update, (r) => ({ type, body: timingUpdateOf(r.body as TimingRunUpdate) })), orderingKey: (m) => timingPartitionKey(m.body) };
}

/** The timing integration: one update by index per call, answered by the timing-service (docs/timing.md). */
function timingOperation(plural: string, type: TimingLevel, body: z.ZodType, bodyType: string, creates: string): Operation {
  const entityName = type.slice(0, -1);
  return defineOperation({
    operationId: `UpdateTiming${plural.slice(0, -1)}`,
    method: 'put',
    path: `/TimingIntegration/${plural}`,
    tags: [type, 'TimingIntegration'],
    summary: `Update a ${entityName} by index (creates ${creates} on demand)`,
    permission: 'write',
    nonMember: 'not-found',
    headers: accountHeader,
    query: z.object({}),
    body,
    unknownBodyProperties: 'reject',
    response: jsonResponse(200, entitySchemaOf(type), `The updated ${entityName}`),
    target: timingTarget(type),
    client: [{ name: `updateTiming${plural.slice(0, -1)}`, body: { name: 'update', type: bodyType }, returns: 'EntityJson' }],
  });
}

export const TIMING_OPERATIONS: Operation[] = [
  timingOperation('Runs', 'RunSheets', TimingRunUpdate, 'TimingRunUpdate', 'the run'),
  timingOperation('Laps', 'Laps', TimingLapUpdate, 'TimingLapUpdate', 'the run and the lap'),
  timingOperation('Sectors', 'LapSectors', TimingSectorUpdate, 'TimingSectorUpdate', 'the run, the lap and the sector'),
  timingOperation('SpeedTraps', 'LapSpeedTraps', TimingSpeedTrapUpdate, 'TimingSpeedTrapUpdate', 'the run, the lap and the speed trap'),
];
