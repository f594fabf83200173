import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { secretKeyFile } from '../../src/definition';
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
    const configured = Buffer.alloc(32, 7).toString('base64');
    const file = join(dir, 'never', 'made');
    expect(secretKey(configured, file)).toEqual(Buffer.alloc(32, 7));
    expect(() => readFileSync(file)).toThrow(/ENOENT/);
  });
});
