import { availableParallelism } from 'node:os';
import type { z } from 'zod';
import { datafileService } from '@pitwall/datafile-service';
import { entityService } from '@pitwall/entity-service';
import { gateway } from '@pitwall/gateway';
import { BaseServiceConfig, type ServiceDefinition } from '@pitwall/service-host';
import { simulationService } from '@pitwall/simulation-service';
import { loadConfig, memoryMiB } from '@pitwall/service-kit';
import { timingService } from '@pitwall/timing-service';
import { checkSettings } from '../src/compose';
import { Config as StandaloneConfig } from '../src/main';

// Every setting of every app, as each app's start reads them: its own schema merged with the ones every service reads.
const definitions: ServiceDefinition[] = [gateway, entityService, timingService, simulationService, datafileService];
const schemas: [string, z.ZodObject][] = [...definitions.map((d): [string, z.ZodObject] => [d.name, d.config ? BaseServiceConfig.extend(d.config.shape) : BaseServiceConfig]), ['standalone', StandaloneConfig]];

/** `[variable, app, schema]` for every setting of every app whose name matches. */
const settings = (name: RegExp) => schemas.flatMap(([app, schema]) => Object.keys(schema.shape).filter((key) => name.test(key)).map((key) => [key, app, schema] as const));
/** The message an app's start stops with for `env`, or undefined when it takes it. */
function refusal(schema: z.ZodObject, env: Record<string, string>): string | undefined {
  try {
    loadConfig(schema, env);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}
/** The settings whose default is a number: every whole-number setting. */
const wholeNumbers = settings(/./).filter(([key, , schema]) => typeof (loadConfig(schema, {}) as Record<string, unknown>)[key] === 'number');

describe('every setting of every app (docs/operations.md#configuration)', () => {
  test('there are the settings this sweep means to cover', () => {
    expect(settings(/_MS$/).length).toBeGreaterThan(30);
    expect(settings(/_S$/).length).toBeGreaterThan(5);
    expect(wholeNumbers.length).toBeGreaterThan(80);
  });

  test.each(settings(/_MS$/))('%s (%s), in milliseconds, past 2147483647 (a timer would fire after 1 ms): the start stops naming it and its bounds', (key, _app, schema) => {
    expect(refusal(schema, { [key]: '2147483648' })).toMatch(new RegExp(`^Invalid configuration:\\n {2}${key}: must be a whole number of milliseconds from \\d+ to \\d+$`));
  });

  test.each(settings(/_S$/))('%s (%s), in seconds, past 2147483 (the same timers): the start stops naming it and its bounds', (key, _app, schema) => {
    expect(refusal(schema, { [key]: '2147484' })).toMatch(new RegExp(`^Invalid configuration:\\n {2}${key}: must be a whole number of seconds from \\d+ to \\d+$`));
  });

  test.each(settings(/PREFETCH/))('%s (%s), a prefetch, past 65535 (AMQP cannot carry it): the start stops naming it', (key, _app, schema) => {
    expect(refusal(schema, { [key]: '65536' })).toMatch(new RegExp(`^Invalid configuration:\\n {2}${key}: must be a whole number from 1 to 65535`));
  });

  test.each(wholeNumbers)('%s (%s), a whole number, written other than in decimal digits (0x10, 1e3) or blank: the start stops naming it', (key, _app, schema) => {
    for (const value of ['0x10', '1e3', '   ', ' 16', '16.0']) expect([value, refusal(schema, { [key]: value })]).toEqual([value, expect.stringMatching(new RegExp(`^Invalid configuration:\\n {2}${key}: must be `))]);
  });

  test('READ_CACHE_MB (entity-service) above half of the memory of this machine or container: the start stops naming it and the bound', () => {
    const [, , schema] = settings(/^READ_CACHE_MB$/)[0] as (typeof wholeNumbers)[number];
    const half = Math.floor(memoryMiB() / 2);
    expect(refusal(schema, { READ_CACHE_MB: String(half) })).toBeUndefined();
    expect(refusal(schema, { READ_CACHE_MB: '99999999' })).toBe(`Invalid configuration:\n  READ_CACHE_MB: must be a whole number of MiB from 0 to ${half} (half of the ${memoryMiB()} MiB this machine or container has)`);
  });

  test.each(settings(/^(DATAFILE_CHANNEL_CACHE_BYTES|DATAFILE_RESULT_CACHE_BYTES|DATAFILE_SCRATCH_BYTES|HELD_ANSWERS_BYTES)$/))('%s (%s), bytes kept in memory, above half of the memory of this machine or container: the start stops naming it and the bound', (key, _app, schema) => {
    const half = Math.floor(memoryMiB() / 2) * 1024 * 1024;
    expect(refusal(schema, { [key]: String(half) })).toBeUndefined();
    expect(refusal(schema, { [key]: String(half + 1) })).toBe(`Invalid configuration:\n  ${key}: must be a whole number of bytes from 0 to ${half} (half of the ${memoryMiB()} MiB this machine or container has)`);
  });
});

describe('npm start: the caches of its one process together (checkSettings)', () => {
  const halfBytes = Math.floor(memoryMiB() / 2) * 1024 * 1024;
  const threads = Math.max(1, Math.floor(availableParallelism() * 1.5));

  test('when the caches are at their defaults (the held answers none, as npm start sets), then nothing is warned of on this machine', () => {
    expect(memoryMiB()).toBeGreaterThan(4096);
    expect(checkSettings({ HELD_ANSWERS_BYTES: '0' })).toEqual([]);
  });

  test('when two caches each within half of the memory pass it together, then the start goes on with one warning naming each cache and the sum', () => {
    const each = Math.floor(halfBytes * 0.6);
    const [warning, ...more] = checkSettings({ DATAFILE_CHANNEL_CACHE_BYTES: String(each), DATAFILE_RESULT_CACHE_BYTES: String(each), HELD_ANSWERS_BYTES: '0' });
    expect(more).toEqual([]);
    const mib = (bytes: number) => Math.round(bytes / (1024 * 1024));
    const total = 64 * 1024 * 1024 + 2 * each + 64 * 1024 * 1024 * threads;
    expect(warning).toBe(
      `The caches of this one process may together keep ${mib(total)} MiB, more than half of the ${memoryMiB()} MiB this machine or container has (each is bounded by that half alone): ` +
        `READ_CACHE_MB 64 MiB, DATAFILE_CHANNEL_CACHE_BYTES ${mib(each)} MiB, DATAFILE_RESULT_CACHE_BYTES ${mib(each)} MiB, DATAFILE_SCRATCH_BYTES × ${threads} pool threads ${mib(64 * 1024 * 1024 * threads)} MiB. Lower one of them, or give the process more memory`,
    );
  });

  test('when one setting alone passes half of the memory, then it is still refused, not warned of', () => {
    expect(() => checkSettings({ HELD_ANSWERS_BYTES: String(halfBytes + 1) })).toThrow(/^Invalid configuration:\n {2}HELD_ANSWERS_BYTES: /);
  });
});
