import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import apps from '../apps.json';

// js-yaml reads compose's anchors and merge keys (`<<: *app`) as compose does.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const yaml = require('js-yaml') as { load(text: string): unknown };

interface ComposeService {
  restart?: string;
  healthcheck?: { test?: string[] };
  profiles?: string[];
}

const compose = yaml.load(readFileSync(join(__dirname, '..', '..', '..', 'docker', 'compose.yaml'), 'utf8')) as { services: Record<string, ComposeService> };
/** The containers that run for good (not the one-off tools of a profile, such as admin). */
const longRunning = Object.entries(compose.services).filter(([, service]) => !service.profiles?.length);

describe('docker/compose.yaml supervises every container, as tools/stack.cjs does every process', () => {
  test('it runs every app of apps.json', () => {
    expect(longRunning.map(([name]) => name)).toEqual(expect.arrayContaining([...apps.services, apps.gateway]));
  });

  test.each(longRunning)('%s restarts when it exits and has a health check', (_name, service) => {
    expect(service.restart).toBe('unless-stopped');
    expect(service.healthcheck?.test?.length).toBeGreaterThan(0);
  });
});
