import { MAX_SECTORS, type CallerContext, type DatasetSectorsJson } from '@pitwall/contracts';
import { entityRepository } from '../data-access/entity-repository';
import { knownType, notFound } from './entity-type';
import type { StoreContext } from './store-context';

/** The registry's parent key that holds a dataset's entity under its Session (RunSheets, SessionCarDatas). */
const SESSION_PARENT = 'Sessions';
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The sectors of the track a dataset's entity ran on, for the lap statistics read: its Session's TrackConfiguration
 * and that configuration's TrackSectorDefinitions in their order (the first MAX_SECTORS). An entity the caller cannot see is a 404; one under
 * no session (a Setup), a session naming no track configuration, or one naming a configuration the account does not
 * have, answers no configuration and no sectors.
 */
export async function datasetSectors(ctx: StoreContext, caller: CallerContext, typeName: string, id: string): Promise<DatasetSectorsJson> {
  const type = knownType(typeName);
  const row = await entityRepository.findById(ctx.pool, caller.accountId, type.plural, id);
  if (!row) throw notFound(type, id);
  const none: DatasetSectorsJson = { trackConfigurationId: null, sectors: [] };
  const at = type.parents.findIndex((p) => p.type === SESSION_PARENT);
  const sessionId = at === 0 ? row.parent_id : at === 1 ? row.parent2_id : null;
  if (!sessionId) return none;
  const session = await entityRepository.findById(ctx.pool, caller.accountId, SESSION_PARENT, sessionId);
  const configurationId = session?.parameters['TrackConfigurationId'];
  if (typeof configurationId !== 'string' || !GUID.test(configurationId)) return none;
  const configuration = await entityRepository.findById(ctx.pool, caller.accountId, 'TrackConfigurations', configurationId.toLowerCase());
  if (!configuration) return none;
  const definitions = await entityRepository.list(ctx.pool, caller.accountId, 'TrackSectorDefinitions', { parent_id: configuration.id });
  return {
    trackConfigurationId: configuration.id,
    // The first MAX_SECTORS in their order, as many as a lap statistics request may name itself.
    sectors: definitions.slice(0, MAX_SECTORS).map((d) => ({
      id: d.id,
      name: typeof d.parameters['Name'] === 'string' ? d.parameters['Name'] : null,
      startDistance: typeof d.parameters['StartDistance'] === 'number' && Number.isFinite(d.parameters['StartDistance']) ? d.parameters['StartDistance'] : null,
    })),
  };
}
