import { startRefusal } from '@pitwall/service-host/testing';
import { gateway } from '../../src/definition';

const start = (env: Record<string, string>) => startRefusal(gateway, env);

describe('the gateway refuses a setting that cannot work, naming it', () => {
  test.each([
    ['BUS_TIMEOUT_MS', '0', 'must be a whole number of milliseconds from 1 to 2147483647'],
    ['BUS_TIMEOUT_MS', '3000000000', 'must be a whole number of milliseconds from 1 to 2147483647'],
    ['BUS_TIMEOUT_MS', '0x10', 'must be a whole number of milliseconds from 1 to 2147483647'],
    ['BUS_TIMEOUT_MS_PER_MB', '   ', 'must be a whole number of milliseconds from 0 to 2147483647'],
    ['RESPONSE_IDLE_TIMEOUT_MS', '3000000000', 'must be a whole number of milliseconds from 0 to 2147483647'],
    ['BODY_IDLE_TIMEOUT_MS', '2147483648', 'must be a whole number of milliseconds from 0 to 2147483647'],
    ['REDIS_COMMAND_TIMEOUT_MS', '3000000000', 'must be a whole number of milliseconds from 10 to 60000'],
    ['DATAFILE_READS_PER_USER', '0', 'must be a whole number of 1 or more'],
    ['TIMING_PARTITIONS', '0x10', 'must be a whole number from 1 to 1024'],
    ['PORT', '70000', 'must be a port number from 0 (a free one) to 65535'],
    ['PORT', 'abc', 'must be a port number from 0 (a free one) to 65535'],
    ['REDIS_URL', 'memcached://cache:11211', 'must be a redis:// or rediss:// URL such as redis://host:6379'],
    ['REDIS_PREFIX', '', 'must not be empty or blank (unset, it is pitwall:auth:)'],
    ['HTTP_MAX_CONNECTIONS', '-1', 'must be a whole number of 0 or more'],
    ['RESPONSE_COMPRESSION', 'gzip', 'must be on or off'],
    ['RESPONSE_COMPRESSION_MIN_BYTES', '8kb', 'must be a whole number of 0 or more'],
    ['BODY_LIMIT', '0mb', 'must be a size from 1b to 64mb in b, kb or mb, such as 1mb or 512kb'],
    ['BODY_LIMIT', '65mb', 'must be a size from 1b to 64mb in b, kb or mb, such as 1mb or 512kb'],
    ['BODY_LIMIT', '1gb', 'must be a size from 1b to 64mb in b, kb or mb, such as 1mb or 512kb'],
    ['BODY_LIMIT', ' 1mb', 'must be a size from 1b to 64mb in b, kb or mb, such as 1mb or 512kb'],
    ['UPLOAD_URL_TTL_S', '604801', 'must be a whole number of seconds from 1 to 604800'],
    ['HOST', '999.1.1.1', 'is not a valid IPv4 address (four numbers from 0 to 255); it must be an address of this machine such as 127.0.0.1, 0.0.0.0 or ::, or a name of one'],
    ['HOST', 'not a host', 'is not a host name or an IP address; it must be an address of this machine such as 127.0.0.1, 0.0.0.0 or ::, or a name of one'],
  ])('when %s is %j, then the start stops with a message naming it', async (name, value, message) => {
    expect(await start({ [name]: value })).toBe(`Invalid configuration:\n  ${name}: ${message}`);
  });

  // startRefusal gives no database (one that refuses at once): a start that reached it took every setting.
  test.each(['64mb', '512KB', '1b'])('when BODY_LIMIT is %s, then it is taken (the start goes on to its database)', async (value) => {
    expect(await start({ BODY_LIMIT: value })).toMatch(/^the database did not answer within STARTUP_WAIT_S/);
  });
});
