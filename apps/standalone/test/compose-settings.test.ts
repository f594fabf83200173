import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// js-yaml reads compose's anchors and merge keys (`<<: *app`) as compose does.
const yaml = require('js-yaml') as { load(text: string): unknown };

interface ComposeService {
  environment?: Record<string, string>;
}

const compose = yaml.load(readFileSync(join(__dirname, '..', '..', '..', 'docker', 'compose.yaml'), 'utf8')) as { services: Record<string, ComposeService> };

/** `${NAME:-default}`: the variable compose substitutes and its default. */
function substitution(value: string | undefined): { name: string; fallback: string } | undefined {
  const m = /^\$\{([A-Z0-9_]+):-(.*)\}$/.exec(value ?? '');
  return m ? { name: m[1] as string, fallback: m[2] as string } : undefined;
}

describe('settings docker/compose.yaml gives the containers', () => {
  test('the simulation-service gets SIMULATION_SECRET_KEY from the environment, else a valid 32-byte key: a container never makes its own (its working directory is not writable, and replicas must share one)', () => {
    const env = compose.services['simulation-service']?.environment ?? {};
    const key = substitution(env['SIMULATION_SECRET_KEY']);
    expect(key?.name).toBe('SIMULATION_SECRET_KEY');
    expect(Buffer.from(key?.fallback ?? '', 'base64')).toHaveLength(32);
    expect(substitution(env['EGRESS_ALLOW'])).toEqual({ name: 'EGRESS_ALLOW', fallback: '' });
    // The shared settings are still there (merged, not replaced).
    expect(env['DATABASE_URL']).toMatch(/^postgres:/);
  });

  test.each(['entity-service', 'datafile-service', 'gateway'])('%s takes BLOB_STORE and the S3_* settings from the environment of `docker compose up`', (app) => {
    const env = compose.services[app]?.environment ?? {};
    expect(substitution(env['BLOB_STORE'])).toEqual({ name: 'BLOB_STORE', fallback: 'fs' });
    for (const name of ['S3_ENDPOINT', 'S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE']) expect(substitution(env[name])).toEqual({ name, fallback: '' });
  });
});
