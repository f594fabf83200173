import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startEmbedded } from './support/embedded';

// eslint-disable-next-line @nx/enforce-module-boundaries
const { freePort } = require('../../../tools/stack.cjs') as { freePort(): Promise<number> };

const ADMIN = join(__dirname, '..', '..', '..', 'dist', 'apps', 'admin', 'main.js');
const DEMO_USER_ID = '00000000-0000-4000-8000-00000000de02';

describe('npm start with the admin CLI in another process (in-memory cache, no Redis)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pitwall-revocation-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test('when the admin CLI revokes a key the gateway has cached, then the gateway refuses it within 2 s', async () => {
    // The banner names the embedded database's URL, which the admin CLI is pointed at.
    const embedded = await startEmbedded(dataDir, await freePort(), { LOG_LEVEL: 'info' });
    try {
      const databaseUrl = /^Embedded PostgreSQL \(PGlite\): (postgres:\/\/\S+)$/m.exec(embedded.output())?.[1];
      expect(databaseUrl).toBeDefined();
      const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' };
      delete env['REDIS_URL'];
      const admin = async (...args: string[]) => (await promisify(execFile)(process.execPath, [ADMIN, ...args], { env })).stdout;

      const created = await admin('create-key', DEMO_USER_ID, 'revocation');
      const keyId = /^Key id:\s+(\S+)$/m.exec(created)?.[1] as string;
      const apiKey = /^API key:\s+(\S+)$/m.exec(created)?.[1] as string;
      const read = () => fetch(`${embedded.baseUrl}/Championships`, { headers: { ApiKey: apiKey, AccountId: embedded.accountId } }).then((r) => r.status);
      expect(await read()).toBe(200);
      expect(await read()).toBe(200); // served from the gateway's in-memory cache

      await admin('revoke-key', keyId);
      const revokedAt = Date.now();
      let status = await read();
      while (status !== 401 && Date.now() - revokedAt < 5000) {
        await new Promise((r) => setTimeout(r, 50));
        status = await read();
      }
      expect(status).toBe(401);
      expect(Date.now() - revokedAt).toBeLessThan(2000);
    } finally {
      expect(await embedded.stop()).toBe(0);
    }
  }, 300_000);
});
