import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { BlobTooLargeError, type BlobStore, type ByteRange } from '@pitwall/blob-store';
import { COMMAND_ID_HEADER, type Bus } from '@pitwall/bus';
import { ATTACHMENT_COMMANDS, SERVICES, type DownloadTarget } from '@pitwall/contracts';
import { AppError } from '@pitwall/service-kit';
import { StreamReply, type GatewayHandler } from './operation-routes';

export interface AttachedFileTransferDeps {
  bus: Bus;
  blobs: BlobStore;
  /** Largest upload accepted, in bytes: past it the upload is a 413 and nothing is kept. */
  maxUploadBytes: number;
}

/**
 * The signed upload and download of attached file bytes (wire.md §7), answered by the gateway: the bytes stream
 * between the client and the blob store, hashed and counted on the way, and only their key, hash and size travel on
 * the bus to the entity-service, which owns the records.
 */
export function attachedFileTransfer(deps: AttachedFileTransferDeps): Record<string, GatewayHandler> {
  return {
    uploadAttachedFile: async (_caller, request, { req, res }) => {
      const attachedFileId = request.params['attachedFileId'] as string;
      // A used URL is refused before a byte is read or written; the unread body ends the connection with the answer.
      await deps.bus.request(SERVICES.entity, ATTACHMENT_COMMANDS.uploadTarget, { attachedFileId }, { headers: { requestId: req.requestId } }).catch((err: unknown) => {
        res.setHeader('Connection', 'close');
        throw err;
      });
      let blob;
      try {
        blob = await deps.blobs.putStream(request.body as IncomingMessage, { maxBytes: deps.maxUploadBytes });
      } catch (err) {
        if (!(err instanceof BlobTooLargeError)) throw err;
        // The rest of the body is not read: the connection closes after the answer.
        res.setHeader('Connection', 'close');
        throw new AppError(413, `The upload is larger than the limit of ${deps.maxUploadBytes} bytes; nothing was kept`);
      }
      // A command id of its own (the service's inbox): a redelivery of this command takes effect once.
      const command = { [COMMAND_ID_HEADER]: `upload:${randomUUID()}`, commandHash: blob.sha256 };
      await deps.bus.request(SERVICES.entity, ATTACHMENT_COMMANDS.uploaded, { attachedFileId, blob }, { headers: { requestId: req.requestId, ...command } });
      return null;
    },
    downloadAttachedFile: async (_caller, request, { req, res }) => {
      const attachedFileId = request.params['attachedFileId'] as string;
      const target = await deps.bus.request<DownloadTarget>(SERVICES.entity, ATTACHMENT_COMMANDS.download, { attachedFileId }, { headers: { requestId: req.requestId } });
      const range = byteRange(request.headers?.['Range'], target.size);
      const headers: Record<string, string> = { 'Content-Type': 'application/octet-stream', 'Accept-Ranges': 'bytes' };
      if (range === 'unsatisfiable') {
        res.setHeader('Content-Range', `bytes */${target.size}`);
        throw new AppError(416, `The range ${request.headers?.['Range']} is outside the file (${target.size} bytes)`);
      }
      if (!range) return new StreamReply(200, { ...headers, 'Content-Length': String(target.size) }, await deps.blobs.openRead(target.blobKey));
      const { start, end } = range;
      return new StreamReply(206, { ...headers, 'Content-Length': String(end - start + 1), 'Content-Range': `bytes ${start}-${end}/${target.size}` }, await deps.blobs.openRead(target.blobKey, range));
    },
  };
}

/**
 * One `bytes=` range of RFC 9110 (first-last, first-, or -suffix) resolved against the size; undefined for no range or
 * one this server ignores (several ranges, another unit: the whole file is sent), 'unsatisfiable' for a 416.
 */
export function byteRange(header: string | undefined, size: number): Required<ByteRange> | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}
