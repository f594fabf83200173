import type { Pool } from 'pg';
import type { Piscina } from 'piscina';
import { withTransaction } from '@pitwall/db';
import type { BlobStore, UrlSigner } from '@pitwall/blob-store';
import { BLOB_URL_PATH, type AttachmentAvailableEvent, type AttachmentDeletedEvent, type CallerContext, type EntityTypeDef } from '@pitwall/contracts';
import { checkDeadline, type Inbox, type Outbox, type ReplyCodec } from '@pitwall/messaging';
import type { Logger } from '@pitwall/service-kit';
import { AppError } from '@pitwall/service-kit';
import { attachedFileRepository as files, type AttachedFileRecord } from '../../data-access/attached-file-repository';
import type { Queryable } from '@pitwall/db';
import { cacheVersionRepository } from '../../data-access/cache-version-repository';
import { entityRepository } from '../../data-access/entity-repository';
import { knownType, notFound } from '../entity-type';
import type { ReadCache } from '../read-cache';
import { renderAttachedFile } from '../read-model';
import type { CurrentCommand } from '../store-context';

/** What the attachment use cases run on: the records' database, the bytes' store and the URL signer. */
export interface AttachmentContext {
  pool: Pool;
  outbox: Outbox<AttachmentAvailableEvent | AttachmentDeletedEvent>;
  cache: ReadCache;
  blobs: BlobStore;
  signer: UrlSigner;
  /** Lifetime of the signed URLs handed out, in seconds. */
  urlTtlSeconds: number;
  maxUploadBytes: number;
  /** LZ4_MAX_DECOMPRESSED_BYTES and LZ4_MAX_RATIO: how far a compressed upload may decompress (checked at finalise). */
  lz4: { maxBytes: number; maxRatio: number };
  /** Where that check runs (the service's `lz4` pool, its worker `lz4.worker.entry`), the bytes fed from here; none: on this thread (some tests). */
  lz4Pool?: Pick<Piscina, 'run'>;
  /**
   * One per thread of `lz4Pool`, taken before the bytes are opened: a check waiting for a thread holds no open stream
   * (an S3 body opened for the promotion and not read would be cut by S3_TIMEOUT_MS).
   */
  lz4Slots?: Slots;
  /** Base of the gateway's absolute URLs (`https://pitwall.example`). */
  publicBaseUrl: string;
  logger: Logger;
  /** Where each attachment command is recorded with its reply, in its write's transaction (the entity writes' inbox). */
  inbox?: Inbox;
  /** The command being handled (its id, request hash and deadline, from its bus headers). */
  currentCommand?: () => CurrentCommand;
  /** Headers for the events of the command being handled (its request id, docs/events.md). */
  eventHeaders?: () => Record<string, string>;
}

/**
 * An attachment write's transaction, as every entity write's: with an inbox the command is recorded with the reply
 * `codec` makes of its result, so a redelivered or repeated command answers that reply and runs nothing (`ran` is
 * then false: what the write does after its commit must not be done again); the account's version is bumped (cached
 * reads end) and the deadline checked just before the commit (unless `commitPastDeadline`: a write that a repeat
 * answers from its own result, as a finalise's state 2, may commit after its caller was told the outcome is unknown).
 */
export async function attachmentWrite<T>(ctx: AttachmentContext, accountId: string, codec: ReplyCodec<T>, fn: (q: Queryable) => Promise<T>, options: { commitPastDeadline?: boolean } = {}): Promise<{ result: T; ran: boolean }> {
  const current = ctx.currentCommand?.() ?? {};
  let ran = false;
  const result = await withTransaction(ctx.pool, async (c) => {
    const run = async (): Promise<T> => {
      ran = true;
      const result = await fn(c);
      await cacheVersionRepository.bumpAccountVersion(c, accountId);
      if (!options.commitPastDeadline) checkDeadline(current.deadline);
      return result;
    };
    return ctx.inbox ? ctx.inbox.once(c, current.command?.(accountId), codec, run) : run();
  });
  return { result, ran };
}

/** A reply recorded as its JSON (an attachment command's reply is plain JSON, or nothing). */
export function jsonReplyCodec<T>(): ReplyCodec<T> {
  return {
    encode: (result) => ({ body: result === null || result === undefined ? null : Buffer.from(JSON.stringify(result)), headers: {} }),
    decode: ({ body }) => (body ? JSON.parse(body.toString('utf8')) : null) as T,
  };
}

