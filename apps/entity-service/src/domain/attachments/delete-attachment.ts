import { ATTACHMENT_DELETED_ROUTING_KEY, type CallerContext } from '@pitwall/contracts';
import type { PublishAfterCommit } from '@pitwall/messaging';
import { attachedFileRepository as files } from '../../data-access/attached-file-repository';
import { assertWriter } from '../entity-type';
import { attachmentType, attachmentWrite, findRecord, jsonReplyCodec, releaseBlobs, type AttachmentContext } from './attachment-context';

/**
 * `DELETE /{Plural}/{id}/Attachments/{attachedFileId}`: the record, then its bytes once nothing refers to them.
 * `attachment.deleted` leaves through the outbox with the delete (readers drop what they cached of the file).
 */
export async function deleteAttachment(ctx: AttachmentContext, caller: CallerContext, typeName: string, entityId: string, attachedFileId: string): Promise<void> {
  const type = attachmentType(typeName);
  assertWriter(caller);
  // A redelivered or repeated delete answers as the first did (204), removes nothing more and announces nothing more.
  let released: string[] = [];
  let publish: PublishAfterCommit = async () => undefined;
  const { ran } = await attachmentWrite(ctx, caller.accountId, jsonReplyCodec<null>(), async (c) => {
    const record = await findRecord(c, caller, type, entityId, attachedFileId, true);
    await files.delete(c, record.id);
    released = record.blob_key ? [record.blob_key] : [];
    const event = {
      accountId: record.account_id,
      entityType: type.name,
      entityId: record.entity_id,
      attachedFileId: record.id,
      attachedFileGroupName: record.group_name,
      blobSha256: record.blob_sha256 ?? null,
      occurredAt: new Date().toISOString(),
    };
    publish = await ctx.outbox.add(c, [{ routingKey: ATTACHMENT_DELETED_ROUTING_KEY, payload: event, headers: ctx.eventHeaders?.() ?? {} }]);
    return null;
  });
  if (!ran) return;
  ctx.outbox.detach(publish);
  // An upload that never finished may have left staged bytes (S3): they go with the record.
  await ctx.blobs.delete(ctx.blobs.stagingKey(attachedFileId)).catch((err: unknown) => ctx.logger.warn({ err, attachedFileId }, 'could not remove staged bytes'));
  await releaseBlobs(ctx, released);
}
