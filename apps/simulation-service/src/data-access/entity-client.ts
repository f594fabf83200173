import type { Bus } from '@pitwall/bus';
import { ENTITY_COMMANDS, SERVICES, type CallerContext, type EntityJson, type ParameterUpdate } from '@pitwall/contracts';
import { AppError } from '@pitwall/service-kit';

/** The profile's configuration, read from an ExternalSimulationProfile's parameters; absent names are null. */
export interface SimulationProfile {
  id: string;
  baseUrl: string | null;
  statusParameter: string | null;
  messageParameter: string | null;
  studyIdParameter: string | null;
  updateTimeParameter: string | null;
  resultParameters: string[];
}

const textOf = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

export function profileOf(entity: EntityJson): SimulationProfile {
  const p = entity.Parameters;
  return {
    id: entity.Id,
    baseUrl: textOf(p['BaseUrl']),
    statusParameter: textOf(p['StatusParameterName']),
    messageParameter: textOf(p['StatusMessageParameterName']),
    studyIdParameter: textOf(p['StudyIdParameterName']),
    updateTimeParameter: textOf(p['StatusUpdateTimeParameterName']),
    resultParameters: (textOf(p['ResultParameterNames']) ?? '').split(',').map((n) => n.trim()).filter(Boolean),
  };
}

/**
 * Setups and profiles through the entity-service, like every other reader and writer: reads as the caller (so its
 * permissions hold), status writes as the caller given (the simulation-service's own identity in the worker).
 */
export class EntityClient {
  constructor(private readonly bus: Bus) {}

  /** The entity, or null when the caller cannot see it (missing, or another account's). */
  async find(caller: CallerContext, type: 'Setups' | 'ExternalSimulationProfiles', id: string, requestId?: string): Promise<EntityJson | null> {
    try {
      return await this.bus.request<EntityJson>(SERVICES.entity, ENTITY_COMMANDS.get, { caller, type, id }, { headers: requestId ? { requestId } : {} });
    } catch (err) {
      if (err instanceof AppError && err.status === 404) return null;
      throw err;
    }
  }

  async profile(caller: CallerContext, id: string, requestId?: string): Promise<SimulationProfile> {
    const entity = await this.find(caller, 'ExternalSimulationProfiles', id, requestId);
    if (!entity) throw AppError.notFound(`ExternalSimulationProfile ${id} was not found`);
    return profileOf(entity);
  }

  async updateSetup(caller: CallerContext, id: string, updates: ParameterUpdate[], requestId?: string): Promise<void> {
    if (!updates.length) return;
    await this.bus.request(SERVICES.entity, ENTITY_COMMANDS.update, { caller, type: 'Setups', id, body: { ParameterUpdates: updates } }, { headers: requestId ? { requestId } : {} });
  }
}
