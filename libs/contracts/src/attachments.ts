import { z } from 'zod';
import { CallerContext, SERVICES } from './messages';
import { Guid, StoredName, UpdateModel, UNSTORABLE_TEXT, isStorableText } from './wire';
import { atMostItems, REQUEST_LIMITS } from './request-limits';

/** Attached file states (wire.md §7): the bytes are expected, arrived, checked and available. */
export const ATTACHED_FILE_STATE = { pending: 0, uploading: 1, availableOnServer: 2 } as const;

/** An attached file's name, as an upload gives it and a later update may change it. */
export const AttachedFileName = StoredName(1024);
/**
 * An attached file's group (its dataset, for data file access), as an upload gives it and a later update may change it.
 * `.` and `..` are refused: the data file reads name the group as a path segment, and browsers (and most HTTP clients)
 * remove such segments (and `%2E`, `%2E%2E`) from a URL before sending it, so no read from them could reach it.
 */
export const AttachedFileGroupName = z
  .string()
  .max(256)
  .refine(isStorableText, UNSTORABLE_TEXT)
  .refine((name) => name !== '.' && name !== '..', { error: "may not be '.' or '..': the data file reads name the group in the URL's path, where browsers and most HTTP clients remove such segments" });

/** `POST /{Plural}/{id}/Attachments`: prepares an upload. */
export const PrepareAttachmentBody = z
  .strictObject({
    FileName: AttachedFileName,
    CustomPropertyAttachedFileName: z.string().max(1024).refine(isStorableText, UNSTORABLE_TEXT).nullable().optional(),
    IfSingleOverwriteExisting: z.boolean().optional(),
    AutoDownload: z.boolean().optional(),
    UseCompression: z.boolean().optional(),
    AttachedFileGroupName: AttachedFileGroupName.nullable().optional(),
  })
  .meta({ id: 'PrepareAttachment' });
export type PrepareAttachmentBody = z.infer<typeof PrepareAttachmentBody>;

export const PreparedAttachment = z
  .object({ AttachedFileId: Guid, Url: z.string(), AccountId: Guid, UserId: Guid, UseCompression: z.boolean() })
  .meta({ id: 'PreparedAttachment', description: 'Url: an absolute signed URL for one PUT of the bytes, valid for a limited time' });

export const AttachedFileListing = z
  .object({
    Id: Guid,
    Parameters: z.record(z.string(), z.unknown()),
    SignedURL: z.string().nullable(),
  })
  .meta({ id: 'AttachedFileListing', description: 'An attached file record; SignedURL downloads its bytes (null until they are available)' });

/** Command names of the attachments, answered by the entity-service (it owns the records). */
export const ATTACHMENT_COMMANDS = {
  prepare: 'entity.attachments.prepare',
  list: 'entity.attachments.list',
  update: 'entity.attachments.update',
  delete: 'entity.attachments.delete',
  /** From the gateway, before it reads a signed PUT's body: may bytes still be uploaded to this record? */
  uploadTarget: 'entity.attachments.upload-target',
  /** From the gateway, once a signed PUT's bytes are stored: their key, hash and size (never the bytes). */
  uploaded: 'entity.attachments.uploaded',
  /** From the gateway, for a signed GET: where the bytes of an available record are. */
  download: 'entity.attachments.download',
  /** From the datafile-service: the files in state 2 of one dataset (an entity's group) the caller may read. */
  dataset: 'entity.attachments.dataset',
  /** From the datafile-service: the TrackSectorDefinitions of the track configuration of a dataset's entity's session. */
  datasetSectors: 'entity.attachments.dataset-sectors',
  /** From the datafile-service: the numeric parameters of a dataset's entity, the Setup it names and its Car, for `param()` in math channels. */
  datasetConstants: 'entity.attachments.dataset-constants',
} as const;

const Target = { caller: CallerContext, type: z.string(), id: Guid };
export const AttachmentPrepare = z.strictObject({ ...Target, body: PrepareAttachmentBody });
export const AttachmentList = z.strictObject({ ...Target, attachedFileIds: z.array(Guid).max(REQUEST_LIMITS.MAX_ATTACHMENT_IDS, atMostItems('MAX_ATTACHMENT_IDS')).optional() });
export const AttachmentUpdate = z.strictObject({ ...Target, attachedFileId: Guid, body: UpdateModel });
export const AttachmentDelete = z.strictObject({ ...Target, attachedFileId: Guid });
export const AttachmentUploadTarget = z.strictObject({ attachedFileId: Guid });
export const AttachmentUploaded = z.strictObject({
  attachedFileId: Guid,
  blob: z.strictObject({ key: z.string().regex(/^sha256\/[0-9a-f]{64}$/), sha256: z.string().regex(/^[0-9a-f]{64}$/), size: z.number().int().nonnegative() }),
});
export const AttachmentDownload = z.strictObject({ attachedFileId: Guid });

/** Reply of `uploadTarget`. */
export interface UploadTarget {
  attachedFileId: string;
}
/** Reply of `download`. */
export interface DownloadTarget {
  blobKey: string;
  size: number;
  fileName: string;
}

/** `attachment.available` on the entity events exchange, once a file's bytes are checked and it is in state 2. */
export const AttachmentAvailableEvent = z.object({
  accountId: Guid,
  entityType: z.string(),
  entityId: Guid,
  attachedFileId: Guid,
  attachedFileGroupName: z.string().nullable(),
  blobSha256: z.string(),
  size: z.number().int(),
  occurredAt: z.string(),
});
export type AttachmentAvailableEvent = z.infer<typeof AttachmentAvailableEvent>;
export const ATTACHMENT_AVAILABLE_ROUTING_KEY = 'attachment.available';

/** `attachment.deleted` on the entity events exchange, once a DELETE of an attached file committed. */
export const AttachmentDeletedEvent = z.object({
  accountId: Guid,
  entityType: z.string(),
  entityId: Guid,
  attachedFileId: Guid,
  attachedFileGroupName: z.string().nullable(),
  /** Null for a record whose bytes never arrived. */
  blobSha256: z.string().nullable(),
  occurredAt: z.string(),
});
export type AttachmentDeletedEvent = z.infer<typeof AttachmentDeletedEvent>;
export const ATTACHMENT_DELETED_ROUTING_KEY = 'attachment.deleted';

export const ATTACHMENT_SERVICE = SERVICES.entity;
