import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { BlobNotFoundError, BlobTooLargeError, type BlobStore, type ByteRange } from '@pitwall/blob-store';
import { COMMAND_ID_HEADER, type Bus } from '@pitwall/bus';
import { ATTACHMENT_COMMANDS, SERVICES, type DownloadTarget } from '@pitwall/contracts';
import { AppError, attachmentDisposition, closeAfterAnswer } from '@pitwall/service-kit';
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
  // The files whose upload this gateway is receiving: one URL's PUTs sent at once each wrote up to MAX_UPLOAD_BYTES
  // to disk before all but one were refused (a hostile review); a second is refused before its body is read.
  const receiving = new Set<string>();
  const receive = async (attachedFileId: string, request: Parameters<GatewayHandler>[1], req: Parameters<GatewayHandler>[2]['req'], res: Parameters<GatewayHandler>[2]['res']): Promise<null> => {
    // A declared length over the cap is refused at once, before a byte is read; a chunked body is counted as it streams.
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > deps.maxUploadBytes) {
      closeAfterAnswer(req, res);
      throw new AppError(413, `The upload of ${declared} bytes is larger than the limit of ${deps.maxUploadBytes} bytes (MAX_UPLOAD_BYTES); nothing was kept`);
    }
    // The body is stored as sent: a coded one (gzip) would be kept coded, and found not a data file only when read.
    const coding = req.headers['content-encoding'];
    if (coding !== undefined && coding.trim().toLowerCase() !== 'identity') {
      closeAfterAnswer(req, res);
      throw new AppError(415, `An upload is stored as sent, so a Content-Encoding (${JSON.stringify(coding.slice(0, 100))}) is not taken: send the file's own bytes (one LZ4 frame when it was prepared with UseCompression); nothing was kept`);
    }
    // A used URL is refused before a byte is read or written; the unread body ends the connection with the answer.
    await deps.bus.request(SERVICES.entity, ATTACHMENT_COMMANDS.uploadTarget, { attachedFileId }, { headers: { requestId: req.requestId } }).catch((err: unknown) => {
      closeAfterAnswer(req, res);
      throw err;
    });
    let blob;
    try {
      blob = await deps.blobs.putStream(request.body as IncomingMessage, { maxBytes: deps.maxUploadBytes });
    } catch (err) {
      if (clientWentAway(req)) {
        // The client's own doing, not a fault of the service: a warning, and nothing of the body was kept.
        req.log.warn({ attachedFileId, reason: (err as Error).message }, 'upload aborted by the client before it was stored; nothing was kept');
        throw new AppError(499, 'The client closed the request before the upload was stored; nothing was kept');
      }
      // The rest of the body is not read (over the limit, or the store unavailable: a 503 with Retry-After): the
      // connection closes after the answer.
      closeAfterAnswer(req, res);
      if (!(err instanceof BlobTooLargeError)) throw err;
      throw new AppError(413, `The upload is larger than the limit of ${deps.maxUploadBytes} bytes (MAX_UPLOAD_BYTES); nothing was kept`);
    }
    // A command id of its own (the service's inbox): a redelivery of this command takes effect once.
    const command = { [COMMAND_ID_HEADER]: `upload:${randomUUID()}`, commandHash: blob.sha256 };
    await deps.bus.request(SERVICES.entity, ATTACHMENT_COMMANDS.uploaded, { attachedFileId, blob }, { headers: { requestId: req.requestId, ...command } });
    return null;
  };
  return {
    uploadAttachedFile: async (_caller, request, { req, res }) => {
      const attachedFileId = request.params['attachedFileId'] as string;
      if (receiving.has(attachedFileId)) {
        closeAfterAnswer(req, res);
        throw AppError.conflict(`The upload of attached file ${attachedFileId} is being received already: one upload at a time; nothing was kept`);
      }
      receiving.add(attachedFileId);
      try {
        return await receive(attachedFileId, request, req, res);
      } finally {
        receiving.delete(attachedFileId);
      }
    },
    downloadAttachedFile: async (_caller, request, { req, res }) => {
      const attachedFileId = request.params['attachedFileId'] as string;
      const target = await deps.bus.request<DownloadTarget>(SERVICES.entity, ATTACHMENT_COMMANDS.download, { attachedFileId }, { headers: { requestId: req.requestId } });
      // The stored bytes are named by their SHA-256 and never change under a record: that is a strong validator.
      const etag = entityTagOf(target.blobKey);
      const validator: Record<string, string> = etag ? { ETag: etag } : {};
      // If-Match comes first (RFC 9110 §13.2.2): a client that wants these bytes only, when they are others, is refused.
      // If-Unmodified-Since is ignored (§13.1.4: no Last-Modified is kept for the bytes).
      const ifMatch = request.headers?.['If-Match'];
      if (ifMatch !== undefined && !matches(ifMatch, etag)) {
        throw new AppError(412, `If-Match (${JSON.stringify(ifMatch.slice(0, 200))}) does not hold the file's ETag${etag ? ` ${etag}` : ''} (compared strongly: a W/ tag never holds): nothing was sent`);
      }
      // If-None-Match next: a client holding these bytes is told so, with no body.
      if (etag && noneMatchFails(request.headers?.['If-None-Match'], etag)) return new StreamReply(304, validator, Readable.from([]));
      // A Range under an If-Range that does not name these bytes is ignored: the whole file, never a piece of another.
      const rangeHeader = request.headers?.['If-Range'] === undefined || (etag !== undefined && request.headers['If-Range'].trim() === etag) ? request.headers?.['Range'] : undefined;
      const range = byteRange(rangeHeader, target.size);
      // Saved, never shown: a browser opening the URL keeps the file under its name, and a page among the bytes (an
      // uploaded .html or .svg) could run nothing on this origin even if a type were ever given it (the sandbox).
      const headers: Record<string, string> = { 'Content-Type': 'application/octet-stream', 'Accept-Ranges': 'bytes', 'Content-Disposition': attachmentDisposition(target.fileName), 'Content-Security-Policy': "default-src 'none'; sandbox", ...validator };
      if (range === 'unsatisfiable') {
        res.setHeader('Content-Range', `bytes */${target.size}`);
        throw new AppError(416, `No range of ${request.headers?.['Range']?.slice(0, 200)} overlaps the file (${target.size} bytes)`);
      }
      // A HEAD is answered the GET's headers without opening the file (its body would be read whole and dropped); a
      // file gone from the store answers as the GET would.
      const missing = () => AppError.notFound(`The bytes of attached file ${attachedFileId} are not in the store (its record says they are): nothing to send`);
      const open = async (part?: Required<ByteRange>): Promise<Readable> => {
        if (req.method === 'HEAD') {
          if (await deps.blobs.exists(target.blobKey)) return Readable.from([]);
          throw missing();
        }
        return deps.blobs.openRead(target.blobKey, part).catch((err: unknown) => {
          throw err instanceof BlobNotFoundError ? missing() : err;
        });
      };
      if (!range) return new StreamReply(200, { ...headers, 'Content-Length': String(target.size) }, await open());
      const { start, end } = range;
      return new StreamReply(206, { ...headers, 'Content-Length': String(end - start + 1), 'Content-Range': `bytes ${start}-${end}/${target.size}` }, await open(range));
    },
  };
}

