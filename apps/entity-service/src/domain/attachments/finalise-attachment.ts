import { randomUUID } from 'node:crypto';
import { BlobNotFoundError, BlobTooLargeError, READ_THROUGH_CHUNK_BYTES, type StoredBlob } from '@pitwall/blob-store';
import type { z } from 'zod';
import { ATTACHMENT_AVAILABLE_ROUTING_KEY, ATTACHED_FILE_STATE, AttachedFileGroupName, AttachedFileName, safeParseReporting, type CallerContext, type EntityTypeDef, type UpdateModel } from '@pitwall/contracts';
import type { PublishAfterCommit, ReplyCodec } from '@pitwall/messaging';
import { runFed } from '@pitwall/bus';
import { Lz4FrameError, validateLz4Frames, type Lz4Limits } from '@pitwall/formats';
import { AppError, type FieldErrors } from '@pitwall/service-kit';
import { attachedFileRepository as files, type AttachedFileRecord } from '../../data-access/attached-file-repository';
import { assertWriter } from '../entity-type';
import type { Lz4CheckResult, Lz4CheckTask } from '../../lz4.worker.entry';
import { attachmentType, attachmentWrite, findRecord, jsonReplyCodec, recordReply, releaseBlobs, signedListing, type AttachmentContext, type RecordReply } from './attachment-context';

/** What an attached file update may set: the state (to 2, finalising), the file name and the group name. */
interface AttachmentChanges {
  state?: number;
  fileName?: string;
  groupName?: string | null;
}

const SERVER_SET = new Set(['filesize', 'usecompression', 'createdtime']);

function changesOf(body: UpdateModel): AttachmentChanges {
  const errors: FieldErrors = {};
  const changes: AttachmentChanges = {};
  if (body.CollectionUpdateModels && Object.keys(body.CollectionUpdateModels).length) errors['CollectionUpdateModels'] = ['an attached file has no collections'];
  (body.ParameterUpdates ?? []).forEach((u, i) => {
    const name = u.Name.toLowerCase();
    const at = `ParameterUpdates[${i}].Value`;
    if (name === 'serverattachedfilestate') {
      if (u.Value === null || !/^\s*[0-2]\s*$/.test(u.Value)) errors[at] = ['ServerAttachedFileState is 0, 1 or 2'];
      else if (Number(u.Value) < ATTACHED_FILE_STATE.availableOnServer) errors[at] = ['may only be set to 2 (AvailableOnServer); 0 and 1 follow from the upload'];
      else changes.state = Number(u.Value);
    } else if (name === 'filename') {
      // The rules of the upload's own FileName and AttachedFileGroupName: a name the upload could not give, an update
      // cannot either (a group of 300 characters would hold files no data file read can name).
      if (!u.Value) errors[at] = ['FileName is required'];
      else if (keeps(at, AttachedFileName, u.Value)) changes.fileName = u.Value;
    } else if (name === 'attachedfilegroupname') {
      // An empty group is no group, as at the upload.
      if (!u.Value) changes.groupName = null;
      else if (keeps(at, AttachedFileGroupName, u.Value)) changes.groupName = u.Value;
    }
    else if (SERVER_SET.has(name)) errors[`ParameterUpdates[${i}].Name`] = [`${u.Name} is set by the server`];
    else errors[`ParameterUpdates[${i}].Name`] = [`unknown parameter ${u.Name}`];
  });
  /** Whether `value` keeps `rule`; if not, its reasons go under `at`. */
  function keeps(at: string, rule: z.ZodType, value: string): boolean {
    const checked = safeParseReporting(rule, value);
    if (!checked.success) errors[at] = checked.error.issues.map((issue) => issue.message);
    return checked.success;
  }
  if (Object.keys(errors).length) throw AppError.badRequest('The attached file update is not valid', errors);
  return changes;
}

