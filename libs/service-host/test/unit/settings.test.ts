import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { z } from 'zod';
import { hostVar, portVar } from '@pitwall/service-kit';
import { defineService } from '../../src';
import { startRefusal } from '../../src/testing';

// A service that needs nothing but the settings every service reads.
const plain = defineService({ name: 'plain-service', config: z.object({}), build: async () => ({}) });
// One with a worker pool, whose bundle is looked for in WORKER_DIR.
const pooled = defineService({ name: 'pooled-service', config: z.object({}), pools: [{ name: 'shape', entry: 'shape.worker.entry.js' }], build: async () => ({}) });

// One with a public HTTP entry (as the gateway): PORT and HOST.
const public_ = defineService({
  name: 'public-service',
  config: z.object({ PORT: portVar(0), HOST: hostVar('0.0.0.0') }),
  build: async () => ({}),
  http: { port: (c) => c.PORT, host: (c) => c.HOST, app: () => express() },
});

const MS = 'must be a whole number of milliseconds from';

describe('the settings every service reads', () => {
  test.each([
    ['BUS_TIMEOUT_MS', '0', `${MS} 1 to 2147483647`],
    ['BUS_PUBLISH_WINDOW', '0', 'must be a whole number of 1 or more'],
    ['SERVICE_PRESENCE_INTERVAL_MS', '10', `${MS} 50 to 60000`],
    ['STARTUP_WAIT_S', '-1', 'must be a whole number of seconds from 0 to 2147483'],
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

  describe('a duration past the longest a timer keeps (2147483647 ms: it would fire after 1 ms)', () => {
    test.each([
      ['BUS_TIMEOUT_MS', '3000000000', `${MS} 1 to 2147483647`],
      ['SERVICE_PRESENCE_INTERVAL_MS', '3000000000', `${MS} 50 to 60000`],
      ['DB_STATEMENT_TIMEOUT_MS', '3000000000', `${MS} 0 to 2147483647`],
      ['DB_IDLE_IN_TRANSACTION_TIMEOUT_MS', '2147483648', `${MS} 0 to 2147483647`],
      ['STARTUP_WAIT_S', '2147484', 'must be a whole number of seconds from 0 to 2147483'],
    ])('when %s is %s, then the start stops naming it (not a timer that fires at once, nor PostgreSQL\'s own error)', async (name, value, message) => {
      expect(await startRefusal(plain, { [name]: value })).toBe(`Invalid configuration:\n  ${name}: ${message}`);
    });
  });

  describe('a number not written in decimal digits', () => {
    test.each(['0x10', '   ', '1e4', '10_000'])('when BUS_TIMEOUT_MS is %j, then the start stops naming it (it is not read as a number)', async (value) => {
      expect(await startRefusal(plain, { BUS_TIMEOUT_MS: value })).toBe(`Invalid configuration:\n  BUS_TIMEOUT_MS: ${MS} 1 to 2147483647`);
    });
  });

  describe('the bounds of a request\'s lists (MAX_*), read by the contracts', () => {
    test.each(['-3', '0', '1.5', 'lots', '0x10'])('when MAX_PARAMETER_UPDATES is %s, then the start stops with the named refusal every setting has, without the value', async (value) => {
      const message = await startRefusal(plain, { MAX_PARAMETER_UPDATES: value });
      expect(message).toBe('Invalid configuration:\n  MAX_PARAMETER_UPDATES: must be a whole number of 1 or more');
    });
  });

  describe('a name prefix', () => {
    test.each(['', ' '])('when BUS_PREFIX is %j, then the start stops naming it (the shared default is not taken in its place)', async (value) => {
      expect(await startRefusal(plain, { BUS_PREFIX: value })).toBe('Invalid configuration:\n  BUS_PREFIX: must not be empty or blank (unset, it is pitwall.)');
    });
  });

  describe('the health port\'s interface and port', () => {
    test('when HEALTH_HOST is a number that is not an IPv4 address, then the start stops naming it', async () => {
      expect(await startRefusal(plain, { HEALTH_HOST: '999.1.1.1' })).toBe(
        'Invalid configuration:\n  HEALTH_HOST: is not a valid IPv4 address (four numbers from 0 to 255); it must be an address of this machine such as 127.0.0.1, 0.0.0.0 or ::, or a name of one',
      );
    });

    test('when HEALTH_HOST is a name that does not resolve, then the start stops naming it, not "getaddrinfo ENOTFOUND" alone', async () => {
      expect(await startRefusal(plain, { HEALTH_HOST: 'nohost.invalid' })).toMatch(/^Invalid configuration:\n {2}HEALTH_HOST: is not an address of this machine \((ENOTFOUND|EAI_AGAIN)\); it must be one such as 127\.0\.0\.1, 0\.0\.0\.0 or ::, or a name of one$/);
    });

    test('when HEALTH_HOST is an address of another machine, then the start stops naming it', async () => {
      expect(await startRefusal(plain, { HEALTH_HOST: '192.0.2.1' })).toBe('Invalid configuration:\n  HEALTH_HOST: is not an address of this machine (EADDRNOTAVAIL); it must be one such as 127.0.0.1, 0.0.0.0 or ::, or a name of one');
    });

    test('when HEALTH_PORT is taken, then the start stops naming it', async () => {
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = taken.address() as { port: number };
        expect(await startRefusal(plain, { HEALTH_PORT: String(port) })).toBe('Invalid configuration:\n  HEALTH_PORT: is already in use on the HEALTH_HOST interface (EADDRINUSE); choose another port, or 0 for a free one');
      } finally {
        await new Promise((resolve) => taken.close(resolve));
      }
    });
  });

  describe("the public entry's interface and port (the gateway's HOST and PORT)", () => {
    test.each(['not-a-host', 'nohost.invalid'])('when HOST is %s, a name that resolves to no address of this machine, then the start stops naming HOST, not "getaddrinfo ENOTFOUND" alone', async (value) => {
      expect(await startRefusal(public_, { HOST: value })).toMatch(/^Invalid configuration:\n {2}HOST: is not an address of this machine \((ENOTFOUND|EAI_AGAIN)\); it must be one such as 127\.0\.0\.1, 0\.0\.0\.0 or ::, or a name of one$/);
    });

    test('when PORT is taken, then the start stops naming it', async () => {
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '0.0.0.0', resolve));
      try {
        const { port } = taken.address() as { port: number };
        expect(await startRefusal(public_, { PORT: String(port) })).toBe('Invalid configuration:\n  PORT: is already in use on the HOST interface (EADDRINUSE); choose another port, or 0 for a free one');
      } finally {
        await new Promise((resolve) => taken.close(resolve));
      }
    });
  });

  describe('WORKER_DIR', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pitwall-worker-dir-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    test('when it holds no bundle of the service\'s worker pool, then the start stops naming it, not "Cannot find module" at the first read', async () => {
      expect(await startRefusal(pooled, { WORKER_DIR: join(dir, 'nonexistent') })).toBe(
        "Invalid configuration:\n  WORKER_DIR: holds no shape.worker.entry.js (the bundle of the shape worker pool); it must be the folder the build writes it to, beside the app's main.js",
      );
    });

    test('when it holds the bundle, then the service starts', async () => {
      writeFileSync(join(dir, 'shape.worker.entry.js'), 'module.exports = () => undefined;\n');
      expect(await startRefusal(pooled, { WORKER_DIR: dir })).toBe('started');
    });
  });
});
