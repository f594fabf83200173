import { z } from 'zod';
import { defineService } from '../../src';
import { startRefusal } from '../../src/testing';

// A service that needs nothing but the settings every service reads.
const plain = defineService({ name: 'plain-service', config: z.object({}), build: async () => ({}) });

describe('the settings every service reads', () => {
  test.each([
    ['BUS_TIMEOUT_MS', '0', 'must be a whole number of 1 or more'],
    ['BUS_PUBLISH_WINDOW', '0', 'must be a whole number of 1 or more'],
    ['SERVICE_PRESENCE_INTERVAL_MS', '10', 'must be a whole number of 50 or more'],
    ['STARTUP_WAIT_S', '-1', 'must be a whole number of 0 or more'],
    ['HEALTH_PORT', '70000', 'must be a port number from 0 (a free one) to 65535'],
    ['AMQP_URL', 'notaurl', 'is not a URL; it must be an amqp:// or amqps:// URL such as amqp://user:password@host:5672'],
    ['DATABASE_URL', 'mysql://root:hunter2@db/pitwall', 'must be a postgres:// or postgresql:// URL such as postgres://user:password@host:5432/database'],
  ])('when %s is %s, then the start stops with a message naming it', async (name, value, message) => {
    expect(await startRefusal(plain, { [name]: value })).toBe(`Invalid configuration:\n  ${name}: ${message}`);
  });

  test('when DATABASE_URL is refused, then the message does not repeat its password', async () => {
    expect(await startRefusal(plain, { DATABASE_URL: 'mysql://root:hunter2@db/pitwall' })).not.toContain('hunter2');
  });

  test('when the settings are good, then the service starts', async () => {
    expect(await startRefusal(plain, { BUS_TIMEOUT_MS: '1', STARTUP_WAIT_S: '0', HEALTH_PORT: '0' })).toBe('started');
  });
});
