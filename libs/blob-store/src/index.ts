/**
 * @pitwall/blob-store: content-addressed blob storage (SHA-256 keys, stored once) on a directory or an
 * S3-compatible bucket, chosen by BLOB_STORE. See docs/blob-store.md.
 */
export * from './types';
export * from './errors';
export { contentKey } from './keys';
export { FilesystemBlobStore, READ_THROUGH_CHUNK_BYTES } from './filesystem-blob-store';
export { S3BlobStore, type S3BlobStoreOptions } from './s3-blob-store';
export { attachmentUrlSettings, blobStoreConfigSchema, blobStoreFromConfig, blobStoreSettings, createBlobStore, type BlobStoreConfig } from './config';
export { UrlSigner, urlSigningSecret, type SignedGrant, type SignatureFault } from './signed-urls';
export { BLOB_STORE_PROBE_TTL_MS, blobStoreReadiness, watchedBlobStore } from './readiness';
