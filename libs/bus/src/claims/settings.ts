import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { hostVar, intVar, msVar, portVar, type Logger } from '@pitwall/service-kit';

const KiB = 1024;

/** The claim desk's settings (a service whose answers may be large: the datafile-service), docs/operations.md. */
export const claimDeskSettings = {
  /** Answers up to this many bytes ride the bus inline; larger ones are fetched by claim (default 256 KiB; 0: every answer with a body). */
  CLAIM_INLINE_MAX_BYTES: intVar(256 * KiB, { min: 0 }),
  /** An unredeemed claim is dropped after this (ms, default 30 s), its producer stopped and its bytes freed. */
  CLAIM_TTL_MS: msVar(30_000, { min: 100 }),
  /** Claims waiting at once to be fetched from this instance (default 256); past it a large answer is a 503 with Retry-After. */
  CLAIM_MAX_WAITING: intVar(256),
  /** Internal port the claimed answers are fetched from (default 0: a free port, named in each claim). */
  CLAIM_PORT: portVar(0),
  /** Interface of the internal claim port (default loopback; `0.0.0.0` when the gateways are on other hosts). */
  CLAIM_HOST: hostVar('127.0.0.1'),
  /** Host name the claims give for this instance (default: CLAIM_HOST, or the machine's host name when CLAIM_HOST is a wildcard). */
  CLAIM_ADVERTISE_HOST: z.string().min(1).optional(),
  /** Shared secret of the redemption tokens (HMAC-SHA256, 16+ characters); required when services run as separate processes. */
  CLAIM_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /**
   * During a rotation of CLAIM_SECRET, the former one, still accepted from redeemers (gateways) not yet given the new
   * one; they always sign with their own CLAIM_SECRET (docs/operations.md).
   */
  CLAIM_SECRET_PREVIOUS: z.string().min(16, 'must be at least 16 characters').optional(),
};

/** The redeeming side's settings (the gateway). */
export const claimRedeemerSettings = {
  CLAIM_SECRET: claimDeskSettings.CLAIM_SECRET,
  /** Redeem a claim made in this same process without HTTP (`npm start`); `false` sends even those over the claim port. */
  CLAIM_IN_PROCESS: z.enum(['true', 'false']).default('true'),
};

/** Secrets written in the repository (docker/compose.yaml's default): taken, with a warning at every start. */
export const PUBLISHED_CLAIM_SECRETS: ReadonlySet<string> = new Set(['pitwall-compose-local-claim-secret']);

/** One secret for every desk and redeemer of this process when none is set: enough where they share a process. */
const processSecret = randomBytes(32).toString('base64url');

/**
 * The secret of the redemption tokens: CLAIM_SECRET, else (only when the app shares its process and bus with the
 * others: `npm start`, component tests) one made for this process; an app on its own without it does not start.
 */
export function claimSecret(configured: string | undefined, ownProcess: boolean, app: string, logger?: Pick<Logger, 'warn'>): string {
  if (configured && PUBLISHED_CLAIM_SECRETS.has(configured)) {
    logger?.warn({ app }, 'CLAIM_SECRET is the public default of docker/compose.yaml: anyone who can reach a claim port can redeem its answers with it; set a secret of your own anywhere but a try-out');
  }
  if (configured) return configured;
  if (!ownProcess) return processSecret;
  throw new Error(`Invalid configuration:\n  CLAIM_SECRET: is required when ${app} runs as its own process (16+ characters, the same for every gateway and datafile-service)`);
}
