import { randomUUID } from 'node:crypto';
import type { CallerContext, PrepareAttachmentBody } from '@pitwall/contracts';
import { attachedFileRepository as files } from '../../data-access/attached-file-repository';
import { assertWriter } from '../entity-type';
import { attachmentType, attachmentWrite, gatewayUrl, jsonReplyCodec, owningEntity, type AttachmentContext } from './attachment-context';

export interface PreparedAttachment {
  AttachedFileId: string;
  Url: string;
  AccountId: string;
  UserId: string;
  UseCompression: boolean;
}

/**
 * Step 1 of an upload (wire.md §7): the record, pending (state 0), and where to PUT the bytes: the gateway's signed
 * URL (filesystem backend) or the store's own presigned PUT to the record's staging key (S3).
 */
export async function prepareAttachment(ctx: AttachmentContext, caller: CallerContext, typeName: string, entityId: string, body: PrepareAttachmentBody): Promise<PreparedAttachment> {
  const type = attachmentType(typeName);
  assertWriter(caller);
  const id = randomUUID();
  const useCompression = body.UseCompression ?? false;
  // A redelivered or repeated prepare answers the record it created (its URL signed afresh) and creates no other.
  const { result: prepared } = await attachmentWrite(ctx, caller.accountId, jsonReplyCodec<Omit<PreparedAttachment, 'Url'>>(), async (c) => {
    await owningEntity(c, caller, type, entityId);
    await files.insert(c, {
      id,
      account_id: caller.accountId,
      entity_id: entityId,
      user_id: caller.userId,
      file_name: body.FileName,
      custom_file_name: body.CustomPropertyAttachedFileName ?? null,
      // An empty group is no group, as a wrapper sends an unset string: no data file read could name it.
      group_name: body.AttachedFileGroupName || null,
      use_compression: useCompression,
      auto_download: body.AutoDownload ?? false,
      replace_existing: Boolean(body.IfSingleOverwriteExisting && body.CustomPropertyAttachedFileName),
      created_time: new Date(),
    });
    return { AttachedFileId: id, AccountId: caller.accountId, UserId: caller.userId, UseCompression: useCompression };
  });
  const presigned = await ctx.blobs.presignPut(ctx.blobs.stagingKey(prepared.AttachedFileId), ctx.urlTtlSeconds);
  return { ...prepared, Url: presigned ?? gatewayUrl(ctx, 'PUT', prepared.AttachedFileId) };
}
