import { startRefusal } from '@pitwall/service-host/testing';
import { timingService } from '../../src/definition';

const start = (env: Record<string, string>) => startRefusal(timingService, env);

describe('the timing-service refuses a setting that cannot work, naming it', () => {
  test('when TIMING_BATCHES_IN_FLIGHT is 0, then the start stops with a message naming it (it is not taken as 1)', async () => {
    expect(await start({ TIMING_BATCHES_IN_FLIGHT: '0' })).toBe('Invalid configuration:\n  TIMING_BATCHES_IN_FLIGHT: must be a whole number of 1 or more');
  });

  test.each(['0', '1001'])('when TIMING_BATCH_MAX is %s, then the start stops naming it (past 1000 the entity-service refuses the batch command, so every update would be a 400)', async (value) => {
    expect(await start({ TIMING_BATCH_MAX: value })).toBe('Invalid configuration:\n  TIMING_BATCH_MAX: must be a whole number from 1 to 1000');
  });

  test.each(['0', String(60 * 1024 * 1024 + 1)])('when TIMING_BATCH_MAX_BYTES is %s, then the start stops naming it (past 60 MiB a batch beside one update of the largest BODY_LIMIT could pass the broker\'s 128 MiB)', async (value) => {
    expect(await start({ TIMING_BATCH_MAX_BYTES: value })).toBe(`Invalid configuration:\n  TIMING_BATCH_MAX_BYTES: must be a whole number from 1 to ${60 * 1024 * 1024}`);
  });

  test('when TIMING_BATCH_MAX is 1000, then it starts', async () => {
    expect(await start({ TIMING_BATCH_MAX: '1000', TIMING_PARTITIONS: '1' })).toBe('started');
  });

  test.each(['0', '65536', '100000'])('when TIMING_PARTITION_PREFETCH is %s, then the start stops naming it (past 65535 RabbitMQ cannot take it: the bus would never connect)', async (value) => {
    expect(await start({ TIMING_PARTITION_PREFETCH: value })).toBe("Invalid configuration:\n  TIMING_PARTITION_PREFETCH: must be a whole number from 1 to 65535 (AMQP's bound on a prefetch)");
  });

  test('when TIMING_PARTITION_PREFETCH is 65535, then it starts', async () => {
    expect(await start({ TIMING_PARTITION_PREFETCH: '65535', TIMING_PARTITIONS: '1' })).toBe('started');
  });

  test('when TIMING_COMPANY_WAIT_MS is 0 (never waits), then it starts; negative or past a timer\'s longest, then the start stops naming it', async () => {
    expect(await start({ TIMING_COMPANY_WAIT_MS: '0', TIMING_BATCH_MAX: '1', TIMING_BATCHES_IN_FLIGHT: '1', TIMING_PARTITION_PREFETCH: '1' })).toBe('started');
    expect(await start({ TIMING_COMPANY_WAIT_MS: '-1' })).toBe('Invalid configuration:\n  TIMING_COMPANY_WAIT_MS: must be a whole number of milliseconds from 0 to 2147483647');
    expect(await start({ TIMING_COMPANY_WAIT_MS: '3000000000' })).toBe('Invalid configuration:\n  TIMING_COMPANY_WAIT_MS: must be a whole number of milliseconds from 0 to 2147483647');
  });
});
