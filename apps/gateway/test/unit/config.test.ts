import { startRefusal } from '@pitwall/service-host/testing';
import { gateway } from '../../src/definition';

const start = (env: Record<string, string>) => startRefusal(gateway, env);

describe('the gateway refuses a setting that cannot work, naming it', () => {
  test.each([
    ['BUS_TIMEOUT_MS', '0', 'must be a whole number of 1 or more'],
    ['DATAFILE_READS_PER_USER', '0', 'must be a whole number of 1 or more'],
    ['PORT', '70000', 'must be a port number from 0 (a free one) to 65535'],
    ['REDIS_URL', 'memcached://cache:11211', 'must be a redis:// or rediss:// URL such as redis://host:6379'],
    ['HTTP_MAX_CONNECTIONS', '-1', 'must be a whole number of 0 or more'],
    ['RESPONSE_COMPRESSION', 'gzip', 'must be on or off'],
    ['RESPONSE_COMPRESSION_MIN_BYTES', '8kb', 'must be a whole number of 0 or more'],
  ])('when %s is %s, then the start stops with a message naming it', async (name, value, message) => {
    expect(await start({ [name]: value })).toBe(`Invalid configuration:\n  ${name}: ${message}`);
  });
});