/**
 * `PUT /{Plural}/{id}/Attachments/{attachedFileId}`. Setting ServerAttachedFileState to 2 checks the bytes first
 * (they are there; with UseCompression they are one valid LZ4 frame, read through from the store) and refuses with
 * 409 otherwise, leaving the state below 2. On success `attachment.available` leaves through the outbox, and with
 * IfSingleOverwriteExisting the files available under the same custom property are replaced (finalises of one
 * custom name take turns; uploads still in progress stay).
 */
export async function finaliseAttachment(ctx: AttachmentContext, caller: CallerContext, typeName: string, entityId: string, attachedFileId: string, body: UpdateModel): Promise<Record<string, unknown>> {
  const type = attachmentType(typeName);
  assertWriter(caller);
  const changes = changesOf(body);
  let record = await findRecord(ctx.pool, caller, type, entityId, attachedFileId);
  const limit = body.LastModifiedTimeMaxAllowedValue;
  const checkNotModified = (): void => {
    if (limit && record.modified_at.getTime() > Date.parse(limit)) throw AppError.conflict(`Attached file ${attachedFileId} was modified at ${record.modified_at.toISOString()}, after LastModifiedTimeMaxAllowedValue`);
  };
  const fileName = changes.fileName ?? record.file_name;
  const groupName = changes.groupName === undefined ? record.group_name : changes.groupName;

  const codec = jsonReplyCodec<RecordReply>();
  if (changes.state === ATTACHED_FILE_STATE.availableOnServer && record.state !== ATTACHED_FILE_STATE.availableOnServer) {
    checkNotModified();
    const lease = await takeFinaliseLease(ctx, record.id);
    try {
      // Read again under the lease: a finalise that held it before may have made the record available meanwhile.
      record = await findRecord(ctx.pool, caller, type, entityId, attachedFileId);
      if (record.state !== ATTACHED_FILE_STATE.availableOnServer) return await finaliseChecked(ctx, caller, type, entityId, record, fileName, groupName, codec);
    } finally {
      await lease.end();
    }
  }
  // Names only, or a redelivered or repeated command: it answers the recorded record (its URL signed afresh).
  const current = record;
  const { result } = await attachmentWrite(ctx, caller.accountId, codec, async (c) => {
    // Checked in the write, after the inbox: a repeat of this very command moved the modified time on.
    checkNotModified();
    await files.updateNames(c, current.id, fileName, groupName);
    return recordReply({ ...current, file_name: fileName, group_name: groupName });
  });
  return signedListing(ctx, result);
}

/**
 * The bytes checked, then the record made available in one transaction. The check (an LZ4 read-through, an S3
 * snapshot) can take longer than the bus timeout for a file of gigabytes: the transaction then commits past the
 * command's deadline (its caller was answered 504 outcome-unknown), so the work is not thrown away, and a retry
 * answers the available record; meanwhile the lease sends retries a 503.
 */
