import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeDirectorySync } from '@pitwall/service-kit';

/** How a key is given, in SIMULATION_SECRET_KEY, each of SIMULATION_SECRET_KEY_PREVIOUS and the key file alike. */
export const SECRET_KEY_FORM = '32 bytes, base64-encoded (e.g. `openssl rand -base64 32`)';

/**
 * A key as configured: 32 bytes in base64 (standard or URL-safe alphabet, padded or not, spaces around it ignored);
 * else what is wrong with it, in words that never quote it (it is a secret). The one parser of every configured key.
 */
export function parseSecretKey(text: string): { key: Buffer } | { problem: 'is not base64' | 'is not 32 bytes long' } {
  const value = text.trim();
  const wellFormed = /^[A-Za-z0-9+/_-]+={0,2}$/.test(value) && (value.includes('=') ? value.length % 4 === 0 : value.length % 4 !== 1);
  if (!wellFormed) return { problem: 'is not base64' };
  const key = Buffer.from(value, 'base64');
  return key.length === 32 ? { key } : { problem: 'is not 32 bytes long' };
}

/** The configured key, or the one kept in `file` (generated there, readable by the owner only, on first start). */
export function secretKey(configured: Buffer | undefined, file: string): Buffer {
  if (configured) return configured;
  try {
    const kept = parseSecretKey(readFileSync(file, 'utf8'));
    if ('problem' in kept) throw new Error(`${file} ${kept.problem}: it must hold ${SECRET_KEY_FORM}`);
    return kept.key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw keyFileError(file, 'read', err);
  }
  const key = randomBytes(32);
  // `wx`: two processes starting together never overwrite each other's key; the loser reads the winner's.
  try {
    makeDirectorySync(dirname(file));
    writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return secretKey(undefined, file);
    throw keyFileError(file, 'created', err);
  }
  return key;
}

/**
 * SIMULATION_SECRET_KEY_PREVIOUS's keys, refused when one is the current key (whether configured or kept in its file):
 * the message names the variable and the key's place in the list, never a key.
 */
export function previousSecretKeys(current: Buffer, previous: readonly Buffer[]): Buffer[] {
  const same = previous.findIndex((key) => key.equals(current));
  if (same >= 0) {
    throw new Error(`Invalid configuration:\n  SIMULATION_SECRET_KEY_PREVIOUS: key ${same + 1} of ${previous.length} is the current key (SIMULATION_SECRET_KEY): list only the keys values were sealed under before it`);
  }
  return [...previous];
}

/** A key file that cannot be used (a read-only or foreign directory, a container's working directory): which setting to give. */
function keyFileError(file: string, what: 'read' | 'created', err: unknown): Error {
  return new Error(`Invalid configuration:\n  SIMULATION_SECRET_KEY: not set, and its key file ${file} (SIMULATION_SECRET_KEY_FILE, default DATA_DIR/simulation-secret-key) could not be ${what}: ${(err as Error).message}. Set SIMULATION_SECRET_KEY (32 bytes, base64: openssl rand -base64 32), the same for every instance`, { cause: err });
}

/** Which configured key opens a sealed value: the current one, a previous one, or none (sealed under another key, or not a sealed value). */
export type SealedUnder = 'current' | 'previous' | 'none';

/**
 * A sealed value that no configured key opens: sealed under a key that is not configured any more. Its message, for
 * the operator's log only (it names settings a user of the API has nothing to do with), says which keys were tried,
 * never a key.
 */
export class SealedUnderAnotherKey extends Error {
  constructor(previousKeys: number) {
    const previous = previousKeys > 0 ? `the ${previousKeys} key${previousKeys === 1 ? '' : 's'} of SIMULATION_SECRET_KEY_PREVIOUS` : 'no previous key (SIMULATION_SECRET_KEY_PREVIOUS is not set)';
    super(`sealed under none of the keys configured: tried the current key (SIMULATION_SECRET_KEY, or its key file) and ${previous}`);
  }
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM sealing of connection secrets: `iv (12) | tag (16) | ciphertext`. Values are sealed under the current key
 * (SIMULATION_SECRET_KEY) and opened under it or one of the previous keys (SIMULATION_SECRET_KEY_PREVIOUS) while a
 * rotation re-seals them; GCM's tag makes a value opened under a wrong key fail, never return garbage.
 */
export class SecretBox {
  private readonly keys: readonly Buffer[];

  constructor(key: Buffer, previous: readonly Buffer[] = []) {
    if ([key, ...previous].some((k) => k.length !== 32)) throw new Error('SecretBox needs 32-byte keys');
    this.keys = [key, ...previous];
  }

  /** Previous keys are configured: values sealed under them may remain, to be re-sealed. */
  get rotating(): boolean {
    return this.keys.length > 1;
  }

  seal(value: unknown): Buffer {
    return this.sealPlain(Buffer.from(JSON.stringify(value), 'utf8'));
  }

  private sealPlain(plain: Buffer): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current, iv);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  /** The value, opened under the current key or else the first previous key that opens it; throws SealedUnderAnotherKey when none does. */
  open<T>(sealed: Buffer): T {
    const opened = this.opened(sealed);
    if (!opened) throw new SealedUnderAnotherKey(this.keys.length - 1);
    return JSON.parse(opened.plain.toString('utf8')) as T;
  }

  sealedUnder(sealed: Buffer): SealedUnder {
    return underOf(this.opened(sealed));
  }

  /**
   * Which key the value is under and, when it is a previous one, the value sealed again under the current key (null
   * otherwise): one opening, for the rotation's sweep.
   */
  resealFromPrevious(sealed: Buffer): { under: SealedUnder; resealed: Buffer | null } {
    const opened = this.opened(sealed);
    const under = underOf(opened);
    return { under, resealed: opened && under === 'previous' ? this.sealPlain(opened.plain) : null };
  }

  /** The plaintext and the index of the first configured key that opens the value (0: the current one), or null. */
  private opened(sealed: Buffer): { index: number; plain: Buffer } | null {
    for (const [index, key] of this.keys.entries()) {
      const plain = openUnder(key, sealed);
      if (plain) return { index, plain };
    }
    return null;
  }

  private get current(): Buffer {
    return this.keys[0] as Buffer;
  }
}

function underOf(opened: { index: number } | null): SealedUnder {
  return !opened ? 'none' : opened.index === 0 ? 'current' : 'previous';
}

/** The plaintext, or null when `key` does not open `sealed` (its tag does not verify, or it is too short to be sealed). */
function openUnder(key: Buffer, sealed: Buffer): Buffer | null {
  if (sealed.length < IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
    decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    return null;
  }
}
