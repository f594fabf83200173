import type { CallerContext, EntityJson, SimulationStatusResult } from '@pitwall/contracts';
import type { EntityClient } from '../data-access/entity-client';

const text = (value: unknown): string | null => (value === undefined || value === null || value === '' ? null : String(value));

/**
 * The status of each setup, read as the caller from the parameters the profile names: a setup the caller cannot
 * read is `setupFound: false`; a profile without a status parameter gives `status: null` with the reason.
 */
export async function readSimulationStatus(entities: EntityClient, caller: CallerContext, profileId: string, setupIds: readonly string[], requestId?: string): Promise<{ results: SimulationStatusResult[] }> {
  const profile = await entities.profile(caller, profileId, requestId);
  const setups = await entities.findSetups(caller, [...new Set(setupIds.map((id) => id.toLowerCase()))], requestId);
  const results = setupIds.map((rawId): SimulationStatusResult => {
    const setupId = rawId.toLowerCase();
    const setup: EntityJson | undefined = setups.get(setupId);
    if (!setup) return { setupId, setupFound: false, status: null, message: 'Setup not found', studyId: null, lastUpdateTime: null };
    const p = setup.Parameters;
    const studyId = profile.studyIdParameter ? text(p[profile.studyIdParameter]) : null;
    const lastUpdateTime = profile.updateTimeParameter ? text(p[profile.updateTimeParameter]) : null;
    if (!profile.statusParameter) return { setupId, setupFound: true, status: null, message: 'The simulation profile configures no status parameter', studyId, lastUpdateTime };
    return { setupId, setupFound: true, status: text(p[profile.statusParameter]), message: profile.messageParameter ? text(p[profile.messageParameter]) : null, studyId, lastUpdateTime };
  });
  return { results };
}
