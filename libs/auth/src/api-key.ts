import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';

/** The only form the official wrappers send: a canonical lower-case hyphenated version-4 GUID. */
const API_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function isApiKey(value: string): boolean {
  return API_KEY.test(value);
}

export function generateApiKey(): string {
  return randomUUID();
}

/**
 * SHA-256 of the key. A slow password hash (bcrypt, scrypt) exists to make guessing low-entropy secrets
 * expensive; a v4 GUID carries 122 random bits, far beyond brute force, so a fast hash loses nothing and keeps
 * every authenticated request cheap. The digest also makes a lookup key that never reveals the secret.
 */
export function hashApiKey(apiKey: string): Buffer {
  return createHash('sha256').update(apiKey, 'utf8').digest();
}

/** Constant-time comparison of two digests, so response timing says nothing about how much of a key matched. */
export function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
