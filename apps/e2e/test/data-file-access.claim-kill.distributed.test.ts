import { request, type IncomingMessage } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeLdFile } from '@pitwall/formats';
import { DistributedStack } from './support/distributed';

/** 8 int16 channels at 1 kHz for 1,000 s (16 MB): the JSON of all of them whole is about 50 MB, far past any socket buffer. */
function largeLd(): Uint8Array {
  const n = 1_000_000;
  const channels = Array.from({ length: 8 }, (_, k) => ({ name: `Sensor ${k}`, unit: 'V', frequency: 1000, type: 'int16' as const, scaling: { dec: 1 }, sampleCount: n, fill: (first: number, out: Float64Array) => out.forEach((_, i) => (out[i] = ((first + i + k) % 20_000) / 10)) }));
  return writeLdFile({ properties: { eventName: 'Claim kill', venueName: 'Test' }, channels });
}

describe('when the datafile-service is killed (SIGKILL) while a large answer streams from it by claim', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pitwall-claim-kill-'));
  let stack: DistributedStack;
  afterAll(async () => {
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('then the client\'s transfer ends aborted (chunked, no terminating chunk), never as a complete shorter body, and the gateway serves on', async () => {
    stack = await DistributedStack.start({ env: { DATA_DIR: join(dir, 'data'), BLOB_DIR: join(dir, 'blobs'), DATAFILE_CACHE_DIR: join(dir, 'decompressed') } });
    const m = await stack.member('admin');
    const id = (r: { statusCode: number; returnValue: { Id: string } | null }) => {
      if (!r.returnValue) throw new Error(`create answered ${r.statusCode}`);
      return r.returnValue.Id;
    };
    const name = (value: string) => ({ ParameterUpdates: [{ Name: 'Name', Value: value }] });
    const championship = id(await m.client.addChampionship(name('Claim kill')));
    const event = id(await m.client.addEvent(championship, name('Event')));
    const session = id(await m.client.addSession(event, name('Session')));
    const car = id(await m.client.addCar(name('Car')));
    id(await m.client.addEventCar(event, car, name('Car')));
    const runSheet = id(await m.client.addRunSheet(session, car, name('Run')));
    const uploaded = await m.client.uploadAttachment('RunSheets', runSheet, largeLd(), { FileName: 'large.ld', AttachedFileGroupName: 'DataFile', UseCompression: false });
    expect(uploaded.statusCode).toBe(200);

    // The client reads the head of the answer, then stops reading while the service is killed.
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(`${stack.baseUrl}/RunSheets/${runSheet}/DataFileAccess/DataFile/channels`, { method: 'POST', headers: { ApiKey: m.apiKey, AccountId: m.accountId, 'Content-Type': 'application/json' } }, resolve);
      req.on('error', reject);
      req.end(JSON.stringify({ channels: Array.from({ length: 8 }, (_, k) => `Sensor ${k}`), mode: 0 }));
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.headers['transfer-encoding']).toBe('chunked');
    let received = 0;
    const ended = new Promise<'complete' | 'aborted'>((resolve) => {
      res.on('end', () => resolve('complete'));
      res.on('error', () => resolve('aborted'));
      res.on('aborted', () => resolve('aborted'));
    });
    await new Promise((resolve) => res.once('data', resolve));
    res.pause();
    const datafile = stack.stack.procs.find((p) => p.name === 'datafile-service');
    await new Promise((resolve) => {
      datafile?.child.once('exit', resolve);
      datafile?.child.kill('SIGKILL');
    });
    res.on('data', (c: Buffer) => (received += c.length));
    res.resume();
    expect(await ended).toBe('aborted');
    expect(received).toBeLessThan(40 * 1024 * 1024);

    // The gateway itself is unharmed.
    const list = await fetch(`${stack.baseUrl}/Championships`, { headers: { ApiKey: m.apiKey, AccountId: m.accountId } });
    expect(list.status).toBe(200);
  }, 180_000);
});
