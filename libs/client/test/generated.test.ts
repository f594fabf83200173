import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { OPERATIONS } from '@pitwall/contracts';
import { PitwallClient, generateClientSource } from '../src';

describe('generated client', () => {
  test('when the operation table changes, then generated.ts must be regenerated (npm run gen:client)', () => {
    expect(readFileSync(join(__dirname, '..', 'src', 'generated.ts'), 'utf8')).toBe(generateClientSource(OPERATIONS));
  });

  test('when built, then it has the wrappers method names for every type', () => {
    const proto = PitwallClient.prototype as unknown as Record<string, unknown>;
    for (const name of ['getChampionshipById', 'getAllChampionships', 'addChampionship', 'updateChampionship', 'deleteChampionship', 'getAllSetupsForEventCar', 'addSetup', 'searchForTyres', 'getAllLapsForRunSheet'])
      expect(typeof proto[name]).toBe('function');
  });

  test('when the server cannot be reached, then the call fails with status 0 and a message instead of throwing', async () => {
    const client = new PitwallClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', accountId: 'a', timeoutMs: 2000 });
    const result = await client.getAllChampionships();
    expect(result).toMatchObject({ success: false, statusCode: 0, returnValue: null });
    expect(result.message).toMatch(/did not complete/);
  });

  test('when an answer says it is JSON but is not, then the call fails with its status and a message instead of throwing', async () => {
    // A proxy in front of the service answering with a broken body, as one sometimes does.
    const server: Server = createServer((_req, res) => {
      res.writeHead(502, { 'Content-Type': 'application/json' });
      res.end('<html>Bad Gateway</html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = new PitwallClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: 'k', accountId: 'a' });
      const result = await client.getAllChampionships();
      expect(result).toMatchObject({ success: false, statusCode: 502, returnValue: null });
      expect(result.message).toMatch(/says it is JSON but is not/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
