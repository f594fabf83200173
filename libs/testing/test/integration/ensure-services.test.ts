import globalSetup from '../../src/global-setup';
import { ensureServices, type TestService } from '../../src';

describe('ensureServices', () => {
  test('when every server answers, then the global setup resolves', async () => {
    await expect(globalSetup()).resolves.toBeUndefined();
  });

  test('when a server stays down after its start command, then it fails within the wait naming the server', async () => {
    const never: TestService = { name: 'Nothing (127.0.0.1:1)', probe: async () => false, startCommand: 'true' };
    const started = Date.now();
    await expect(ensureServices([never], { waitMs: 600 })).rejects.toThrow(/Nothing \(127\.0\.0\.1:1\) did not answer within 1 s/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('when a start command brings the server up, then it resolves', async () => {
    let up = false;
    const flaky: TestService = { name: 'Flaky', probe: async () => up, startCommand: 'true' };
    setTimeout(() => (up = true), 300);
    await expect(ensureServices([flaky], { waitMs: 5000 })).resolves.toBeUndefined();
  });
});
