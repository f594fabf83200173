import type { z } from 'zod';
import { intVar, msVar } from '@pitwall/service-kit';
import type { RedisCacheOptions } from './redis-cache';

/** The Redis cache's timeouts and circuit breaker, spread into the config schema of an app that sets REDIS_URL. */
export const redisCacheSettings = {
  /** Longest a Redis command may take before it fails and counts against the breaker (default 500 ms). */
  REDIS_COMMAND_TIMEOUT_MS: msVar(500, { min: 10, max: 60_000 }),
  /** Longest a connection attempt to Redis may take (default 1000 ms). */
  REDIS_CONNECT_TIMEOUT_MS: msVar(1000, { min: 10, max: 60_000 }),
  /** Failed commands in a row that open the breaker: Redis is then bypassed at once (default 3). */
  REDIS_BREAKER_FAILURES: intVar(3, { max: 1000 }),
  /** While the breaker is open, how often Redis is probed to notice its return (default 1000 ms). */
  REDIS_BREAKER_PROBE_MS: msVar(1000, { min: 10, max: 600_000 }),
};

export type RedisCacheSettings = { [K in keyof typeof redisCacheSettings]: z.infer<(typeof redisCacheSettings)[K]> };

/** `RedisCacheOptions` from settings an app already parsed (its config spreads `redisCacheSettings`). */
export function redisCacheOptions(c: RedisCacheSettings): Pick<RedisCacheOptions, 'commandTimeoutMs' | 'connectTimeoutMs' | 'breakerFailures' | 'breakerProbeMs'> {
  return { commandTimeoutMs: c.REDIS_COMMAND_TIMEOUT_MS, connectTimeoutMs: c.REDIS_CONNECT_TIMEOUT_MS, breakerFailures: c.REDIS_BREAKER_FAILURES, breakerProbeMs: c.REDIS_BREAKER_PROBE_MS };
}
