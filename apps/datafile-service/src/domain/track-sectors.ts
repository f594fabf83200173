import { ATTACHMENT_COMMANDS, MAX_SECTORS, SERVICES, type DatasetSectorsJson } from '@pitwall/contracts';
import type { Bus } from '@pitwall/bus';
import type { DatasetRef } from './datasets';

/**
 * The sector start distances of the track a dataset's entity ran on (its Session's TrackConfiguration's
 * TrackSectorDefinitions), asked of the entity-service over the bus as the caller, like the dataset's files: for a
 * lap statistics read that gives no sectorStartDistances. Not kept: each such read asks again (one indexed lookup),
 * so an edited definition applies to the next read with no invalidation.
 */
export class TrackSectors {
  constructor(private readonly bus: Bus) {}

  /** Ascending distinct start distances (m) of the definitions that have one, 0 or more; empty when the track has none. */
  async startDistances(ref: DatasetRef, requestId?: string): Promise<number[]> {
    const message = { caller: ref.caller, type: ref.type, id: ref.id };
    const answer = await this.bus.request<DatasetSectorsJson>(SERVICES.entity, ATTACHMENT_COMMANDS.datasetSectors, message, requestId ? { headers: { requestId } } : {});
    const distances = answer.sectors.map((s) => s.startDistance).filter((d): d is number => d !== null && Number.isFinite(d) && d >= 0);
    // No more than a request may name itself (MAX_SECTORS), whatever the entity-service answered.
    return [...new Set(distances)].sort((a, b) => a - b).slice(0, MAX_SECTORS);
  }
}
