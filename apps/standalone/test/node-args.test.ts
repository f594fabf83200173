import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import apps from '../apps.json';

const root = join(__dirname, '..', '..', '..');
const read = (file: string): string => readFileSync(join(root, file), 'utf8');

/**
 * Every way of starting the apps runs them with the same Node options: apps.json's nodeArgs, the Docker image's
 * APP_NODE_ARGS, and `npm start`. tools/stack.cjs reads apps.json itself; apps/e2e's resilience test reads the
 * options off its running processes.
 */
describe('the Node options every app process starts with', () => {
  const args = apps.nodeArgs.join(' ');

  test('apps.json names them', () => {
    expect(apps.nodeArgs).toEqual(expect.arrayContaining([expect.stringMatching(/^--initial-old-space-size=\d+$/)]));
  });

  test('the Docker image starts each app with the same options', () => {
    const dockerfile = read('docker/Dockerfile');
    expect(dockerfile).toContain(`ENV APP_NODE_ARGS="${args}"`);
    expect(dockerfile).toMatch(/CMD \["sh", "-c", "exec node \$APP_NODE_ARGS dist\/apps\/\$APP\/main\.js"\]/);
  });

  test('npm start starts the one-process stack with the same options', () => {
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(pkg.scripts['start']).toContain(`node ${args} dist/apps/standalone/main.js`);
  });
});