/** A record as an update answers it, before its download URL is signed: what the inbox records for a replay. */
export interface RecordReply {
  listing: Record<string, unknown>;
  /** The key of its bytes once available (the download URL is signed afresh for each answer). */
  availableKey: string | null;
}

export function recordReply(f: AttachedFileRecord): RecordReply {
  return { listing: renderAttachedFile(f, null), availableKey: f.state === 2 && f.blob_key ? f.blob_key : null };
}

/** The answer of a record: its listing and a freshly signed download URL once its bytes are available. */
export async function signedListing(ctx: AttachmentContext, reply: RecordReply): Promise<Record<string, unknown>> {
  const id = reply.listing['Id'] as string;
  // A store's own URL answers as a download of the file's name, as the gateway's does (never a page shown inline).
  const downloadName = (reply.listing['Parameters'] as { FileName?: unknown } | undefined)?.FileName;
  if (typeof downloadName !== 'string') throw new Error(`attached file ${id} was rendered without its FileName`);
  const signedUrl = reply.availableKey ? ((await ctx.blobs.presignGet(reply.availableKey, ctx.urlTtlSeconds, { downloadName })) ?? gatewayUrl(ctx, 'GET', id)) : null;
  return { ...reply.listing, SignedURL: signedUrl };
}

/** The type of a command, which must have attachments; an unknown type, or one without, is a 404. */
export function attachmentType(plural: string): EntityTypeDef {
  const type = knownType(plural);
  if (!type.features.attachments) throw AppError.notFound(`${type.plural} have no attached files`);
  return type;
}

/** The owning entity, in the caller's account (another account's entity is not there: 404). */
export async function owningEntity(q: Queryable, caller: CallerContext, type: EntityTypeDef, id: string): Promise<void> {
  if (!(await entityRepository.findById(q, caller.accountId, type.plural, id))) throw notFound(type, id);
}

export async function findRecord(q: Queryable, caller: CallerContext, type: EntityTypeDef, entityId: string, attachedFileId: string, forUpdate = false): Promise<AttachedFileRecord> {
  await owningEntity(q, caller, type, entityId);
  const record = await files.find(q, caller.accountId, entityId, attachedFileId, forUpdate);
  if (!record) throw AppError.notFound(`Attached file ${attachedFileId} of ${type.name} ${entityId} was not found`);
  return record;
}

/** An absolute signed URL of the gateway for one method on a record's bytes. */
export function gatewayUrl(ctx: AttachmentContext, method: 'GET' | 'PUT', attachedFileId: string): string {
  const path = `${BLOB_URL_PATH}/${attachedFileId}`;
  const expires = Math.floor(Date.now() / 1000) + ctx.urlTtlSeconds;
  return `${ctx.publicBaseUrl.replace(/\/+$/, '')}${path}?${ctx.signer.query({ method, path, attachedFileId, expires })}`;
}

/** The record as listings show it: Id, Parameters (wire.md §4 `AttachedFiles.*`) and a download URL once available. */
export async function renderListing(ctx: AttachmentContext, f: AttachedFileRecord): Promise<Record<string, unknown>> {
  // The record as every read renders it (AttachedFiles.*), plus where to download its bytes.
  return signedListing(ctx, recordReply(f));
}

/**
 * Removes each blob no attached file refers to any more. Runs after the commit that dropped the references; the
 * advisory lock keeps a concurrent upload of the same bytes from recording its reference between the count and the
 * removal. A failure is logged: the blob stays, unreferenced, and is removed when its key is released again.
 */
export async function releaseBlobs(ctx: Pick<AttachmentContext, 'pool' | 'blobs' | 'logger'>, keys: readonly string[]): Promise<void> {
  for (const key of new Set(keys)) {
    try {
      await withTransaction(ctx.pool, async (c) => {
        await files.lockBlob(c, key);
        if (!(await files.isReferenced(c, key))) await ctx.blobs.delete(key);
      });
    } catch (err) {
      ctx.logger.warn({ err, blobKey: key }, 'could not release a blob');
    }
  }
}

/** At most `size` holders at once; the others wait their turn, in order. */
export class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  async use<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}
