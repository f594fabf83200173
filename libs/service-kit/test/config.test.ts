import { z } from 'zod';
import { AMQP_URL, POSTGRES_URL, REDIS_URL, hostVar, intVar, listenRefusal, loadConfig, memoryMiB, memoryShareMiBVar, msVar, portVar, prefetchVar, prefixVar, secondsVar, TIMER_MAX_MS, TIMER_MAX_S, urlAddress, urlVar } from '../src/config';

const Config = z.object({
  WINDOW: intVar(1024),
  TIMEOUT_MS: msVar(10_000),
  IDLE_MS: msVar(30_000, { min: 0 }),
  STALL_MS: msVar(500, { min: 100 }),
  PROBE_MS: msVar(1000, { min: 10, max: 600_000 }),
  WAIT_S: secondsVar(60, { min: 0 }),
  TTL_S: secondsVar(900, { max: 7 * 24 * 3600 }),
  RETENTION_DAYS: intVar(30, { min: 0, max: 36_500 }),
  PREFETCH: prefetchVar(64),
  CACHE_MB: memoryShareMiBVar(64),
  PREFIX: prefixVar('pitwall:auth:'),
  HOST: hostVar('0.0.0.0'),
  PORT: portVar(8080),
  STANDIN_PORT: portVar(0, { none: -1 }),
  DATABASE_URL: urlVar(POSTGRES_URL).optional(),
  AMQP_URL: urlVar(AMQP_URL).optional(),
  REDIS_URL: urlVar(REDIS_URL).optional(),
});

