import { OPERATIONS } from '@pitwall/contracts';
import { TIMER_MAX_MS } from '@pitwall/service-kit';
import { commandTimeoutMs } from '../../src/entry-points/http/operation-routes';

const write = OPERATIONS.find((op) => op.method === 'put' && op.busTimeoutMs === undefined);
const MiB = 1024 * 1024;

describe("a write's wait for its service (BUS_TIMEOUT_MS plus BUS_TIMEOUT_MS_PER_MB per MiB of its body)", () => {
  test('when the body is 2 MiB, then it waits the base plus twice the per-MiB time', () => {
    expect(commandTimeoutMs(write as NonNullable<typeof write>, 2 * MiB, { baseMs: 10_000, perMbMs: 60_000 })).toBe(130_000);
  });

  test('when the sum passes the longest a timer keeps, then it is that longest (past it the timer would fire at once: a 504 for every big write)', () => {
    expect(commandTimeoutMs(write as NonNullable<typeof write>, 64 * MiB, { baseMs: TIMER_MAX_MS, perMbMs: TIMER_MAX_MS })).toBe(TIMER_MAX_MS);
  });
});