/**
 * Whether the request's body stopped short because its client closed the connection (not the store's failure): its
 * connection closed mid-body, or its client half-closed it (its FIN) after the whole body, which Node takes as the
 * client gone (as nginx does) and aborts the request before its body was read.
 */
function clientWentAway(req: IncomingMessage): boolean {
  if (!req.complete) return req.readableAborted || req.destroyed;
  return req.readableAborted && req.socket.readableEnded;
}

/** A strong entity tag for a content-addressed blob (`"<sha256>"`); none for any other key. */
function entityTagOf(blobKey: string): string | undefined {
  const sha256 = /^sha256\/([0-9a-f]{64})$/.exec(blobKey)?.[1];
  return sha256 === undefined ? undefined : `"${sha256}"`;
}

/**
 * Whether an If-Match header holds: `*` (the file exists), or a list naming the tag by strong comparison (RFC 9110
 * §13.1.1: a `W/` tag never matches).
 */
function matches(header: string, etag: string | undefined): boolean {
  if (header.trim() === '*') return true;
  return listedTags(header).some((listed) => !listed.weak && listed.tag === etag);
}

/**
 * Whether an If-None-Match header names the tag (weak comparison, RFC 9110 §13.1.2: a `W/` tag matches too) or is
 * `*`: the condition is false, and a GET or HEAD answers 304.
 */