async function finaliseChecked(ctx: AttachmentContext, caller: CallerContext, type: EntityTypeDef, entityId: string, record: AttachedFileRecord, fileName: string, groupName: string | null, codec: ReplyCodec<RecordReply>): Promise<Record<string, unknown>> {
  const attachedFileId = record.id;
  const blob = await checkedBytes(ctx, record);
  let replaced: string[] = [];
  let publish: PublishAfterCommit = async () => undefined;
  const promoted = record.blob_key !== blob.key;
  const replacing = record.replace_existing && record.custom_file_name ? record.custom_file_name : null;
  const { result } = await attachmentWrite(ctx, caller.accountId, codec, async (c) => {
    // The custom name first, then the blob: always in that order (files.lockCustomName).
    if (replacing) await files.lockCustomName(c, entityId, replacing);
    await files.lockBlob(c, blob.key);
    // Under the lock the sweep of unreferenced blobs takes too: content it removed meanwhile (past its grace age)
    // is not referred to; the staged bytes are still there, so a retry promotes them again.
    if (promoted && !(await ctx.blobs.exists(blob.key))) throw new AppError(503, `The stored bytes of attached file ${attachedFileId} were removed while it was finalised; retry`, { retryAfterSeconds: 1 });
    if (replacing) await files.lockSameCustomName(c, entityId, replacing, record.id);
    if (!(await files.markAvailable(c, record.id, record, blob, fileName, groupName))) throw AppError.conflict(`Attached file ${attachedFileId} changed while it was finalised; read it and try again`);
    replaced = replacing ? await files.deleteSameCustomName(c, entityId, replacing, record.id) : [];
    publish = await ctx.outbox.add(c, [available(type, record, blob, groupName, ctx.eventHeaders?.() ?? {})]);
    return recordReply({ ...record, state: 2, blob_key: blob.key, blob_sha256: blob.sha256, file_size: String(blob.size), file_name: fileName, group_name: groupName });
  }, { commitPastDeadline: true }).catch(async (err: unknown) => {
    // Bytes promoted from staging (S3) that no record took are released again (or, the store being down, swept later).
    if (promoted) await releaseBlobs(ctx, [blob.key]);
    throw err;
  });
  ctx.outbox.detach(publish);
  // The staged bytes were kept until the record referred to their content; left behind, the sweep removes them.
  if (promoted) await ctx.blobs.delete(ctx.blobs.stagingKey(record.id)).catch((err: unknown) => ctx.logger.warn({ err, attachedFileId }, 'could not remove staged bytes'));
  await releaseBlobs(ctx, replaced);
  return signedListing(ctx, result);
}

/** How long a finalise's lease lasts without renewal (a finalise whose process died holds it at most this long). */
const FINALISE_LEASE_MS = 30_000;
/** How often a running finalise renews its lease. */
const FINALISE_LEASE_RENEW_MS = 10_000;

/**
 * The record's finalise lease, renewed until `end` (which gives it up): one finalise at a time checks a record's
 * bytes, on any replica. Held by another, the request is a 503 whose Retry-After is the time left on that lease
 * (at most FINALISE_LEASE_RENEW_MS), so a client that retries the 504 of a long finalise learns its outcome
 * without starting the same check again beside it.
 */
async function takeFinaliseLease(ctx: AttachmentContext, attachedFileId: string): Promise<{ end: () => Promise<void> }> {
  const token = randomUUID();
  const { taken, heldUntil } = await files.takeFinaliseLease(ctx.pool, attachedFileId, token, FINALISE_LEASE_MS);
  if (!taken) {
    if (!heldUntil) throw AppError.conflict(`Attached file ${attachedFileId} changed while it was finalised; read it and try again`);
    const waitSeconds = Math.min(FINALISE_LEASE_RENEW_MS / 1000, Math.max(1, Math.ceil((heldUntil.getTime() - Date.now()) / 1000)));
    throw AppError.busy(`Attached file ${attachedFileId} is being finalised by another request (its bytes are being checked); retry to learn its outcome`, waitSeconds);
  }
  const renewal = setInterval(() => {
    files.renewFinaliseLease(ctx.pool, attachedFileId, token, FINALISE_LEASE_MS).catch((err: unknown) => ctx.logger.warn({ err, attachedFileId }, 'could not renew the finalise lease'));
  }, FINALISE_LEASE_RENEW_MS);
  renewal.unref();
  return {
    end: async () => {
      clearInterval(renewal);
      // Left held (the database unreachable), it ends by itself after FINALISE_LEASE_MS.
      await files.endFinaliseLease(ctx.pool, attachedFileId, token).catch((err: unknown) => ctx.logger.warn({ err, attachedFileId }, 'could not end the finalise lease'));
    },
  };
}

/** The record's bytes, proved present (and a valid LZ4 frame when compressed); a staged S3 upload is promoted. */
async function checkedBytes(ctx: AttachmentContext, record: AttachedFileRecord): Promise<StoredBlob> {
  // A check of LZ4 frames takes a thread of the pool before the bytes are opened.
  if (record.use_compression && ctx.lz4Slots) return ctx.lz4Slots.use(() => bytesChecked(ctx, record));
  return bytesChecked(ctx, record);
}

