import type { CallerContext, EntityJson, SimulationStatusResult } from '@pitwall/contracts';
import type { EntityClient } from '../data-access/entity-client';
import { mapLimited } from './map-limited';

const text = (value: unknown): string | null => (value === undefined || value === null || value === '' ? null : String(value));

/**
 * The status of each setup, read as the caller from the parameters the profile names: a setup the caller cannot
 * read is `setupFound: false`; a profile without a status parameter gives `status: null` with the reason.
 */
export async function readSimulationStatus(entities: EntityClient, caller: CallerContext, profileId: string, setupIds: readonly string[], requestId?: string): Promise<{ results: SimulationStatusResult[] }> {
  const profile = await entities.profile(caller, profileId, requestId);
  const results = await mapLimited(setupIds, 32, async (rawId): Promise<SimulationStatusResult> => {
    const setupId = rawId.toLowerCase();
    const setup: EntityJson | null = await entities.find(caller, 'Setups', setupId, requestId);
    if (!setup) return { setupId, setupFound: false, status: null, message: 'Setup not found', studyId: null, lastUpdateTime: null };
    const p = setup.Parameters;
    const studyId = profile.studyIdParameter ? text(p[profile.studyIdParameter]) : null;
    const lastUpdateTime = profile.updateTimeParameter ? text(p[profile.updateTimeParameter]) : null;
    if (!profile.statusParameter) return { setupId, setupFound: true, status: null, message: 'The simulation profile configures no status parameter', studyId, lastUpdateTime };
    return { setupId, setupFound: true, status: text(p[profile.statusParameter]), message: profile.messageParameter ? text(p[profile.messageParameter]) : null, studyId, lastUpdateTime };
  });
  return { results };
}
