import { join } from 'node:path';
import { z } from 'zod';
import { intVar, msVar, secondsVar } from '@pitwall/service-kit';
import { FilesystemBlobStore } from './filesystem-blob-store';
import { DEFAULT_S3_TIMEOUT_MS, S3BlobStore } from './s3-blob-store';
import type { BlobStore } from './types';

const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** The blob store's environment variables (a shape a service's config schema spreads); docs/blob-store.md explains each. */
export const blobStoreSettings = {
    /** fs (default) or s3. */
    BLOB_STORE: z.enum(['fs', 's3']).default('fs'),
    /** Directory of the fs backend; default `DATA_DIR/blobs`, DATA_DIR defaulting to ./data. */
    BLOB_DIR: z.string().min(1).optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    S3_ENDPOINT: z.string().url().optional(),
    S3_BUCKET: z.string().min(3).optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: flag.default(false),
    /** How long an S3 request waits for its answer, and a body may send nothing while it is read, before it is cut (per attempt). */
    S3_TIMEOUT_MS: msVar(DEFAULT_S3_TIMEOUT_MS, { min: 100 }),
};

/** The blob store's environment variables, with the checks that span several of them. */
export const blobStoreConfigSchema = z
  .object(blobStoreSettings)
  .superRefine((c, ctx) => {
    if (c.BLOB_STORE === 's3' && !c.S3_BUCKET) ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'S3_BUCKET is required when BLOB_STORE=s3' });
    if (Boolean(c.S3_ACCESS_KEY_ID) !== Boolean(c.S3_SECRET_ACCESS_KEY)) {
      ctx.addIssue({ code: 'custom', path: ['S3_SECRET_ACCESS_KEY'], message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together' });
    }
  });

export type BlobStoreConfig = z.infer<typeof blobStoreConfigSchema>;

/** Settings of attached file URLs, shared by the gateway (which verifies them) and the entity-service (which signs them). */
export const attachmentUrlSettings = {
  /** HMAC secret of the signed URLs; unset: one generated once under DATA_DIR. */
  URL_SIGNING_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Lifetime of a signed upload or download URL, in seconds (default 15 minutes). */
  UPLOAD_URL_TTL_S: secondsVar(900, { max: 7 * 24 * 3600 }),
  /** Largest upload accepted, in bytes (default 10 GiB). */
  MAX_UPLOAD_BYTES: intVar(10 * 1024 ** 3),
  /** Where clients reach the gateway: the base of the absolute signed URLs. */
  PUBLIC_BASE_URL: z.string().url().default('http://127.0.0.1:8080'),
};

/** Reads the settings (process.env by default) and builds the configured backend; a bad value throws naming the variable. */
export function createBlobStore(env: Record<string, string | undefined> = process.env): BlobStore {
  const parsed = blobStoreConfigSchema.safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid blob store configuration: ${issues}`);
  }
  return blobStoreFromConfig(parsed.data);
}

/** The configured backend from settings a service already parsed (its config spreads `blobStoreSettings`). */
export function blobStoreFromConfig(c: BlobStoreConfig): BlobStore {
  if (c.BLOB_STORE === 's3' && !c.S3_BUCKET) throw new Error('invalid blob store configuration: S3_BUCKET: S3_BUCKET is required when BLOB_STORE=s3');
  if (Boolean(c.S3_ACCESS_KEY_ID) !== Boolean(c.S3_SECRET_ACCESS_KEY)) throw new Error('invalid blob store configuration: S3_SECRET_ACCESS_KEY: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
  if (c.BLOB_STORE === 'fs') return new FilesystemBlobStore(c.BLOB_DIR ?? join(c.DATA_DIR, 'blobs'));
  return new S3BlobStore({
    bucket: c.S3_BUCKET!,
    region: c.S3_REGION,
    forcePathStyle: c.S3_FORCE_PATH_STYLE,
    timeoutMs: c.S3_TIMEOUT_MS,
    ...(c.S3_ENDPOINT ? { endpoint: c.S3_ENDPOINT } : {}),
    ...(c.S3_ACCESS_KEY_ID && c.S3_SECRET_ACCESS_KEY ? { credentials: { accessKeyId: c.S3_ACCESS_KEY_ID, secretAccessKey: c.S3_SECRET_ACCESS_KEY } } : {}),
  });
}
