import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { PitwallClient } from '@pitwall/client';
import { startEmbedded, type Embedded } from './support/embedded';

// eslint-disable-next-line @nx/enforce-module-boundaries
const { freePort } = require('../../../tools/stack.cjs') as { freePort(): Promise<number> };

describe('npm start: the embedded default (PGlite over the wire protocol, in-process bus, in-memory cache)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pitwall-embedded-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test('when started on a fresh data dir, then the printed key and the printed curl work, data survives a restart, and SIGTERM exits 0', async () => {
    const port = await freePort();
    const first = await startEmbedded(dataDir, port);
    // A failed expectation must not leave the process running (jest would wait for it forever).
    let createdId: string;
    try {
      createdId = await useFirstStart(first);
    } finally {
      expect(await first.stop()).toBe(0);
    }

    const second = await startEmbedded(dataDir, port);
    try {
      expect(second.apiKey).toBe(first.apiKey);
      const again = new PitwallClient({ baseUrl: second.baseUrl, apiKey: second.apiKey, accountId: second.accountId });
      expect((await again.getChampionshipById(createdId)).returnValue?.Parameters).toEqual({ Name: 'Embedded Cup', Year: 2027, Description: null });
      expect((await again.deleteChampionship(createdId)).statusCode).toBe(204);
      expect((await again.getAllChampionships()).returnValue?.map((c) => c.Parameters['Name'])).toEqual(['Demo Championship']);
      // The demo run sheet was seeded once: the second start prints the same one.
      expect(demoRunSheetOf(second.output())).toBe(demoRunSheetOf(first.output()));
      const bad = await fetch(`${second.baseUrl}/Championships`, { headers: { ApiKey: second.apiKey } });
      expect(bad.status).toBe(400);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 300_000);

  const demoRunSheetOf = (output: string) => /^Demo run sheet (\S+) /m.exec(output)?.[1];

  /** The printed curls (the seeded demo championship, its run sheet's data file), then a championship created, updated and read back; returns its id. */
  async function useFirstStart(first: Embedded): Promise<string> {
    const curls = [...first.output().matchAll(/^\s+(curl -s .*)$/gm)].map((m) => m[1] as string);
    const run = (curl: string) => JSON.parse(execFileSync('bash', ['-c', curl], { encoding: 'utf8' }));
    // The banner ends with the key and the first curls: the last lines a newcomer sees.
    expect(first.output().trimEnd().split('\n').slice(-6)[0]).toMatch(/^AccountId: /);
    const listCurl = curls.find((c) => /\/Championships -H/.test(c));
    expect(run(listCurl as string).map((c: { Parameters: { Name: string } }) => c.Parameters.Name)).toEqual(['Demo Championship']);
    const metadataCurl = curls.find((c) => c.includes('/DataFileAccess/') && c.includes('/metadata'));
    const channelCurl = curls.find((c) => c.includes('/DataFileAccess/') && c.includes('/channel?'));
    const metadata = run(metadataCurl as string);
    expect(metadata).toMatchObject({ entityId: demoRunSheetOf(first.output()), entityType: 'RunSheets', attachedFileGroupName: 'DataFile', lapCount: 5 });
    expect(metadata.channels.length).toBeGreaterThanOrEqual(20);
    const lap = run(channelCurl as string);
    expect(lap).toMatchObject({ name: 'Ground Speed', unit: 'km/h' });
    // Lap 1 of a 50 Hz channel: as many samples as the lap lasts (its first flying lap), each a speed.
    const frequency = metadata.channels.find((c: { name: string }) => c.name === 'Ground Speed').frequency as number;
    expect(Math.abs(lap.samples.length - metadata.lapElapsedTimes[1] * frequency)).toBeLessThanOrEqual(1);
    for (const v of lap.samples) expect(v).toBeGreaterThan(0);

    // The whole file's channels: an answer far over CLAIM_INLINE_MAX_BYTES, redeemed in-process (no claim port hop),
    // streamed as JSON and as the binary body alike.
    const client0 = new PitwallClient({ baseUrl: first.baseUrl, apiKey: first.apiKey, accountId: first.accountId });
    const names = metadata.channels.map((c: { name: string }) => c.name);
    const whole = await client0.getRunSheetDataFileChannels(demoRunSheetOf(first.output()) as string, 'DataFile', { channels: names, mode: 0 });
    expect(whole.statusCode).toBe(200);
    const wholeJson = whole.returnValue as { channels: { name: string; samples: unknown[] }[] };
    expect(JSON.stringify(wholeJson).length).toBeGreaterThan(256 * 1024);
    const wholeBinary = await client0.getRunSheetDataFileChannels(demoRunSheetOf(first.output()) as string, 'DataFile', { channels: names, mode: 0 }, { binary: true });
    expect((wholeBinary.returnValue as { name: string }[]).map((c) => c.name)).toEqual(wholeJson.channels.map((c) => c.name));
    // And as an Arrow stream: one column per channel, each the JSON record's values (from the batch of its rate).
    const wholeArrow = await client0.getRunSheetDataFileChannels(demoRunSheetOf(first.output()) as string, 'DataFile', { channels: names, mode: 0 }, { arrow: true });
    expect(wholeArrow.statusCode).toBe(200);
    const table = tableFromIPC(wholeArrow.returnValue as Uint8Array);
    expect(table.schema.fields.map((f) => f.name)).toEqual(['time', ...names]);
    for (const record of wholeJson.channels) {
      const batch = table.batches.find((b) => (b.getChild(record.name)?.nullCount ?? 0) < b.numRows);
      expect([...(batch?.getChild(record.name) ?? [])]).toEqual(record.samples);
    }

    const client = new PitwallClient({ baseUrl: first.baseUrl, apiKey: first.apiKey, accountId: first.accountId });
    const created = await client.addChampionship({ ParameterUpdates: [{ Name: 'Name', Value: 'Embedded Cup' }] });
    expect(created.statusCode).toBe(201);
    const createdId = created.returnValue?.Id as string;
    expect(created.returnValue?.Parameters).toEqual({ Name: 'Embedded Cup', Year: null, Description: null });
    expect((await client.updateChampionship(createdId, { ParameterUpdates: [{ Name: 'Year', Value: '2027' }] })).statusCode).toBe(200);
    expect((await client.getChampionshipById(createdId)).returnValue?.Parameters).toEqual({ Name: 'Embedded Cup', Year: 2027, Description: null });
    expect((await client.getAllAccounts()).returnValue).toEqual([{ Id: first.accountId, Name: 'Demo Racing', Role: 'admin' }]);
    return createdId;
  }
});
