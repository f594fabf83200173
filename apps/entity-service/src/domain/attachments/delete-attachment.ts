import type { CallerContext } from '@pitwall/contracts';
import { withTransaction } from '@pitwall/db';
import { attachedFileRepository as files } from '../../data-access/attached-file-repository';
import { entityRepository } from '../../data-access/entity-repository';
import { assertWriter } from '../entity-type';
import { attachmentType, findRecord, releaseBlobs, type AttachmentContext } from './attachment-context';

/** `DELETE /{Plural}/{id}/Attachments/{attachedFileId}`: the record, then its bytes once nothing refers to them. */
export async function deleteAttachment(ctx: AttachmentContext, caller: CallerContext, typeName: string, entityId: string, attachedFileId: string): Promise<void> {
  const type = attachmentType(typeName);
  assertWriter(caller);
  const released = await withTransaction(ctx.pool, async (c) => {
    const record = await findRecord(c, caller, type, entityId, attachedFileId, true);
    await files.delete(c, record.id);
    await entityRepository.bumpAccountVersion(c, caller.accountId);
    return record.blob_key ? [record.blob_key] : [];
  });
  // An upload that never finished may have left staged bytes (S3): they go with the record.
  await ctx.blobs.delete(ctx.blobs.stagingKey(attachedFileId)).catch((err: unknown) => ctx.logger.warn({ err, attachedFileId }, 'could not remove staged bytes'));
  await releaseBlobs(ctx, released);
}
