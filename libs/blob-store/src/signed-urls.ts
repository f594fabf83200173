import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { makeDirectorySync } from '@pitwall/service-kit';

/** What a signed URL grants: one method on one path for one attached file, until `expires` (Unix seconds). */
export interface SignedGrant {
  method: 'GET' | 'PUT';
  path: string;
  attachedFileId: string;
  expires: number;
}

/** Why a signed URL was refused. */
export type SignatureFault = 'missing' | 'expired' | 'invalid';

/**
 * HMAC-SHA256 signatures for the blob URLs the gateway serves (upload and download of attached files). The secret is
 * shared by every gateway replica and by the entity-service, which hands the URLs out.
 */
export class UrlSigner {
  private readonly key: Buffer;

  /**
   * `maxTtlSeconds`: the furthest expiry a URL may carry (default 7 days, UPLOAD_URL_TTL_S's bound, whatever the signer
   * was set to); one further off is refused as invalid, so a URL signed with a leaked secret cannot be made to last.
   * Clocks may differ by CLOCK_SKEW_S.
   */
  constructor(
    secret: string,
    private readonly maxTtlSeconds = 7 * 24 * 3600,
  ) {
    if (secret.length < 16) throw new Error('the URL signing secret must be at least 16 characters');
    this.key = Buffer.from(secret, 'utf8');
  }

  signature(grant: SignedGrant): string {
    const text = [grant.method, grant.path, grant.attachedFileId.toLowerCase(), String(grant.expires)].join('\n');
    return createHmac('sha256', this.key).update(text).digest('base64url');
  }

  /** The query string that carries the grant: `expires=...&sig=...`. */
  query(grant: SignedGrant): string {
    return `expires=${grant.expires}&sig=${this.signature(grant)}`;
  }

  /** Null when the signature holds and has not expired; else why not. */
  verify(grant: Omit<SignedGrant, 'expires'>, expires: string | undefined, sig: string | undefined, now = Date.now()): SignatureFault | null {
    if (!expires || !sig) return 'missing';
    if (!/^\d{1,12}$/.test(expires)) return 'invalid';
    const expected = Buffer.from(this.signature({ ...grant, expires: Number(expires) }));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    if (Number(expires) * 1000 < now) return 'expired';
    if (Number(expires) > Math.floor(now / 1000) + this.maxTtlSeconds + CLOCK_SKEW_S) return 'invalid';
    return null;
  }
}

/** How far the clocks of the process that signs (the entity-service) and the one that verifies may differ. */
const CLOCK_SKEW_S = 60;

/** Secrets written in the repository (docker/compose.yaml's default): taken, with a warning at every start. */
export const PUBLISHED_URL_SIGNING_SECRETS: ReadonlySet<string> = new Set(['pitwall-compose-local-url-signing-secret']);

/**
 * The signing secret: URL_SIGNING_SECRET when set, else one generated once and kept in `DATA_DIR/url-signing-secret`
 * (mode 0600), so `npm start` with no variables signs and verifies with the same secret across restarts. The public
 * default of docker/compose.yaml is taken with a warning to `logger`.
 */
export function urlSigningSecret(configured: string | undefined, dataDir: string, logger?: { warn(fields: object, message: string): void }): string {
  if (configured && PUBLISHED_URL_SIGNING_SECRETS.has(configured)) {
    logger?.warn(
      { setting: 'URL_SIGNING_SECRET' },
      'URL_SIGNING_SECRET is the public default of docker/compose.yaml: anyone who knows an attached file id can sign a URL to download it (or upload to it) with it; set a secret of your own anywhere but a try-out',
    );
  }
  if (configured) return configured;
  const file = join(dataDir, 'url-signing-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    makeDirectorySync(dirname(file));
    try {
      writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    return readFileSync(file, 'utf8').trim();
  }
}
