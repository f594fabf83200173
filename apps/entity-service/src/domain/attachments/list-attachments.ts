import type { CallerContext } from '@pitwall/contracts';
import { attachedFileRepository as files } from '../../data-access/attached-file-repository';
import { attachmentType, owningEntity, renderListing, type AttachmentContext } from './attachment-context';

/** `GET /{Plural}/{id}/Attachments`: the records (all, or the ids asked for), each with a signed download URL. */
export async function listAttachments(ctx: AttachmentContext, caller: CallerContext, typeName: string, entityId: string, ids?: string[]): Promise<Record<string, unknown>[]> {
  const type = attachmentType(typeName);
  await owningEntity(ctx.pool, caller, type, entityId);
  const records = await files.listOf(ctx.pool, caller.accountId, entityId, ids);
  return Promise.all(records.map((f) => renderListing(ctx, f)));
}
