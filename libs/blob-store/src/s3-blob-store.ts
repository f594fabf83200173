import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { attachmentDisposition } from '@pitwall/service-kit';
import { BlobNotFoundError, BlobStoreUnavailableError, BlobTooLargeError, isS3Outage } from './errors';
import { resolveRange } from './filesystem-blob-store';
import { checkKey, checkRange, contentKey, isBlobKeyOf, stagingKeyOf } from './keys';
import { metered, readThrough } from './metered-source';
import type { BlobKey, ByteSource, BlobStat, BlobStore, ListedBlob, ContentDigest, PromoteOptions, PutOptions, ReadOptions, StoredBlob } from './types';

export interface S3BlobStoreOptions {
  /** e.g. http://127.0.0.1:9000 for MinIO; omit for AWS S3 (the region's endpoint). */
  endpoint?: string;
  region: string;
  bucket: string;
  /** Omit to use the SDK's default chain (environment, instance or task role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Bucket in the path (`endpoint/bucket/key`) rather than the host name: MinIO, Ceph and most self-hosted stores. */
  forcePathStyle?: boolean;
  /**
   * S3_TIMEOUT_MS: how long a request may wait for its answer's headers (a copy: that plus a second per 16 MiB), and an
   * answer's body send nothing while its reader waits for it, before it is cut; each attempt's. Default DEFAULT_S3_TIMEOUT_MS.
   */
  timeoutMs?: number;
}

/** S3_TIMEOUT_MS's default: a store that accepts a connection and then says nothing is given up on after 30 s. */
export const DEFAULT_S3_TIMEOUT_MS = 30_000;

/** Multipart part size for uploads passing through the service: the most a streamed upload holds in memory. */
const PART_SIZE = 8 * 1024 * 1024;
/** Largest object a single CopyObject may copy. */
const MAX_COPY_SIZE = 5 * 1024 ** 3;

const isNotFound = (error: unknown): boolean => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
};

