import { z } from 'zod';
import { AMQP_URL, POSTGRES_URL, REDIS_URL, intVar, loadConfig, portVar, urlAddress, urlVar } from '../src/config';

const Config = z.object({
  TIMEOUT_MS: intVar(10_000),
  IDLE_MS: intVar(30_000, { min: 0 }),
  STALL_MS: intVar(500, { min: 100 }),
  RETENTION_DAYS: intVar(30, { min: 0, max: 36_500 }),
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
    expect(refusal({ TIMEOUT_MS: '0' })).toBe('Invalid configuration:\n  TIMEOUT_MS: must be a whole number of 1 or more');
  });

  test('when it is 0 and 0 has a meaning (none, off), then it is taken', () => {
    expect(load({ IDLE_MS: '0', RETENTION_DAYS: '0' })).toMatchObject({ IDLE_MS: 0, RETENTION_DAYS: 0 });
  });

  test.each([
    ['TIMEOUT_MS', '-5', 'must be a whole number of 1 or more'],
    ['TIMEOUT_MS', 'ten', 'must be a whole number of 1 or more'],
    ['IDLE_MS', '1.5', 'must be a whole number of 0 or more'],
    ['STALL_MS', '99', 'must be a whole number of 100 or more'],
    ['RETENTION_DAYS', '36501', 'must be a whole number from 0 to 36500'],
  ])('when %s is %s, then the start stops naming it and what it takes', (name, value, message) => {
    expect(refusal({ [name]: value })).toBe(`Invalid configuration:\n  ${name}: ${message}`);
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
