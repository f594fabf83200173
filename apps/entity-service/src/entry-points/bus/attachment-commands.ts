import { ATTACHMENT_COMMANDS, type CommandMessage } from '@pitwall/contracts';
import type { AttachmentContext } from '../../domain/attachments/attachment-context';
import { deleteAttachment } from '../../domain/attachments/delete-attachment';
import { finaliseAttachment } from '../../domain/attachments/finalise-attachment';
import { listAttachments } from '../../domain/attachments/list-attachments';
import { prepareAttachment } from '../../domain/attachments/prepare-attachment';
import { downloadTarget, recordUpload, uploadTarget } from '../../domain/attachments/record-upload';

/** One handler per attachment command the operation table (and the gateway's signed URLs) route to the entity service. */
export function attachmentCommandHandlers(ctx: AttachmentContext) {
  return {
    [ATTACHMENT_COMMANDS.prepare]: (m: CommandMessage<'entity.attachments.prepare'>) => prepareAttachment(ctx, m.caller, m.type, m.id.toLowerCase(), m.body),
    [ATTACHMENT_COMMANDS.list]: (m: CommandMessage<'entity.attachments.list'>) => listAttachments(ctx, m.caller, m.type, m.id.toLowerCase(), m.attachedFileIds?.map((id) => id.toLowerCase())),
    [ATTACHMENT_COMMANDS.update]: (m: CommandMessage<'entity.attachments.update'>) => finaliseAttachment(ctx, m.caller, m.type, m.id.toLowerCase(), m.attachedFileId.toLowerCase(), m.body),
    [ATTACHMENT_COMMANDS.delete]: async (m: CommandMessage<'entity.attachments.delete'>) => {
      await deleteAttachment(ctx, m.caller, m.type, m.id.toLowerCase(), m.attachedFileId.toLowerCase());
      return null;
    },
    [ATTACHMENT_COMMANDS.uploadTarget]: (m: CommandMessage<'entity.attachments.upload-target'>) => uploadTarget(ctx, m.attachedFileId.toLowerCase()),
    [ATTACHMENT_COMMANDS.uploaded]: (m: CommandMessage<'entity.attachments.uploaded'>) => recordUpload(ctx, m.attachedFileId.toLowerCase(), m.blob),
    [ATTACHMENT_COMMANDS.download]: (m: CommandMessage<'entity.attachments.download'>) => downloadTarget(ctx, m.attachedFileId.toLowerCase()),
  };
}