/**
 * Blobs as objects of one bucket of any S3-compatible store, keyed like the filesystem backend
 * (`sha256/<hex>`, `staging/<upload id>`). Clients upload and download through presigned URLs, so the bytes
 * do not pass through the services; what does pass through (putStream) goes up in 8 MiB multipart parts.
 */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  readonly bucket: string;
  private readonly timeoutMs: number;

  constructor(options: S3BlobStoreOptions) {
    this.bucket = options.bucket;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_S3_TIMEOUT_MS;
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      forcePathStyle: options.forcePathStyle ?? false,
      // Checksums only where the API requires them: the optional CRC headers (and the checksum parameters they
      // put into presigned URLs) are not understood by every S3-compatible store.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // An unreachable store is found out in seconds, not after the operating system's connect timeout; one that
      // connects and then gives no answer is cut after timeoutMs. With no bound, each such call never settled and held
      // one of the client's 50 sockets: fifty of them, and every later call failed. A body that stops is watched by its
      // reader (bodyOf), counting only its waits: a socket timeout would also cut a reader that pauses, and a long
      // CopyObject from a store that says nothing until it is done.
      requestHandler: { connectionTimeout: 3000, requestTimeout: this.timeoutMs, throwOnRequestTimeout: true },
    });
    // Outermost step (around the SDK's retries): an outage (no answer, 5xx) becomes BlobStoreUnavailableError, the one
    // error every process answers as a 503 with Retry-After; a refusal (404, 403) stays what the SDK made of it.
    this.client.middlewareStack.add(
      (next, context) => async (args) => {
        try {
          return await next(args);
        } catch (error) {
          if (isS3Outage(error)) throw new BlobStoreUnavailableError(context.commandName ?? 'request', error);
          throw error;
        }
      },
      { step: 'initialize', name: 'blobStoreOutage' },
    );
  }

  async putStream(source: ByteSource, options: PutOptions = {}): Promise<StoredBlob> {
    const temporary = stagingKeyOf(`put-${randomUUID()}`);
    const digest = await this.upload(temporary, source, options.maxBytes);
    return this.settle(temporary, digest);
  }

  async putStaged(stagingKey: BlobKey, source: ByteSource, options: PutOptions = {}): Promise<ContentDigest> {
    return this.upload(checkKey(stagingKey, 'staging'), source, options.maxBytes);
  }

  stagingKey(uploadId: string): BlobKey {
    return stagingKeyOf(uploadId);
  }

  async presignPut(stagingKey: BlobKey, expiresSeconds: number): Promise<string> {
    const command = new PutObjectCommand({ Bucket: this.bucket, Key: checkKey(stagingKey, 'staging') });
    return getSignedUrl(this.client, command, { expiresIn: expiresSeconds });
  }

  async presignGet(key: BlobKey, expiresSeconds: number, options: { downloadName?: string } = {}): Promise<string> {
    // The response-content-* overrides are part of the signed query: a client cannot change them.
    const download = options.downloadName === undefined ? {} : { ResponseContentDisposition: attachmentDisposition(options.downloadName), ResponseContentType: 'application/octet-stream' };
    const command = new GetObjectCommand({ Bucket: this.bucket, Key: checkKey(key), ...download });
    return getSignedUrl(this.client, command, { expiresIn: expiresSeconds });
  }

  /**
   * The staged upload's bytes, checked and hashed in a snapshot of their own: the presigned PUT names the staging key
   * and may be used again until it expires, so bytes read there could be replaced between the read and the copy to
   * the content key (another content under a hash every account's records share). The snapshot, a server-side copy
   * under a key no URL names, is what is read and then copied; the staged bytes are left to the caller (keepStaged)
   * or removed.
   */
  async promoteStaged(stagingKey: BlobKey, options: PromoteOptions = {}): Promise<StoredBlob> {
    const info = await this.stat(checkKey(stagingKey, 'staging'));
    if (info === null) throw new BlobNotFoundError(stagingKey);
    if (options.maxBytes !== undefined && info.size > options.maxBytes) {
      await this.delete(stagingKey);
      throw new BlobTooLargeError(options.maxBytes);
    }
    // A CopyObject takes at most MAX_COPY_SIZE: a larger upload cannot be snapshot, nor given its content key.
    if (info.size > MAX_COPY_SIZE) {
      await this.delete(stagingKey);
      throw new BlobTooLargeError(MAX_COPY_SIZE);
    }
    const snapshot = checkKey(`staging/checking_${randomBytes(18).toString('base64url')}`, 'staging');
    try {
      await this.copy(stagingKey, snapshot, info.size).catch((error: unknown) => {
        // Gone since it was looked at (another finalise of the record removed it).
        throw isNotFound(error) ? new BlobNotFoundError(stagingKey) : error;
      });
      const taken = await this.stat(snapshot);
      if (taken === null) throw new BlobNotFoundError(stagingKey);
      const source = await this.openRead(snapshot);
      let digest: ContentDigest;
      try {
        // Bounded as the upload is (the snapshot may be of bytes PUT again since the size was read).
        const { chunks, result } = metered(source, options.maxBytes);
        await readThrough(chunks, taken.size, options.inspect);
        digest = result();
      } finally {
        source.destroy();
      }
      const stored = await this.settle(snapshot, digest, false);
      if (!options.keepStaged) await this.delete(stagingKey);
      return stored;
    } finally {
      await this.delete(snapshot).catch(() => undefined);
    }
  }

  /** A server-side copy under the store's own metadata (an uploader's Content-Encoding or Content-Type is not kept). */
  private async copy(from: BlobKey, to: BlobKey, size: number): Promise<void> {
    await this.client.send(
      new CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: `${this.bucket}/${encodeURIComponent(from).replace(/%2F/g, '/')}`, MetadataDirective: 'REPLACE', ContentType: 'application/octet-stream' }),
      // Some stores answer a copy only once it is done: its wait grows with its size (16 MiB/s at least).
      { requestTimeout: this.timeoutMs + Math.ceil((size / COPY_BYTES_PER_S) * 1000) },
    );
  }

  async stat(key: BlobKey): Promise<BlobStat | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }));
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async exists(key: BlobKey): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  /** The chunk size hint is not used: the store's response streams as the connection delivers it. */
  async openRead(key: BlobKey, range: ReadOptions = {}): Promise<Readable> {
    checkRange(range);
    const info = await this.stat(key);
    if (info === null) throw new BlobNotFoundError(key);
    const { start, end } = resolveRange(key, info.size, range);
    if (end < start) return Readable.from([]);
    const whole = start === 0 && end === info.size - 1;
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, ...(whole ? {} : { Range: `bytes=${start}-${end}` }) }),
      );
      return bodyOf(object.Body as Readable, this.timeoutMs);
    } catch (error) {
      if (isNotFound(error)) throw new BlobNotFoundError(key);
      throw error;
    }
  }

  async readRange(key: BlobKey, offset: number, length: number): Promise<Buffer> {
    checkRange({ start: offset, end: offset + length });
    const info = await this.stat(key);
    if (info === null) throw new BlobNotFoundError(key);
    const end = Math.min(offset + length, info.size) - 1;
    if (length === 0 || end < offset) return Buffer.alloc(0);
    const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=${offset}-${end}` }));
    const parts: Buffer[] = [];
    for await (const part of bodyOf(object.Body as Readable, this.timeoutMs)) parts.push(part as Buffer);
    return Buffer.concat(parts);
  }

  async delete(key: BlobKey): Promise<void> {
    // S3 answers 204 for a key that does not exist: deleting twice is harmless.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }));
  }

  async *list(area: 'sha256' | 'staging'): AsyncIterable<ListedBlob> {
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${area}/`, ...(ContinuationToken ? { ContinuationToken } : {}) }));
      for (const o of page.Contents ?? []) {
        // Only blob keys: a folder marker (`sha256/`) or an object someone else put there is not the store's to sweep.
        if (o.Key && isBlobKeyOf(area, o.Key)) yield { key: o.Key, size: o.Size ?? 0, modifiedAt: o.LastModified ?? new Date(0) };
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  async probe(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  /**
   * Gives hashed bytes under `from` (a key no URL names: a snapshot, or the store's own upload) their content key and
   * removes `from`. Copied even when the content is stored already (the same bytes, as `from` cannot change): the copy
   * renews its age, so the sweep of unreferenced blobs (which leaves young ones alone) does not take it from the
   * finalise about to refer to it.
   */
  private async settle(from: BlobKey, digest: ContentDigest, keepSource = false): Promise<StoredBlob> {
    const key = contentKey(digest.sha256);
    if (digest.size <= MAX_COPY_SIZE) await this.copy(from, key, digest.size);
    else if (!(await this.exists(key))) {
      await this.delete(from);
      throw new BlobTooLargeError(MAX_COPY_SIZE);
    }
    if (!keepSource) await this.delete(from);
    return { ...digest, key };
  }

  /**
   * Streams the source to `key`: one PutObject when it fits in a part, otherwise a multipart upload, one part in
   * memory at a time. Over maxBytes (or any failure), the upload is aborted and nothing is kept.
   */
  private async upload(key: BlobKey, source: ByteSource, maxBytes?: number): Promise<ContentDigest> {
    const { chunks, result } = metered(source, maxBytes);
    let pending: Buffer[] = [];
    let pendingSize = 0;
    let uploadId: string | undefined;
    const parts: CompletedPart[] = [];
    const take = (): Buffer => {
      const part = Buffer.concat(pending, pendingSize);
      pending = [];
      pendingSize = 0;
      return part;
    };
    const sendPart = async (body: Buffer): Promise<void> => {
      if (uploadId === undefined) {
        const created = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key }));
        uploadId = created.UploadId!;
      }
      const PartNumber = parts.length + 1;
      const sent = await this.client.send(
        new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber, Body: body, ContentLength: body.length }),
      );
      parts.push({ PartNumber, ETag: sent.ETag! });
    };
    try {
      for await (const chunk of chunks) {
        pending.push(chunk);
        pendingSize += chunk.length;
        if (pendingSize >= PART_SIZE) await sendPart(take());
      }
      if (uploadId === undefined) {
        const body = take();
        await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentLength: body.length }));
      } else {
        if (pendingSize > 0) await sendPart(take());
        await this.client.send(
          new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }),
        );
      }
      return result();
    } catch (error) {
      if (uploadId !== undefined) {
        await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId })).catch(() => undefined);
      }
      throw error;
    }
  }
}

