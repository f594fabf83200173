import type { Pool } from 'pg';
import type { Outbox } from '@pitwall/messaging';
import type { FieldErrors } from '@pitwall/service-kit';
import type { CallerContext, CreateModel, EntityChangedEvent, SearchBody, UpdateModel } from '@pitwall/contracts';
import { createEntity } from './create-entity';
import { deleteEntity } from './delete-entity';
import { getEntity } from './get-entity';
import { listEntities } from './list-entities';
import { ReadCache, type RenderedReply } from './read-cache';
import { searchEntities } from './search-entities';
import type { StoreContext } from './store-context';
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
    /** Removes blobs no attached file refers to any more (the blob store's side of a delete). */
    releaseBlobs: (keys: string[]) => Promise<void> = async () => undefined,
  ) {
    this.ctx = { pool, outbox, cache, eventHeaders, releaseBlobs };
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

  create(caller: CallerContext, typeName: string, parentIds: Record<string, string>, body: CreateModel, bindingErrors?: FieldErrors): Promise<RenderedReply> {
    return createEntity(this.ctx, caller, typeName, parentIds, body, bindingErrors);
  }

  update(caller: CallerContext, typeName: string, id: string, body: UpdateModel, bindingErrors?: FieldErrors): Promise<RenderedReply> {
    return updateEntity(this.ctx, caller, typeName, id, body, bindingErrors);
  }

  delete(caller: CallerContext, typeName: string, id: string): Promise<void> {
    return deleteEntity(this.ctx, caller, typeName, id);
  }
}
