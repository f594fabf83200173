import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// js-yaml reads compose's anchors and merge keys (`<<: *app`) as compose does.
const yaml = require('js-yaml') as { load(text: string): unknown };

interface ComposeService {
  environment?: Record<string, string>;
  ports?: string[];
}

const root = join(__dirname, '..', '..', '..');
const compose = yaml.load(readFileSync(join(root, 'docker', 'compose.yaml'), 'utf8')) as { services: Record<string, ComposeService> };

/** Large answers by claim (docs/operations.md#large-answers-the-claim-port): the containers and tools/stack.cjs agree. */
describe('the claim port and secret in docker/compose.yaml and tools/stack.cjs', () => {
  const datafile = compose.services['datafile-service'] as ComposeService;
  const gateway = compose.services['gateway'] as ComposeService;

  test('the gateway and the datafile-service share one CLAIM_SECRET', () => {
    expect(datafile.environment?.['CLAIM_SECRET']).toBeDefined();
    expect(gateway.environment?.['CLAIM_SECRET']).toBe(datafile.environment?.['CLAIM_SECRET']);
  });

  test('the datafile-service listens on its fixed claim port on the compose network, which no container publishes', () => {
    expect(datafile.environment?.['CLAIM_HOST']).toBe('0.0.0.0');
    const port = datafile.environment?.['CLAIM_PORT'] as string;
    expect(port).toMatch(/^\d+$/);
    const published = Object.values(compose.services).flatMap((s) => s.ports ?? []);
    expect(published.some((p) => p.split(':').includes(port))).toBe(false);
  });

  test('tools/stack.cjs gives the same two apps one CLAIM_SECRET, as compose does', () => {
    const stack = readFileSync(join(root, 'tools', 'stack.cjs'), 'utf8');
    expect(stack).toContain("const CLAIM_APPS = new Set(['datafile-service', 'gateway']);");
    expect(stack).toMatch(/CLAIM_APPS\.has\(name\) \? \{ CLAIM_SECRET: claimSecret \}/);
  });
});