/** An object's bytes; the store going away mid-stream surfaces as BlobStoreUnavailableError, not a socket error. */
function bodyOf(body: Readable, idleMs: number): Readable {
  return Readable.from(
    (async function* () {
      const chunks = body[Symbol.asyncIterator]();
      let done = false;
      try {
        for (;;) {
          // Only the waits for the store count: a reader that pauses between chunks is not the store stalling.
          let timer: NodeJS.Timeout | undefined;
          const silent = new Promise<never>((_resolve, reject) => {
            timer = setTimeout(() => reject(new Error(`the body sent nothing for ${idleMs} ms (S3_TIMEOUT_MS)`)), idleMs);
          });
          const next = await Promise.race([chunks.next(), silent]).finally(() => clearTimeout(timer));
          if (next.done) {
            done = true;
            return;
          }
          yield next.value as Buffer;
        }
      } catch (error) {
        throw new BlobStoreUnavailableError('GetObject', error);
      } finally {
        // Failed, cut, or left early by its reader: the connection goes.
        if (!done) body.destroy();
      }
    })(),
    { objectMode: false },
  );
}

/** The slowest a server-side copy is allowed to be before it is an outage: 16 MiB a second (5 GiB in 320 s). */
const COPY_BYTES_PER_S = 16 * 1024 * 1024;
