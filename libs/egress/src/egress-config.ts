import { z } from 'zod';
import { intVar, msVar } from '@pitwall/service-kit';
import { AllowListError, parseAllowList } from './address-policy';
import type { EgressSettings } from './egress-client';

/** The outbound limits, for the config schema of every app that sends requests to user-typed addresses. */
export const EgressConfig = z.object({
  /** Hosts, addresses and CIDR ranges (each with an optional :port) outside public unicast that may be reached; none by default. */
  EGRESS_ALLOW: z
    .string()
    .default('')
    .superRefine((value, ctx) => {
      try {
        parseAllowList(value);
      } catch (err) {
        if (!(err instanceof AllowListError)) throw err;
        // loadConfig names the variable itself.
        ctx.addIssue({ code: 'custom', message: err.message.replace(/^EGRESS_ALLOW: /, '') });
      }
    }),
  /** Bytes of an answer's body read at most (64 KiB); past them the connection is closed. */
  EGRESS_MAX_RESPONSE_BYTES: intVar(64 * 1024),
  /** Time to resolve a host and connect to it. */
  EGRESS_CONNECT_TIMEOUT_MS: msVar(5000),
  /** The longest one outbound request may take, its answer read included. */
  EGRESS_TIMEOUT_MS: msVar(30000),
});
export type EgressConfig = z.infer<typeof EgressConfig>;

export const egressSettings = (config: EgressConfig): EgressSettings => ({
  allow: config.EGRESS_ALLOW,
  maxResponseBytes: config.EGRESS_MAX_RESPONSE_BYTES,
  connectTimeoutMs: config.EGRESS_CONNECT_TIMEOUT_MS,
  timeoutMs: config.EGRESS_TIMEOUT_MS,
});
