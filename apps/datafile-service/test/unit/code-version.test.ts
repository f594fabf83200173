import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeVersionOf } from '../../src/domain/code-version';

describe('the code version in every answer tag (a gateway never sends what another build made)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'code-version-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('when the bundles are the same, then the version is; when one changes, then it is another', () => {
    const main = join(dir, 'main.js');
    const worker = join(dir, 'shape.worker.entry.js');
    writeFileSync(main, 'console.log(1)');
    writeFileSync(worker, 'module.exports = () => 1');
    const before = codeVersionOf([main, worker]);
    expect(codeVersionOf([main, worker])).toBe(before);
    writeFileSync(worker, 'module.exports = () => 2');
    expect(codeVersionOf([main, worker])).not.toBe(before);
  });

  test('when a file cannot be read, then its name stands for it', () => {
    expect(codeVersionOf(['/no/such/file.js', undefined, null])).toBe(codeVersionOf(['/other/place/file.js']));
    expect(codeVersionOf(['/no/such/file.js'])).not.toBe(codeVersionOf(['/no/such/other.js']));
  });
});

describe('the code version covers what the bundles leave outside', () => {
  const root = mkdtempSync(join(tmpdir(), 'code-version-root-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  test('when the package lock above the bundle or the Node.js version changes, then so does the version', () => {
    const app = join(root, 'dist', 'apps', 'datafile-service');
    mkdirSync(app, { recursive: true });
    const main = join(app, 'main.js');
    writeFileSync(main, 'console.log(1)');
    writeFileSync(join(root, 'package-lock.json'), '{"packages":{"node_modules/apache-arrow":{"version":"21.0.0"}}}');
    const before = codeVersionOf([main], 'v24.0.0');
    expect(codeVersionOf([main], 'v24.0.0')).toBe(before);
    expect(codeVersionOf([main], 'v26.0.0')).not.toBe(before);
    writeFileSync(join(root, 'package-lock.json'), '{"packages":{"node_modules/apache-arrow":{"version":"22.0.0"}}}');
    expect(codeVersionOf([main], 'v24.0.0')).not.toBe(before);
  });
});
