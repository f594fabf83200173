import { startRefusal } from '@pitwall/service-host/testing';
import { datafileService } from '../../src/definition';

const start = (env: Record<string, string>) => startRefusal(datafileService, env);

describe('the datafile-service refuses a setting that cannot work, naming it', () => {
  test.each([
    ['DATAFILE_READ_TIMEOUT_MS', '0', 'must be a whole number of 1 or more'],
    ['READ_SAMPLE_BUDGET', '0', 'must be a whole number of 1 or more'],
    ['DATAFILE_CACHE_BYTES', '0', 'must be a whole number of 1 or more'],
    ['CLAIM_TTL_MS', '50', 'must be a whole number of 100 or more'],
    ['CLAIM_PORT', '65536', 'must be a port number from 0 (a free one) to 65535'],
  ])('when %s is %s, then the start stops with a message naming it', async (name, value, message) => {
    expect(await start({ [name]: value })).toBe(`Invalid configuration:\n  ${name}: ${message}`);
  });
});
