import { request } from 'node:http';
import { decodeChannelsBody, toReadRecord } from '@pitwall/client';
import { answerBytes } from '@pitwall/bus';
import type { ChannelRecordJson } from '@pitwall/contracts';
import { createDemoLdFile, openDataFile } from '@pitwall/formats';
import { fixture } from '../support/fixtures';
import { busReplies, useDatafileStack } from '../support/datafile-stack';
import { expectSamples } from '../support/samples';

/**
 * Large answers by claim: the datafile-service keeps every answer over CLAIM_INLINE_MAX_BYTES (4 KiB here) and replies a
 * claim; the gateway fetches it over the claim port (CLAIM_IN_PROCESS=false: over HTTP although both run in this
 * process) and streams it to the client.
 */
describe('data file reads whose answers are large: by claim, streamed from the datafile-service', () => {
  // One pool thread: a read whose work were not freed when its client went would hold every later read up.
  const started = useDatafileStack('datafile-claims-', { URL_SIGNING_SECRET: 'datafile-claims-test-secret', CLAIM_SECRET: 'datafile-claims-shared-secret', CLAIM_IN_PROCESS: 'false', DATAFILE_RESULT_CACHE_BYTES: '0' }, { maxThreads: 1, datafileEnv: { CLAIM_INLINE_MAX_BYTES: '4096' } });
  let dataset: string;
  let runSheet: string;
  const sample1 = fixture('Sample1.ld');
  const names = openDataFile(sample1).channels.map((c) => c.name);

  // For the reads stopped early: an outing whose whole JSON (about 3.7 M samples, some 25 MB) is several times what the
  // pool's worker may make ahead of its reader (4 chunks of 1 MiB), so the worker cannot finish on its own and only
  // ending its task frees the one thread. (Sample1's, about 4 MB, could be made whole before the reader stopped.)
  const long = createDemoLdFile({ fullChannelSet: true, flyingLaps: 60 });
  const longNames = openDataFile(long).channels.map((c) => c.name);
  let longRunSheet: string;

  beforeAll(async () => {
    runSheet = await started.attached.entityWithFile('DataFile', 'Sample1.ld', sample1);
    dataset = `/RunSheets/${runSheet}/DataFileAccess/DataFile`;
    longRunSheet = await started.attached.entityWithFile('DataFile', 'long-outing.ld', long);
  }, 90_000);

  const wholeBatch = { channels: names, mode: 0 };
  // The identity transfer (its Content-Length, its chunks) is what these reads check: asked for it, as fetch would send gzip
  // (compressed answers: data-file-access.compression.test.ts).
  const post = (accept?: string) => fetch(`${started.base}${dataset}/channels`, { method: 'POST', headers: { ...started.headers, 'Content-Type': 'application/json', 'Accept-Encoding': 'identity', ...(accept ? { Accept: accept } : {}) }, body: JSON.stringify(wholeBatch) });

  test('when a whole-file batch read is larger than the limit, then the bus carries a claim, not the bytes, and the binary body comes whole with its Content-Length', async () => {
    let body!: Uint8Array;
    let length: string | null = null;
    const replies = await busReplies(started.stack, async () => {
      const r = await post('application/x-service-channels');
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('application/x-service-channels');
      length = r.headers.get('content-length');
      body = new Uint8Array(await r.arrayBuffer());
    });
    expect(replies).toHaveLength(1);
    const claim = replies[0]?.claim;
    expect(claim).toMatchObject({ accountId: started.headers['AccountId'], contentType: 'application/x-service-channels', length: body.byteLength });
    expect(replies[0]?.json.byteLength).toBeLessThan(1024);
    expect(length).toBe(String(body.byteLength));
    expect(decodeChannelsBody(body).map((c) => c.name)).toEqual(names);
    expect(started.datafile.parts.desk.waitingCount).toBe(0);
  });

  test('when the same read is asked as JSON, then it streams chunked and equals the binary body decoded', async () => {
    const binary = decodeChannelsBody(new Uint8Array(await (await post('application/x-service-channels')).arrayBuffer())).map(toReadRecord);
    const r = await post();
    expect(r.status).toBe(200);
    expect(r.headers.get('content-length')).toBeNull();
    const text = await r.text();
    expect(text.length).toBeGreaterThan(1024 * 1024);
    const { channels, ...read } = JSON.parse(text) as { channels: ChannelRecordJson[] };
    expect(read).toEqual({ entityId: expect.any(String), entityType: 'RunSheets', attachedFileGroupName: 'DataFile', mode: 0 });
    // The records but their samples, then the samples (a loop: Sample1's 78 channels are some 600,000 samples).
    const withoutSamples = (records: unknown[]) => records.map((record) => ({ ...(record as ChannelRecordJson), samples: undefined }));
    expect(withoutSamples(channels)).toEqual(withoutSamples(binary));
    for (const [k, record] of binary.entries()) expectSamples(record.name, (channels[k] as ChannelRecordJson).samples, (record as ChannelRecordJson).samples);
  });

  test('when large answers stream through the gateway, identity and compressed, then the process prints no MaxListenersExceededWarning on its standard error (a response\'s listeners are a fixed few per answer, not a leak)', async () => {
    // What the process prints on its standard error meanwhile (Node prints its warnings there).
    const printed: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    const heard = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      printed.push(String(chunk));
      return (write as (chunk: string | Uint8Array, ...rest: unknown[]) => boolean)(chunk, ...rest);
    });
    try {
      for (const coding of ['identity', 'gzip']) {
        const r = await fetch(`${started.base}${dataset}/channels`, { method: 'POST', headers: { ...started.headers, 'Content-Type': 'application/json', 'Accept-Encoding': coding, Accept: 'application/x-service-channels' }, body: JSON.stringify(wholeBatch) });
        expect(r.status).toBe(200);
        expect(r.headers.get('content-encoding')).toBe(coding === 'gzip' ? 'gzip' : null);
        await r.arrayBuffer();
      }
      // A warning is emitted on a tick after the listener that passed the limit.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      heard.mockRestore();
    }
    expect(printed.filter((line) => line.includes('MaxListenersExceededWarning'))).toEqual([]);
  });

  test('when large answers have streamed whole, then their pool tasks ended by themselves: no worker thread was ended', async () => {
    const { pool } = started.datafile.parts;
    let destroyed = 0;
    const count = () => void (destroyed += 1);
    pool.on('workerDestroy', count);
    try {
      for (let i = 0; i < 3; i++) {
        const r = await post(i % 2 ? 'application/x-service-channels' : undefined);
        expect(r.status).toBe(200);
        await r.arrayBuffer();
      }
    } finally {
      pool.off('workerDestroy', count);
    }
    expect(destroyed).toBe(0);
  });

  test('when a single channel read is larger than the limit, then its JSON record comes by claim as the record itself', async () => {
    const r = await fetch(`${started.base}${dataset}/channel?channel=${encodeURIComponent('Engine RPM')}`, { headers: started.headers });
    const record = (await r.json()) as { name: string; samples: number[] };
    expect(record.name).toBe('Engine RPM');
    expect(record.samples.length).toBe(openDataFile(sample1).readChannel('Engine RPM').samples.length);
  });

  test('when the answer is small, then it rides the bus inline', async () => {
    const replies = await busReplies(started.stack, async () => {
      const r = await fetch(`${started.base}${dataset}/channel?channel=${encodeURIComponent('Engine RPM')}&maxPoints=10`, { headers: started.headers });
      expect(r.status).toBe(200);
      await r.arrayBuffer();
    });
    expect(replies[0]?.claim).toBeUndefined();
  });

  test('when the client goes mid-answer, then the work on the pool is freed: the next read on the one pool thread is answered', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = request(`${started.base}${dataset}/channels`, { method: 'POST', headers: { ...started.headers, 'Content-Type': 'application/json' } }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => undefined);
      req.end(JSON.stringify(wholeBatch));
      req.on('response', (res) => res.on('error', reject));
    });
    const next = await fetch(`${started.base}${dataset}/channel?channel=${encodeURIComponent('Engine RPM')}&lapIndex=1`, { headers: started.headers });
    expect(next.status).toBe(200);
    await next.arrayBuffer();
    expect(started.datafile.parts.desk.waitingCount).toBe(0);
  });

  test('when the reader of an answer stops early, then its pool task is ended: the one pool thread serves the next read', async () => {
    const { reads } = started.datafile.parts;
    const ref = { caller: { accountId: started.demo.accountId, userId: started.demo.userId, role: 'admin' as const }, type: 'RunSheets', id: longRunSheet, group: 'DataFile' };
    // Several times the worker's window of chunks: left alone, it would wait for credit and hold the thread.
    const answer = await reads.channels(ref, { channels: longNames, field: 'channels', scope: { mode: 'file' }, binary: false });
    const chunks = answer.chunks(new AbortController().signal)[Symbol.asyncIterator]();
    expect((await chunks.next()).done).toBe(false);
    await chunks.return?.();
    const next = await answerBytes(await reads.channels(ref, { channels: ['Engine RPM'], field: 'channels', scope: { mode: 'file' }, binary: true }));
    expect(decodeChannelsBody(next).map((c) => c.name)).toEqual(['Engine RPM']);
  });

  test('when the answer\'s signal aborts (its claim expired, its redeemer went), then its pool task is ended too', async () => {
    const { reads } = started.datafile.parts;
    const ref = { caller: { accountId: started.demo.accountId, userId: started.demo.userId, role: 'admin' as const }, type: 'RunSheets', id: longRunSheet, group: 'DataFile' };
    const answer = await reads.channels(ref, { channels: longNames, field: 'channels', scope: { mode: 'file' }, binary: false });
    const abort = new AbortController();
    const chunks = answer.chunks(abort.signal)[Symbol.asyncIterator]();
    await chunks.next();
    abort.abort(new Error('claim dropped'));
    await expect(answerBytes({ ...answer, chunks: () => ({ [Symbol.asyncIterator]: () => chunks }) })).rejects.toThrow();
    const next = await answerBytes(await reads.channels(ref, { channels: ['Engine RPM'], field: 'channels', scope: { mode: 'file' }, binary: true }));
    expect(decodeChannelsBody(next)).toHaveLength(1);
  });
});
