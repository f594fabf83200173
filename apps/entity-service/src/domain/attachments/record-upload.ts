import type { DownloadTarget, UploadTarget } from '@pitwall/contracts';
import { ATTACHED_FILE_STATE } from '@pitwall/contracts';
import { AppError } from '@pitwall/service-kit';
import { attachedFileRepository as files } from '../../data-access/attached-file-repository';
import { attachmentWrite, jsonReplyCodec, releaseBlobs, type AttachmentContext } from './attachment-context';

const USED = 'This upload URL was already used: an attached file takes its bytes once';

/** Before the gateway reads a signed PUT's body: the record must still be waiting for its bytes (state 0). */
export async function uploadTarget(ctx: AttachmentContext, attachedFileId: string): Promise<UploadTarget> {
  const record = await files.findById(ctx.pool, attachedFileId);
  if (!record) throw AppError.notFound(`Attached file ${attachedFileId} was not found`);
  if (record.state !== ATTACHED_FILE_STATE.pending) throw AppError.forbidden(USED);
  return { attachedFileId };
}

/**
 * The gateway stored a signed PUT's bytes: the record takes their key, hash and size and moves 0 → 1 in one step,
 * so a second PUT with the same URL is refused (403) and what it stored is released again. The command is recorded
 * in the inbox: a redelivery of this very command (its reply lost with its channel) answers as the first did.
 */
export async function recordUpload(ctx: AttachmentContext, attachedFileId: string, blob: { key: string; sha256: string; size: number }): Promise<{ state: number }> {
  const record = await files.findById(ctx.pool, attachedFileId);
  if (!record) {
    // Deleted while its bytes were arriving: what the upload stored is nobody's (unless identical bytes are).
    await releaseBlobs(ctx, [blob.key]);
    throw AppError.notFound(`Attached file ${attachedFileId} was not found`);
  }
  let used = false;
  try {
    const { result } = await attachmentWrite(ctx, record.account_id, jsonReplyCodec<{ state: number }>(), async (c) => {
      await files.lockBlob(c, blob.key);
      // Released by a concurrent delete between the store and this step: the client uploads again (the URL still holds).
      if (!(await ctx.blobs.exists(blob.key))) throw AppError.conflict('The uploaded bytes were removed while they were recorded; upload them again');
      if (!(await files.recordUpload(c, attachedFileId, blob))) {
        used = true;
        throw AppError.forbidden(USED);
      }
      return { state: ATTACHED_FILE_STATE.uploading };
    });
    return result;
  } catch (err) {
    if (used) await releaseBlobs(ctx, [blob.key]);
    throw err;
  }
}

/** A signed GET: where the bytes of an available record are. */
export async function downloadTarget(ctx: AttachmentContext, attachedFileId: string): Promise<DownloadTarget> {
  const record = await files.findById(ctx.pool, attachedFileId);
  if (!record || record.state !== ATTACHED_FILE_STATE.availableOnServer || !record.blob_key) throw AppError.notFound(`Attached file ${attachedFileId} has no bytes available`);
  return { blobKey: record.blob_key, size: Number(record.file_size ?? 0), fileName: record.file_name };
}
