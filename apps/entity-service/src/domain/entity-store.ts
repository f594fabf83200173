import type { Pool } from 'pg';
import type { Outbox } from '@pitwall/messaging';
import type { FieldErrors } from '@pitwall/service-kit';
import type { CallerContext, CreateModel, EntityUpdateMany, EntityChangedEvent, SearchBody, TimingLevel, TimingUpdate, UpdateModel, DatasetFile, DatasetConstantsJson, DatasetSectorsJson } from '@pitwall/contracts';
import { applyTimingBatch } from './timing/apply-timing-batch';
import { applyTimingUpdate } from './timing/apply-timing-update';
import type { TimingBatchItem, TimingBatchOutcome } from './timing/timing-batch';
import { attachmentDataset } from './attachment-dataset';
import { datasetConstants } from './dataset-constants';
import { datasetSectors } from './dataset-sectors';
import { createEntity, type CreateOptions } from './create-entity';
import { deleteEntity } from './delete-entity';
import { getEntities, updateEntities } from './entity-batches';
import { getEntity } from './get-entity';
import { listEntities } from './list-entities';
import { mirrorMembers } from './mirror-members';
import { ReadCache, type RenderedReply } from './read-cache';
import { searchEntities } from './search-entities';
import type { StoreContext } from './store-context';

/** What a store may add to its writes: the inbox and the command being handled, a test-only hook. */
/** The write path's options: the command inbox and deadline, test holds, and the blob store's side of a delete. */
export type WriteOptions = Pick<StoreContext, 'inbox' | 'currentCommand' | 'beforeCommit' | 'afterCommit' | 'ruleLimits' | 'maxReadEntities' | 'maxReadBytes' | 'maxCopyEntities' | 'maxDeleteEntities' | 'maxReplyBytes'> & Partial<Pick<StoreContext, 'releaseBlobs'>>;
import { updateEntity } from './update-entity';

export type { RenderedReply };

/**
 * The entity store's use cases, one file each (get-entity.ts, list-entities.ts, …), behind the commands' entry point.
 * Every operation is scoped to the caller's account: an entity of another account is reported exactly like a missing
 * one (404). A write's events go into the outbox in its transaction and are published after its commit.
 */
export class EntityStore {
  private readonly ctx: StoreContext;

  constructor(
    pool: Pool,
    outbox: Outbox<EntityChangedEvent>,
    cache: ReadCache = new ReadCache(0),
    /** Headers for the events of the command being handled (its request id). */
    eventHeaders: () => Record<string, string> = () => ({}),
    writeOptions: WriteOptions = {},
  ) {
    this.ctx = { pool, outbox, cache, eventHeaders, releaseBlobs: async () => undefined, ...writeOptions };
  }

  /** Applies a membership snapshot of the auth outbox to the account's (read-only) Users entities. */
  mirrorMembers(payload: unknown): Promise<{ applied: boolean }> {
    return mirrorMembers(this.ctx, payload);
  }

  get(caller: CallerContext, typeName: string, id: string, include?: string[]): Promise<RenderedReply> {
    return getEntity(this.ctx, caller, typeName, id, include);
  }

  list(caller: CallerContext, typeName: string, parentIds: Record<string, string>, include?: string[], filterIds?: Record<string, string>): Promise<RenderedReply> {
    return listEntities(this.ctx, caller, typeName, parentIds, include, filterIds);
  }

  search(caller: CallerContext, typeName: string, body: SearchBody, include?: string[]): Promise<RenderedReply> {
    return searchEntities(this.ctx, caller, typeName, body, include);
  }

  create(caller: CallerContext, typeName: string, parentIds: Record<string, string>, body: CreateModel, bindingErrors?: FieldErrors, options: CreateOptions = {}): Promise<RenderedReply> {
    return createEntity(this.ctx, caller, typeName, parentIds, body, bindingErrors, options);
  }

  update(caller: CallerContext, typeName: string, id: string, body: UpdateModel, bindingErrors?: FieldErrors): Promise<RenderedReply> {
    return updateEntity(this.ctx, caller, typeName, id, body, bindingErrors);
  }

  /** Many entities of one type by id (the readable ones), for a service that checks many at once. */
  getMany(caller: CallerContext, typeName: string, ids: string[]): Promise<RenderedReply> {
    return getEntities(this.ctx, caller, typeName, ids);
  }

  /** Parameter updates of many entities of one type in one transaction, each with its own outcome. */
  updateMany(caller: CallerContext, typeName: string, items: EntityUpdateMany['items']): Promise<RenderedReply> {
    return updateEntities(this.ctx, caller, typeName, items);
  }

  attachmentDataset(caller: CallerContext, typeName: string, id: string, group: string): Promise<DatasetFile[]> {
    return attachmentDataset(this.ctx, caller, typeName, id, group);
  }

  datasetSectors(caller: CallerContext, typeName: string, id: string): Promise<DatasetSectorsJson> {
    return datasetSectors(this.ctx, caller, typeName, id);
  }

  /** Those of `names` a dataset's entity, the Setup it names and its Car hold as numbers, for a math channel's param(). */
  datasetConstants(caller: CallerContext, typeName: string, id: string, names: readonly string[]): Promise<DatasetConstantsJson> {
    return datasetConstants(this.ctx, caller, typeName, id, names);
  }

  delete(caller: CallerContext, typeName: string, id: string): Promise<void> {
    return deleteEntity(this.ctx, caller, typeName, id);
  }

  /** Consecutive timing updates of one partition in one transaction, each with its own outcome (apply-timing-batch.ts). */
  applyTimingBatch(items: readonly TimingBatchItem[]): Promise<TimingBatchOutcome[]> {
    return applyTimingBatch(this.ctx, items);
  }

  /** A timing update by index (docs/timing.md): every level it touches, in one transaction. */
  applyTimingUpdate(caller: CallerContext, level: TimingLevel, body: TimingUpdate): Promise<RenderedReply> {
    return applyTimingUpdate(this.ctx, caller, level, body);
  }
}