const load = (env: Record<string, string>) => loadConfig(Config, env);
/** The message a start stops with, or undefined when the environment is taken. */
const refusal = (env: Record<string, string>): string | undefined => {
  try {
    load(env);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
};

describe('intVar', () => {
  test('when the variable is unset or empty, then it is its default', () => {
    expect(load({ TIMEOUT_MS: '' })).toMatchObject({ TIMEOUT_MS: 10_000, IDLE_MS: 30_000, RETENTION_DAYS: 30 });
  });

  test('when it is 0 and 0 means nothing, then the start stops naming the variable', () => {
    expect(refusal({ WINDOW: '0' })).toBe('Invalid configuration:\n  WINDOW: must be a whole number of 1 or more');
    expect(refusal({ TIMEOUT_MS: '0' })).toBe('Invalid configuration:\n  TIMEOUT_MS: must be a whole number of milliseconds from 1 to 2147483647');
  });

  test('when it is 0 and 0 has a meaning (none, off), then it is taken', () => {
    expect(load({ IDLE_MS: '0', RETENTION_DAYS: '0' })).toMatchObject({ IDLE_MS: 0, RETENTION_DAYS: 0 });
  });

  test.each([
    ['WINDOW', '-5', 'must be a whole number of 1 or more'],
    ['WINDOW', 'ten', 'must be a whole number of 1 or more'],
    ['WINDOW', '1.5', 'must be a whole number of 1 or more'],
    ['RETENTION_DAYS', '36501', 'must be a whole number from 0 to 36500'],
    ['WINDOW', '9007199254740993', 'must be a whole number from 1 to 9007199254740991'],
  ])('when %s is %s, then the start stops naming it and what it takes', (name, value, message) => {
    expect(refusal({ [name]: value })).toBe(`Invalid configuration:\n  ${name}: ${message}`);
  });

  test.each(['0x10', '1e3', '16.0', ' 16', '16 ', '+16', '   ', '\t', '1_000', 'Infinity'])('when a whole number is written %j (not decimal digits alone, or blank), then the start stops naming it: it is not read as a number', (value) => {
    expect(refusal({ WINDOW: value })).toBe('Invalid configuration:\n  WINDOW: must be a whole number of 1 or more');
    expect(refusal({ TIMEOUT_MS: value })).toBe('Invalid configuration:\n  TIMEOUT_MS: must be a whole number of milliseconds from 1 to 2147483647');
  });

  test('when a whole number has leading zeros, then it is its decimal value', () => {
    expect(load({ WINDOW: '0016' }).WINDOW).toBe(16);
  });
});

describe('msVar and secondsVar', () => {
  test('when a duration is at the longest a timer keeps, then it is taken', () => {
    expect(load({ TIMEOUT_MS: String(TIMER_MAX_MS), WAIT_S: String(TIMER_MAX_S) })).toMatchObject({ TIMEOUT_MS: 2_147_483_647, WAIT_S: 2_147_483 });
  });

  test.each([
    ['TIMEOUT_MS', '3000000000', 'must be a whole number of milliseconds from 1 to 2147483647'],
    ['TIMEOUT_MS', '2147483648', 'must be a whole number of milliseconds from 1 to 2147483647'],
    ['IDLE_MS', '-1', 'must be a whole number of milliseconds from 0 to 2147483647'],
    ['STALL_MS', '99', 'must be a whole number of milliseconds from 100 to 2147483647'],
    ['PROBE_MS', '600001', 'must be a whole number of milliseconds from 10 to 600000'],
    ['WAIT_S', '2147484', 'must be a whole number of seconds from 0 to 2147483'],
    ['TTL_S', '604801', 'must be a whole number of seconds from 1 to 604800'],
  ])('when %s is %s (past its bound: a timer would fire at once), then the start stops naming it', (name, value, message) => {
    expect(refusal({ [name]: value })).toBe(`Invalid configuration:\n  ${name}: ${message}`);
  });
});

describe('prefetchVar', () => {
  test('when a prefetch is 65535, then it is taken; past it (AMQP cannot carry it), the start stops naming it', () => {
    expect(load({ PREFETCH: '65535' }).PREFETCH).toBe(65_535);
    expect(refusal({ PREFETCH: '100000' })).toBe("Invalid configuration:\n  PREFETCH: must be a whole number from 1 to 65535 (AMQP's bound on a prefetch)");
  });
});

describe('memoryShareMiBVar', () => {
  test('when a cache would take more than half of the memory, then the start stops naming it and the bound', () => {
    const half = Math.floor(memoryMiB() / 2);
    expect(load({ CACHE_MB: String(half) }).CACHE_MB).toBe(half);
    expect(refusal({ CACHE_MB: '99999999' })).toBe(`Invalid configuration:\n  CACHE_MB: must be a whole number of MiB from 0 to ${half} (half of the ${memoryMiB()} MiB this machine or container has)`);
  });
});

describe('prefixVar', () => {
  test('when a prefix is unset, then it is its default; when set, it is taken', () => {
    expect(load({}).PREFIX).toBe('pitwall:auth:');
    expect(load({ PREFIX: 'team-a:' }).PREFIX).toBe('team-a:');
  });

  test.each(['', '  '])('when a prefix is set to %j, then the start stops naming it (the shared default is not taken in its place)', (value) => {
    expect(refusal({ PREFIX: value })).toBe('Invalid configuration:\n  PREFIX: must not be empty or blank (unset, it is pitwall:auth:)');
  });

  test('when another setting is set empty, then it is unset (compose passes ${NAME:-})', () => {
    expect(load({ WINDOW: '', HOST: '' })).toMatchObject({ WINDOW: 1024, HOST: '0.0.0.0' });
  });
});

describe('hostVar', () => {
  test.each(['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost', 'gateway.internal', 'my-host.'])('when it is %s, then it is taken', (value) => {
    expect(load({ HOST: value }).HOST).toBe(value);
  });

  test.each(['999.1.1.1', '300.1.1.1', '1.2.3', '10.0.0.256'])('when it is %s (a number that is not an IPv4 address), then the start stops naming it', (value) => {
    expect(refusal({ HOST: value })).toBe('Invalid configuration:\n  HOST: is not a valid IPv4 address (four numbers from 0 to 255); it must be an address of this machine such as 127.0.0.1, 0.0.0.0 or ::, or a name of one');
  });

  test.each(['not a host', 'http://x', ' ', 'a..b'])('when it is %j, then the start stops naming it', (value) => {
    expect(refusal({ HOST: value })).toBe('Invalid configuration:\n  HOST: is not a host name or an IP address; it must be an address of this machine such as 127.0.0.1, 0.0.0.0 or ::, or a name of one');
  });
});

describe('listenRefusal', () => {
  const failure = (code: string) => Object.assign(new Error(`getaddrinfo ${code} not-a-host`), { code });
  test('when the host is not found or not this machine\'s, then it names the host variable, not the value', () => {
    for (const code of ['ENOTFOUND', 'EADDRNOTAVAIL']) {
      const message = listenRefusal(failure(code), { port: 'HEALTH_PORT', host: 'HEALTH_HOST' }).message;
      expect(message).toBe(`Invalid configuration:\n  HEALTH_HOST: is not an address of this machine (${code}); it must be one such as 127.0.0.1, 0.0.0.0 or ::, or a name of one`);
    }
  });

  test('when the port is taken, then it names the port variable', () => {
    expect(listenRefusal(failure('EADDRINUSE'), { port: 'PORT', host: 'HOST' }).message).toBe('Invalid configuration:\n  PORT: is already in use on the HOST interface (EADDRINUSE); choose another port, or 0 for a free one');
  });
});

describe('portVar', () => {
  test('when a port is 0 or 65535, then it is taken (0: a free one)', () => {
    expect(load({ PORT: '0', STANDIN_PORT: '65535' })).toMatchObject({ PORT: 0, STANDIN_PORT: 65535 });
  });

  test('when a port may be off and is -1, then it is taken', () => {
    expect(load({ STANDIN_PORT: '-1' })).toMatchObject({ STANDIN_PORT: -1 });
  });

  test.each([
    ['PORT', '70000', 'must be a port number from 0 (a free one) to 65535'],
    ['PORT', '-1', 'must be a port number from 0 (a free one) to 65535'],
    ['PORT', 'http', 'must be a port number from 0 (a free one) to 65535'],
    ['PORT', 'abc', 'must be a port number from 0 (a free one) to 65535'],
    ['PORT', '0x50', 'must be a port number from 0 (a free one) to 65535'],
    ['STANDIN_PORT', '-2', 'must be a port number from 0 (a free one) to 65535, or -1 (none)'],
  ])('when %s is %s, then the start stops naming it', (name, value, message) => {
    expect(refusal({ [name]: value })).toBe(`Invalid configuration:\n  ${name}: ${message}`);
  });
});

describe('urlVar', () => {
  test('when each URL has a scheme of its kind, then they are taken as given', () => {
    const env = { DATABASE_URL: 'postgresql://u:p@db:5432/pitwall', AMQP_URL: 'amqps://u:p@mq/vhost?heartbeat=10', REDIS_URL: 'rediss://cache:6380/0' };
    expect(load(env)).toMatchObject(env);
    expect(load({ DATABASE_URL: 'postgres:///pitwall?host=/var/run/postgresql' }).DATABASE_URL).toBe('postgres:///pitwall?host=/var/run/postgresql');
  });

  test('when AMQP_URL is not a URL, then the start stops naming it and the URL it takes', () => {
    expect(refusal({ AMQP_URL: 'notaurl' })).toBe('Invalid configuration:\n  AMQP_URL: is not a URL; it must be an amqp:// or amqps:// URL such as amqp://user:password@host:5672');
  });

  test.each([
    ['DATABASE_URL', 'mysql://x:secret@y/z', 'must be a postgres:// or postgresql:// URL such as postgres://user:password@host:5432/database'],
    ['REDIS_URL', 'memcached://x:secret@y:11211', 'must be a redis:// or rediss:// URL such as redis://host:6379'],
    ['AMQP_URL', 'http://x:secret@y:15672', 'must be an amqp:// or amqps:// URL such as amqp://user:password@host:5672'],
  ])('when %s has another scheme, then the start stops naming it', (name, value, message) => {
    expect(refusal({ [name]: value })).toBe(`Invalid configuration:\n  ${name}: ${message}`);
  });

  test('when a refused URL holds a password, then the message does not repeat it', () => {
    for (const value of ['mysql://admin:s3cr3t@db/x', 'admin:s3cr3t@db:5432/x', 'postgres//admin:s3cr3t@db']) {
      const message = refusal({ DATABASE_URL: value });
      expect(message).toMatch(/^Invalid configuration:\n {2}DATABASE_URL: /);
      expect(message).not.toContain('s3cr3t');
      expect(message).not.toContain('admin');
    }
  });
});

describe('urlAddress', () => {
  test('when a URL holds a user and password, then the address is its scheme, host and port alone', () => {
    expect(urlAddress('redis://default:s3cr3t@cache.internal:6380/2')).toBe('redis://cache.internal:6380');
  });

  test('when the value is not a URL, then nothing of it is repeated', () => {
    expect(urlAddress('default:s3cr3t')).not.toContain('s3cr3t');
  });
});
