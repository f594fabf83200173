import type { Bus } from '@pitwall/bus';
import { ENTITY_COMMANDS, SERVICES, type CallerContext, type EntityJson, type EntityUpdateManyOutcome, type ParameterUpdate } from '@pitwall/contracts';
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

/**
 * The names of the setup parameters a profile writes the status under (no BaseUrl, no credentials): kept on each job
 * from its request, so a job whose profile is deleted before it runs still writes its last status under them.
 */
export type ProfileNames = Pick<SimulationProfile, 'statusParameter' | 'messageParameter' | 'studyIdParameter' | 'updateTimeParameter' | 'resultParameters'>;

export const profileNamesOf = (profile: SimulationProfile): ProfileNames => ({
  statusParameter: profile.statusParameter,
  messageParameter: profile.messageParameter,
  studyIdParameter: profile.studyIdParameter,
  updateTimeParameter: profile.updateTimeParameter,
  resultParameters: [...profile.resultParameters],
});

/** A deleted profile as its names kept on a job: enough to write a status step to the setup, never to call anyone. */
export const profileFromNames = (id: string, names: ProfileNames): SimulationProfile => ({
  id,
  baseUrl: null,
  statusParameter: names.statusParameter ?? null,
  messageParameter: names.messageParameter ?? null,
  studyIdParameter: names.studyIdParameter ?? null,
  updateTimeParameter: names.updateTimeParameter ?? null,
  resultParameters: Array.isArray(names.resultParameters) ? names.resultParameters.filter((name): name is string => typeof name === 'string') : [],
});

/** Setups per getMany / updateMany command (well under the commands' limits). */
const BATCH = 2_000;

const textOf = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/** The profile's parameters that name setup parameters, by the field of SimulationProfile they fill. */
const SETUP_PARAMETER_FIELDS = {
  statusParameter: 'StatusParameterName',
  messageParameter: 'StatusMessageParameterName',
  studyIdParameter: 'StudyIdParameterName',
  updateTimeParameter: 'StatusUpdateTimeParameterName',
} as const;

export function profileOf(entity: EntityJson): SimulationProfile {
  const p = entity.Parameters;
  return {
    id: entity.Id,
    baseUrl: textOf(p['BaseUrl']),
    statusParameter: textOf(p[SETUP_PARAMETER_FIELDS.statusParameter]),
    messageParameter: textOf(p[SETUP_PARAMETER_FIELDS.messageParameter]),
    studyIdParameter: textOf(p[SETUP_PARAMETER_FIELDS.studyIdParameter]),
    updateTimeParameter: textOf(p[SETUP_PARAMETER_FIELDS.updateTimeParameter]),
    resultParameters: (textOf(p['ResultParameterNames']) ?? '').split(',').map((n) => n.trim()).filter(Boolean),
  };
}

/** The profile parameters (`StatusParameterName`, ...) that name the setup parameter `name`, to say which is wrong. */
export function profileParametersNaming(profile: SimulationProfile, name: string): string[] {
  const named = Object.entries(SETUP_PARAMETER_FIELDS).filter(([field]) => profile[field as keyof typeof SETUP_PARAMETER_FIELDS] === name).map(([, parameter]) => parameter);
  return profile.resultParameters.includes(name) ? [...named, 'ResultParameterNames'] : named;
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

  /** The setups among `ids` the caller can read, by id (one command, whatever the number). */
  async findSetups(caller: CallerContext, ids: string[], requestId?: string): Promise<Map<string, EntityJson>> {
    const found = new Map<string, EntityJson>();
    for (let i = 0; i < ids.length; i += BATCH) {
      const entities = await this.bus.request<EntityJson[]>(SERVICES.entity, ENTITY_COMMANDS.getMany, { caller, type: 'Setups', ids: ids.slice(i, i + BATCH) }, { headers: requestId ? { requestId } : {} });
      for (const entity of entities) found.set(entity.Id.toLowerCase(), entity);
    }
    return found;
  }

  /**
   * Parameter updates of many setups in one transaction of the entity-service; each has its own outcome. `deadline`
   * (epoch ms): none is committed past it (the entity-service rolls it back), nor past the bus timeout.
   */
  async updateSetups(caller: CallerContext, items: { id: string; updates: ParameterUpdate[] }[], requestId?: string, deadline?: number): Promise<EntityUpdateManyOutcome[]> {
    const outcomes: EntityUpdateManyOutcome[] = [];
    const wanted = items.filter((item) => item.updates.length);
    for (let i = 0; i < wanted.length; i += BATCH) {
      const chunk = wanted.slice(i, i + BATCH).map((item) => ({ id: item.id, parameterUpdates: item.updates }));
      outcomes.push(...(await this.bus.request<EntityUpdateManyOutcome[]>(SERVICES.entity, ENTITY_COMMANDS.updateMany, { caller, type: 'Setups', items: chunk }, { headers: requestId ? { requestId } : {}, ...(deadline === undefined ? {} : { deadline }) })));
    }
    return outcomes;
  }

  async profile(caller: CallerContext, id: string, requestId?: string): Promise<SimulationProfile> {
    const entity = await this.find(caller, 'ExternalSimulationProfiles', id, requestId);
    if (!entity) throw AppError.notFound(`ExternalSimulationProfile ${id} was not found`);
    return profileOf(entity);
  }

  /** `deadline` (epoch ms): the write is not committed past it (the entity-service rolls it back), nor past the bus timeout. */
  async updateSetup(caller: CallerContext, id: string, updates: ParameterUpdate[], requestId?: string, deadline?: number): Promise<void> {
    if (!updates.length) return;
    await this.bus.request(SERVICES.entity, ENTITY_COMMANDS.update, { caller, type: 'Setups', id, body: { ParameterUpdates: updates } }, { headers: requestId ? { requestId } : {}, ...(deadline === undefined ? {} : { deadline }) });
  }
}
