import { z } from 'zod';
import { ATTACHMENT_COMMANDS, AttachedFileListing, PrepareAttachmentBody, PreparedAttachment } from './attachments';
import { accountHeader, emptyResponse, idParam, jsonResponse, toBus, withDefaults, type BoundRequest, type Operation } from './operation-model';
import type { EntityTypeDef } from './registry';
import { atMostItems, REQUEST_LIMITS } from './request-limits';
import { Guid, UpdateModel } from './wire';

const attachedFileParams = z.object({ id: Guid, attachedFileId: Guid });
/**
 * The ids of an `attachedFileIds` value: an empty entry (`a,`, `a,,b`) is not an id given, as an empty parameter is not
 * one given (`setupIds=`); a value of none (`,`) is the parameter not given (every attached file).
 */
const attachedFileIdList = (value: string): string[] => value.split(',').filter((id) => id !== '');

const attachedFileIdsQuery = z.object({
  attachedFileIds: z
    .string()
    .regex(/^[0-9a-fA-F-,]*$/, 'is not a comma-separated list of GUIDs')
    .refine((v) => attachedFileIdList(v).every((id) => Guid.safeParse(id).success), 'is not a comma-separated list of GUIDs')
    // The entity-service bounds the list it is sent (AttachmentList): refused here first, naming the bound, not the bus message.
    .refine((v) => attachedFileIdList(v).length <= REQUEST_LIMITS.MAX_ATTACHMENT_IDS, atMostItems('MAX_ATTACHMENT_IDS'))
    .optional()
    .meta({ description: 'Comma-separated attached file ids (an empty entry is ignored); absent or none: every attached file of the entity' }),
});

/** The attached file operations of a type with attachments (wire.md §7), answered by the entity-service. */
export function attachmentOperations(type: EntityTypeDef): Operation[] {
  if (!type.features.attachments) return [];
  const { plural: P, name: S } = type;
  const operation = withDefaults({ tags: [P], nonMember: 'not-found', headers: accountHeader, query: z.object({}) });
  const target = (r: BoundRequest) => ({ type: P, id: r.params['id'] as string });
  return [
    operation({
      operationId: `Add${S}Attachment`,
      method: 'post',
      path: `/${P}/{id}/Attachments`,
      summary: `Prepare an attached file of a ${S}: the record (state 0) and a signed URL to PUT its bytes to`,
      permission: 'write',
      params: idParam,
      body: PrepareAttachmentBody,
      response: jsonResponse(200, PreparedAttachment, 'The record id and the signed upload URL'),
      target: toBus(ATTACHMENT_COMMANDS.prepare, (r) => ({ ...target(r), body: r.body as PrepareAttachmentBody })),
      client: [
        { name: `prepare${S}Attachment`, body: { name: 'model', type: 'PrepareAttachmentBody' }, returns: '{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }' },
        { name: `addAttachmentTo${S}`, attachmentUpload: 'add', returns: 'AttachmentResult' },
        { name: `retry${S}Attachment`, attachmentUpload: 'retry', returns: 'AttachmentResult' },
      ],
    }),
    operation({
      operationId: `Get${S}Attachments`,
      method: 'get',
      path: `/${P}/{id}/Attachments`,
      summary: `List the attached files of a ${S}, each with a signed download URL`,
      permission: 'read',
      params: idParam,
      query: attachedFileIdsQuery,
      response: jsonResponse(200, z.array(AttachedFileListing), 'The attached file records'),
      target: toBus(ATTACHMENT_COMMANDS.list, (r) => {
        const ids = attachedFileIdList((r.query['attachedFileIds'] ?? '').toLowerCase());
        return { ...target(r), ...(ids.length ? { attachedFileIds: ids } : {}) };
      }),
      client: [{ name: `get${S}Attachments`, returns: '{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]' }],
    }),
    operation({
      operationId: `Update${S}Attachment`,
      method: 'put',
      path: `/${P}/{id}/Attachments/{attachedFileId}`,
      summary: `Update an attached file of a ${S}: ServerAttachedFileState 2 finalises an upload (the bytes are checked)`,
      permission: 'write',
      params: attachedFileParams,
      body: UpdateModel,
      response: jsonResponse(200, AttachedFileListing, 'The updated record'),
      errors: { 409: 'No bytes were uploaded, or a compressed upload is not a valid LZ4 frame' },
      target: toBus(ATTACHMENT_COMMANDS.update, (r) => ({ ...target(r), attachedFileId: r.params['attachedFileId'] as string, body: r.body as UpdateModel })),
      client: [{ name: `update${S}Attachment`, body: { name: 'model', type: 'UpdateModel' }, returns: '{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }' }],
    }),
    operation({
      operationId: `Delete${S}Attachment`,
      method: 'delete',
      path: `/${P}/{id}/Attachments/{attachedFileId}`,
      summary: `Delete an attached file of a ${S} (its bytes go when nothing else refers to them)`,
      permission: 'write',
      params: attachedFileParams,
      response: emptyResponse(204, 'Deleted'),
      target: toBus(ATTACHMENT_COMMANDS.delete, (r) => ({ ...target(r), attachedFileId: r.params['attachedFileId'] as string })),
      client: [{ name: `delete${S}Attachment`, returns: 'null' }],
    }),
  ];
}

