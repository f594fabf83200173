import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@pitwall/service-kit';
import { secretKeyFile, simulationService } from '../../src/definition';
import { secretKey } from '../../src/domain/secret-box';

describe('the connection key without SIMULATION_SECRET_KEY', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pitwall-secret-key-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('when only DATA_DIR is set, then the key is generated once under it and read back the same afterwards', () => {
    const file = secretKeyFile({ DATA_DIR: join(dir, 'data') });
    expect(file).toBe(join(dir, 'data', 'simulation-secret-key'));
    const first = secretKey(undefined, file);
    expect(first).toHaveLength(32);
    expect(Buffer.from(readFileSync(file, 'utf8'), 'base64')).toEqual(first);
    expect(secretKey(undefined, file)).toEqual(first);
    expect(secretKeyFile({ DATA_DIR: '/ignored', SIMULATION_SECRET_KEY_FILE: '/elsewhere/key' })).toBe('/elsewhere/key');
  });

  test('when the key file cannot be read or created, then start-up fails naming SIMULATION_SECRET_KEY and the file', () => {
    // A regular file where the directory should be: not creatable, whoever runs the test (root included).
    const blocker = join(dir, 'not-a-directory');
    writeFileSync(blocker, 'x');
    const file = join(blocker, 'simulation-secret-key');
    expect(() => secretKey(undefined, file)).toThrow(/SIMULATION_SECRET_KEY: not set, and its key file .*not-a-directory\/simulation-secret-key .*could not be (read|created)/);
  });

  test('when SIMULATION_SECRET_KEY is set, then it is the key and no file is made', () => {
    const file = join(dir, 'never', 'made');
    expect(secretKey(Buffer.alloc(32, 7), file)).toEqual(Buffer.alloc(32, 7));
    expect(() => readFileSync(file)).toThrow(/ENOENT/);
  });
});

describe('the form of SIMULATION_SECRET_KEY and of each key of SIMULATION_SECRET_KEY_PREVIOUS (one parser)', () => {
  // Its base64 holds both characters the URL-safe alphabet replaces (+ and /).
  const key = Buffer.alloc(32, 0xfb);
  const other = Buffer.alloc(32, 1);
  const padded = key.toString('base64');
  const config = (env: NodeJS.ProcessEnv) => {
    if (!simulationService.config) throw new Error('the simulation-service declares its configuration');
    return loadConfig(simulationService.config, env);
  };
  const refusal = (env: NodeJS.ProcessEnv): string => {
    try {
      config(env);
    } catch (err) {
      return (err as Error).message;
    }
    throw new Error('the configuration was taken');
  };

  test.each([
    ['padded', padded],
    ['unpadded', padded.replace(/=+$/, '')],
    ['URL-safe, unpadded', key.toString('base64url')],
    ['with spaces around', `  ${padded}\n`],
  ])('when a key is given %s, then it is the key, in either variable', (_, form) => {
    expect(config({ SIMULATION_SECRET_KEY: form }).SIMULATION_SECRET_KEY).toEqual(key);
    expect(config({ SIMULATION_SECRET_KEY: other.toString('base64'), SIMULATION_SECRET_KEY_PREVIOUS: `${other.toString('base64url')},${form}` }).SIMULATION_SECRET_KEY_PREVIOUS).toEqual([other, key]);
  });

  test.each([
    ['not base64', `${padded.slice(0, 20)}*${padded.slice(21)}`, 'is not base64'],
    ['wrongly padded', `${padded}=`, 'is not base64'],
    ['of the wrong length', Buffer.alloc(16, 0xfb).toString('base64'), 'is not 32 bytes long'],
  ])('when a key is %s, then either variable refuses it in the same words, never printing it', (_, value, problem) => {
    const form = 'must be 32 bytes, base64-encoded (e.g. `openssl rand -base64 32`)';
    const current = refusal({ SIMULATION_SECRET_KEY: value });
    expect(current).toBe(`Invalid configuration:\n  SIMULATION_SECRET_KEY: ${problem}: it ${form}`);
    const previous = refusal({ SIMULATION_SECRET_KEY: other.toString('base64'), SIMULATION_SECRET_KEY_PREVIOUS: `${other.toString('base64')},${value}` });
    expect(previous).toBe(`Invalid configuration:\n  SIMULATION_SECRET_KEY_PREVIOUS: key 2 of 2 ${problem}: each ${form}`);
    for (const message of [current, previous]) expect(message).not.toContain(value.trim().slice(0, 12));
  });
});
