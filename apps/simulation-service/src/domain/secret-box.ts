import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** The configured key, or the one kept in `file` (generated there, readable by the owner only, on first start). */
export function secretKey(configured: string | undefined, file: string): Buffer {
  if (configured) return Buffer.from(configured, 'base64');
  try {
    const kept = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (kept.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
    return kept;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw keyFileError(file, 'read', err);
  }
  const key = randomBytes(32);
  // `wx`: two processes starting together never overwrite each other's key; the loser reads the winner's.
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return secretKey(undefined, file);
    throw keyFileError(file, 'created', err);
  }
  return key;
}

/** A key file that cannot be used (a read-only or foreign directory, a container's working directory): which setting to give. */
function keyFileError(file: string, what: 'read' | 'created', err: unknown): Error {
  return new Error(`Invalid configuration:\n  SIMULATION_SECRET_KEY: not set, and its key file ${file} (SIMULATION_SECRET_KEY_FILE, default DATA_DIR/simulation-secret-key) could not be ${what}: ${(err as Error).message}. Set SIMULATION_SECRET_KEY (32 bytes, base64: openssl rand -base64 32), the same for every instance`, { cause: err });
}

/**
 * AES-256-GCM sealing of connection secrets: `iv (12) | tag (16) | ciphertext`. The key comes from configuration
 * (SIMULATION_SECRET_KEY); a sealed value opened with another key fails instead of returning garbage.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
  }

  seal(value: unknown): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  open<T>(sealed: Buffer): T {
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, 12));
    decipher.setAuthTag(sealed.subarray(12, 28));
    return JSON.parse(Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8')) as T;
  }
}