/** The path of the signed blob URLs the gateway serves: `/blobs/{attachedFileId}`. */
export const BLOB_URL_PATH = '/blobs';
const signedQuery = z.object({
  expires: z.string().regex(/^\d{1,12}$/, 'is not a Unix time').optional(),
  sig: z.string().max(128).optional(),
});

/** Signed upload and download of attached file bytes: the signature is the authority, no API key (wire.md §7). */
const blobOperation = withDefaults({ tags: ['AttachedFiles'], permission: 'signature', nonMember: 'forbidden', params: z.object({ attachedFileId: Guid }), query: signedQuery });
export const BLOB_OPERATIONS: Operation[] = [
  blobOperation({
    operationId: 'UploadAttachedFile',
    method: 'put',
    path: `${BLOB_URL_PATH}/{attachedFileId}`,
    summary: 'The bytes of a prepared attached file, to the signed URL its prepare answered (once)',
    bodyKind: 'stream',
    response: emptyResponse(200, 'Stored'),
    errors: { 400: 'An Idempotency-Key (not supported on an upload), refused before the body is read; a query value that is not valid', 403: 'Expired, tampered or already used URL', 413: 'Larger than the upload cap: a declared Content-Length at once, before the body is read; a chunked body once it passes the cap (nothing is kept, the URL stays usable)' },
    target: { gateway: 'uploadAttachedFile' },
    client: [],
  }),
  blobOperation({
    operationId: 'DownloadAttachedFile',
    method: 'get',
    path: `${BLOB_URL_PATH}/{attachedFileId}`,
    summary: 'The stored bytes of an attached file (as uploaded), through the SignedURL of its listing; Range requests work',
    // Not length-checked: a Range this server does not understand is ignored (RFC 9110 §14.2), never refused.
    // If-Match, If-Range and If-None-Match are compared with the file's ETag (its SHA-256: the bytes of a record never change).
    headers: z.object({ Range: z.string().optional(), 'If-Range': z.string().optional(), 'If-None-Match': z.string().optional(), 'If-Match': z.string().optional() }),
    response: { status: 200, contentTypes: ['application/octet-stream'], description: 'The bytes (206 for a Range, 304 when If-None-Match holds its ETag)' },
    errors: { 403: 'Expired or tampered URL', 412: 'An If-Match that does not hold the file\'s ETag (compared strongly; * always holds)', 416: 'A valid byte Range none of whose ranges overlaps the file (Content-Range: bytes */size); an invalid Range is ignored' },
    target: { gateway: 'downloadAttachedFile' },
    client: [],
  }),
];