async function bytesChecked(ctx: AttachmentContext, record: AttachedFileRecord): Promise<StoredBlob> {
  // The frame is decompressed (and counted) without keeping its output: past the LZ4 bounds it is refused here, before
  // a reader would write it out. The ratio needs the compressed size, known here for bytes already in the store.
  const inspect = record.use_compression ? (bytes: AsyncIterable<Uint8Array>, compressedSize: number) => checkLz4(ctx, bytes, { ...ctx.lz4, compressedSize }) : undefined;
  try {
    if (record.state === ATTACHED_FILE_STATE.uploading && record.blob_key && record.blob_sha256) {
      const stat = await ctx.blobs.stat(record.blob_key);
      if (!stat) throw AppError.conflict(`The uploaded bytes of attached file ${record.id} are missing from the store; upload them again`);
      // One sequential read-through: large chunks (a 200 MB frame checks markedly faster; docs/benchmarks.md).
      if (inspect) await inspect(await ctx.blobs.openRead(record.blob_key, { chunkBytes: READ_THROUGH_CHUNK_BYTES }), stat.size);
      return { key: record.blob_key, sha256: record.blob_sha256, size: stat.size };
    }
    if (ctx.blobs.kind === 's3') return await ctx.blobs.promoteStaged(ctx.blobs.stagingKey(record.id), { maxBytes: ctx.maxUploadBytes, keepStaged: true, ...(inspect ? { inspect } : {}) });
  } catch (err) {
    if (err instanceof Lz4FrameError && err.code === 'TOO_LARGE') {
      const bound = err.limit === 'maxRatio' ? 'LZ4_MAX_RATIO times the upload\'s size' : 'LZ4_MAX_DECOMPRESSED_BYTES';
      throw AppError.conflict(`The upload would decompress too far (UseCompression is set): ${err.reason} (${bound}); it was not made available`);
    }
    if (err instanceof Lz4FrameError) throw AppError.conflict(`The upload is not a valid LZ4 frame (UseCompression is set): ${err.reason} at byte ${err.offset}`);
    if (err instanceof BlobNotFoundError) throw AppError.conflict(`No bytes were uploaded for attached file ${record.id}`);
    if (err instanceof BlobTooLargeError) throw new AppError(413, `The upload is larger than the limit of ${ctx.maxUploadBytes} bytes (MAX_UPLOAD_BYTES); it was discarded`);
    throw err;
  }
  throw AppError.conflict(`No bytes were uploaded for attached file ${record.id}`);
}

/**
 * The frames checked on the service's pool (the bytes fed to its task over a port), else on this thread. The failure
 * thrown is the first cause: the store's (its bytes could not be read), else the stream's (an Lz4FrameError).
 */
async function checkLz4(ctx: AttachmentContext, bytes: AsyncIterable<Uint8Array>, limits: Lz4Limits): Promise<void> {
  if (!ctx.lz4Pool) {
    await validateLz4Frames(bytes, limits);
    return;
  }
  const pool = ctx.lz4Pool;
  const result = await runFed((port) => pool.run({ port, limits } satisfies Lz4CheckTask, { transferList: [port] }) as Promise<Lz4CheckResult>, () => bytes);
  if ('refused' in result) throw Lz4FrameError.from(result.refused);
}

function available(type: EntityTypeDef, record: AttachedFileRecord, blob: StoredBlob, groupName: string | null, headers: Record<string, string>) {
  return {
    routingKey: ATTACHMENT_AVAILABLE_ROUTING_KEY,
    payload: {
      accountId: record.account_id,
      entityType: type.name,
      entityId: record.entity_id,
      attachedFileId: record.id,
      attachedFileGroupName: groupName,
      blobSha256: blob.sha256,
      size: blob.size,
      occurredAt: new Date().toISOString(),
    },
    headers,
  };
}
