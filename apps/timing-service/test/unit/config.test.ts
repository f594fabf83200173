import { startRefusal } from '@pitwall/service-host/testing';
import { timingService } from '../../src/definition';

const start = (env: Record<string, string>) => startRefusal(timingService, env);

describe('the timing-service refuses a setting that cannot work, naming it', () => {
  test.each(['TIMING_PARTITION_PREFETCH', 'TIMING_BATCH_MAX', 'TIMING_BATCHES_IN_FLIGHT'])('when %s is 0, then the start stops with a message naming it (it is not taken as 1)', async (name) => {
    expect(await start({ [name]: '0' })).toBe(`Invalid configuration:\n  ${name}: must be a whole number of 1 or more`);
  });

  test('when TIMING_COMPANY_WAIT_MS is 0 (never waits), then it starts; negative, then the start stops naming it', async () => {
    expect(await start({ TIMING_COMPANY_WAIT_MS: '0', TIMING_BATCH_MAX: '1', TIMING_BATCHES_IN_FLIGHT: '1', TIMING_PARTITION_PREFETCH: '1' })).toBe('started');
    expect(await start({ TIMING_COMPANY_WAIT_MS: '-1' })).toBe('Invalid configuration:\n  TIMING_COMPANY_WAIT_MS: must be a whole number of 0 or more');
  });
});
