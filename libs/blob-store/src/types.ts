import type { Readable } from 'node:stream';

/** Where a blob is: `sha256/<64 hex>` for content, `staging/<upload id>` for bytes not yet checked. */
export type BlobKey = string;

/** Bytes to store: a node stream (an HTTP request body) or any iterable of chunks. */
export type ByteSource = Readable | AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

export interface ContentDigest {
  /** Lower-case hex SHA-256 of the bytes. */
  sha256: string;
  size: number;
}

export interface StoredBlob extends ContentDigest {
  /** `sha256/<sha256>`. */
  key: BlobKey;
}

export interface BlobStat {
  size: number;
}

export interface ByteRange {
  /** First byte, inclusive (default 0). */
  start?: number;
  /** Last byte, inclusive, as in an HTTP Range header (default the last byte of the blob). */
  end?: number;
}

/** A read of a blob: a byte range, and how large the chunks may be. */
export interface ReadOptions extends ByteRange {
  /**
   * Bytes per chunk (a hint the filesystem backend follows; default 64 KiB). A long sequential read-through (the
   * LZ4 check of a finalise) goes faster in larger chunks; a download to a slow client needs no more than the default.
   */
  chunkBytes?: number;
}

export interface ListedBlob {
  key: BlobKey;
  size: number;
  /** When the blob was last written (S3: LastModified; directory: mtime). */
  modifiedAt: Date;
}

export interface PutOptions {
  /** Refuse (BlobTooLargeError, nothing kept) as soon as more bytes than this arrive. */
  maxBytes?: number;
}

export interface PromoteOptions extends PutOptions {
  /**
   * Reads the staged bytes in the same pass as the hashing (e.g. `validateLz4Frames`), so a large upload is read
   * once, given their size (an LZ4 frame's ratio bound needs it). It must read them to their end; when it throws,
   * nothing is promoted, the staged bytes stay and the error comes through.
   */
  inspect?: (bytes: AsyncIterable<Buffer>, size: number) => Promise<unknown>;
  /**
   * Leaves the staged bytes in place (the caller deletes them once the content is referenced): a promotion whose
   * record then fails to commit can be promoted again.
   */
  keepStaged?: boolean;
}

/**
 * A content-addressed blob store. Identical bytes are stored once under `sha256/<hex>`; counting the references
 * to a blob belongs to its owner's database, so `delete` is only called when the last one goes.
 * Two backends: FilesystemBlobStore and S3BlobStore (docs/blob-store.md).
 */
export interface BlobStore {
  readonly kind: 'fs' | 's3';
  /**
   * Streams bytes into the store (never holding them all), hashing and counting on the way. On failure (over
   * maxBytes, source error) nothing is kept and a node stream source is left undestroyed, partly read: the caller
   * answers (413) and closes it.
   */
  putStream(source: ByteSource, options?: PutOptions): Promise<StoredBlob>;
  /** Streams bytes under a staging key (an upload not yet finalised); the result tells what arrived. */
  putStaged(stagingKey: BlobKey, source: ByteSource, options?: PutOptions): Promise<ContentDigest>;
  /** The staging key of an upload id (letters, digits, '-' and '_', at most 128). */
  stagingKey(uploadId: string): BlobKey;
  /** A URL the client PUTs the bytes to directly (S3), or null when the caller must receive them itself (fs). */
  presignPut(stagingKey: BlobKey, expiresSeconds: number): Promise<string | null>;
  /**
   * A URL the client GETs the bytes from directly (S3), or null when the caller must serve them itself (fs). With a
   * `downloadName`, the store answers it as a download of that name (`Content-Disposition: attachment`) of type
   * application/octet-stream, never as a page a browser would show.
   */
  presignGet(key: BlobKey, expiresSeconds: number, options?: { downloadName?: string }): Promise<string | null>;
  /**
   * Moves a staged upload to its content key: reads it through to hash it, keeps one copy (or none when the
   * content is already stored, whose age is then renewed), removes the staged bytes unless `keepStaged`. BlobNotFoundError when nothing was staged;
   * BlobTooLargeError (staged bytes deleted) when over maxBytes.
   */
  promoteStaged(stagingKey: BlobKey, options?: PromoteOptions): Promise<StoredBlob>;
  /** Size of a blob, or null when there is none. */
  stat(key: BlobKey): Promise<BlobStat | null>;
  exists(key: BlobKey): Promise<boolean>;
  /** The bytes of a blob, or of an inclusive range of it. BlobNotFoundError when missing; BlobRangeError when out of range. */
  openRead(key: BlobKey, options?: ReadOptions): Promise<Readable>;
  /** `length` bytes from `offset` (fewer at the end of the blob): random access for readers of large files. */
  readRange(key: BlobKey, offset: number, length: number): Promise<Buffer>;
  /** Removes a blob; nothing happens when it is already gone. */
  delete(key: BlobKey): Promise<void>;
  /** Every blob of one area (`sha256/` or `staging/`), page by page, with its age: what the sweep of unreferenced blobs walks. Only blob keys: anything else found there is passed over. */
  list(area: 'sha256' | 'staging'): AsyncIterable<ListedBlob>;
  /** Resolves when the store can be used now (S3: HeadBucket; directory: it exists or can be made, and is writable); else BlobStoreUnavailableError. */
  probe(): Promise<void>;
  close(): Promise<void>;
}