function noneMatchFails(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return listedTags(header).some((listed) => listed.tag === etag);
}

/** The entity tags of an If-Match or If-None-Match list, each quoted tag with whether it was marked weak (`W/`). */
function listedTags(header: string): { tag: string; weak: boolean }[] {
  return Array.from(header.matchAll(/(W\/)?("[^"]*")/g), (m) => ({ tag: m[2] as string, weak: m[1] !== undefined }));
}

/** A range-spec of RFC 9110 §14.1.1: `first-last`, `first-` or `-suffix` (digits only). */
const RANGE_SPEC = /^(?:(\d+)-(\d*)|-(\d+))$/;
/** A position's digits without leading zeros (one zero stays for 0). */
const significant = (digits: string): string => digits.replace(/^0+(?=\d)/, '');
/** Positions past 15 digits are past any file (they would lose precision as numbers). */
const position = (digits: string): number => {
  const s = significant(digits);
  return s.length > 15 ? Infinity : Number(s);
};
/** Whether the digit string `a` is less than `b`, exactly, however long. */
const lessThan = (a: string, b: string): boolean => {
  const [x, y] = [significant(a), significant(b)];
  return x.length !== y.length ? x.length < y.length : x < y;
};

/**
 * A `Range` header resolved against the size, as RFC 9110 §14.2 has it: undefined when there is none or it is ignored
 * (another unit, a syntactically invalid range set such as `bytes=4-2` or `bytes=abc`, or several ranges: no
 * multipart answers, the whole file is sent); 'unsatisfiable' (416) when it is a valid set none of whose ranges
 * overlaps the file; else the one range, cut at the end of the file.
 */
export function byteRange(header: string | undefined, size: number): Required<ByteRange> | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined;
  // The unit is case-insensitive; the set is a comma-separated list, empty elements and spaces around commas allowed.
  const set = /^bytes=(.*)$/is.exec(header.trim())?.[1];
  if (set === undefined) return undefined;
  const specs = set.split(',').map((spec) => spec.trim()).filter((spec) => spec !== '');
  if (specs.length === 0) return undefined;
  const satisfiable: Required<ByteRange>[] = [];
  for (const spec of specs) {
    const m = RANGE_SPEC.exec(spec);
    if (!m) return undefined;
    const [, first, last, suffix] = m;
    if (suffix !== undefined) {
      const length = position(suffix);
      if (length > 0 && size > 0) satisfiable.push({ start: Math.max(0, size - length), end: size - 1 });
      continue;
    }
    // A last position before the first makes the whole set invalid (§14.1.1), not unsatisfiable.
    if (last && lessThan(last, first as string)) return undefined;
    const start = position(first as string);
    if (start < size) satisfiable.push({ start, end: last ? Math.min(position(last), size - 1) : size - 1 });
  }
  if (satisfiable.length === 0) return 'unsatisfiable';
  return specs.length === 1 ? satisfiable[0] : undefined;
}
