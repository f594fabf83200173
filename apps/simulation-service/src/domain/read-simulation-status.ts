import type { CallerContext, EntityJson, SimulationStatusResult } from '@pitwall/contracts';
import type { EntityClient } from '../data-access/entity-client';

const text = (value: unknown): string | null => (value === undefined || value === null || value === '' ? null : String(value));

/**
 * The setup's parameter a profile names, matched in any case as the entity store matches parameter names on write;
 * undefined when Setups has no parameter of that name (a read renders every parameter a type has, unset ones as null).
 */
function parameterKey(parameters: Record<string, unknown>, name: string): string | undefined {
  if (Object.hasOwn(parameters, name)) return name;
  const lower = name.toLowerCase();
  return Object.keys(parameters).find((key) => key.toLowerCase() === lower);
}

const valueOf = (parameters: Record<string, unknown>, name: string | null): string | null => {
  const key = name === null ? undefined : parameterKey(parameters, name);
  return key === undefined ? null : text(parameters[key]);
};

/**
 * The status of each setup, read as the caller from the parameters the profile names: a setup the caller cannot
 * read is `setupFound: false`; a profile without a status parameter, or naming one Setups does not have, gives
 * `status: null` with the reason.
 */
export async function readSimulationStatus(entities: EntityClient, caller: CallerContext, profileId: string, setupIds: readonly string[], requestId?: string): Promise<{ results: SimulationStatusResult[] }> {
  const profile = await entities.profile(caller, profileId, requestId);
  const setups = await entities.findSetups(caller, [...new Set(setupIds.map((id) => id.toLowerCase()))], requestId);
  const results = setupIds.map((rawId): SimulationStatusResult => {
    const setupId = rawId.toLowerCase();
    const setup: EntityJson | undefined = setups.get(setupId);
    if (!setup) return { setupId, setupFound: false, status: null, message: 'Setup not found', studyId: null, lastUpdateTime: null };
    const p = setup.Parameters;
    const studyId = valueOf(p, profile.studyIdParameter);
    const lastUpdateTime = valueOf(p, profile.updateTimeParameter);
    if (!profile.statusParameter) return { setupId, setupFound: true, status: null, message: 'The simulation profile configures no status parameter', studyId, lastUpdateTime };
    const statusKey = parameterKey(p, profile.statusParameter);
    if (statusKey === undefined) {
      return { setupId, setupFound: true, status: null, message: `The simulation profile's StatusParameterName names '${profile.statusParameter}', but Setups has no parameter named '${profile.statusParameter}'`, studyId, lastUpdateTime };
    }
    return { setupId, setupFound: true, status: text(p[statusKey]), message: valueOf(p, profile.messageParameter), studyId, lastUpdateTime };
  });
  return { results };
}
