import { request, type IncomingMessage } from 'node:http';
import { createDemoLdFile, openDataFile } from '@pitwall/formats';
import { fixture } from '../support/fixtures';
import { useDatafileStack } from '../support/datafile-stack';

/** The end of a response read: its status, the bytes that came, and whether it ended whole (not aborted). */
interface ReadEnd {
  status: number;
  bytes: Buffer;
  whole: boolean;
}

/**
 * Reads a response, pausing `pauseMs` each time another `everyBytes` came (none: read at once). Resolves once it
 * ended, whole (its `end`) or aborted (the connection closed short of it: an error, `aborted`, a close without end).
 */
function readResponse(res: IncomingMessage, pace: { everyBytes: number; pauseMs: number } | undefined, chunks: Buffer[] = []): Promise<ReadEnd> {
  return new Promise((resolve) => {
    let received = chunks.reduce((n, c) => n + c.byteLength, 0);
    let mark = received;
    let done = false;
    const end = (whole: boolean) => {
      if (done) return;
      done = true;
      resolve({ status: res.statusCode ?? 0, bytes: Buffer.concat(chunks), whole });
    };
    res.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.byteLength;
      if (pace && received - mark >= pace.everyBytes) {
        mark = received;
        res.pause();
        setTimeout(() => res.resume(), pace.pauseMs);
      }
    });
    res.on('end', () => end(true));
    res.on('aborted', () => end(false));
    res.on('error', () => end(false));
    res.on('close', () => end(res.complete));
    res.resume();
  });
}

/**
 * A client that asks and then reads nothing: its response is paused at its headers (Node then stops reading the
 * socket once its buffer is full), until `readRest` reads what came and whatever still comes, to its end.
 */
function stalledRead(url: string, init: { method?: string; headers: Record<string, string>; body?: string }): Promise<{ status: number; readRest: () => Promise<ReadEnd> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      res.pause();
      resolve({ status: res.statusCode ?? 0, readRest: () => readResponse(res, undefined) });
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** A client that reads its whole response with a pause of `pauseMs` after every `everyBytes`. */
function slowRead(url: string, init: { method?: string; headers: Record<string, string>; body?: string }, pace: { everyBytes: number; pauseMs: number }): Promise<ReadEnd> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers }, (res) => void readResponse(res, pace).then(resolve));
    req.on('error', reject);
    req.end(init.body);
  });
}

const MiB = 1024 * 1024;

/**
 * A batch naming every channel of the long outing this many times: its JSON (some 118 MB) must be well over what the
 * road holds when its client reads nothing, else the producer finishes into the buffers and no stall is there to see.
 * The road holds the worker's window (4 MiB) and the sockets' buffers, which Linux grows with the traffic up to
 * tcp_rmem's and tcp_wmem's maxima (here 32 MiB and 4 MiB a socket, two sockets each side over the claim port): 16.7 MB
 * of a 59 MB answer measured idle over the claim port; with the answer named three times, one CI run under load saw a
 * stalled client get the whole of it (the likely cause: the buffers held it all, so nothing stalled).
 */
const TIMES_NAMED = 6;
const namedTimes = (channels: string[]) => Array.from({ length: TIMES_NAMED }, () => channels).flat();
/** READ_SAMPLE_BUDGET for that batch (the default, 16 million samples, is less than it needs). */
const LARGE_BUDGET = String(64_000_000);

/** An outing of 60 flying laps, every channel (made once for every stack here: a second or two each time). */
const long = createDemoLdFile({ fullChannelSet: true, flyingLaps: 60 });
const names = openDataFile(long).channels.map((c) => c.name);

/** Runs `run` counting the pool's worker threads ended meanwhile (a thread freed is not one ended and replaced). */
async function threadsEnded(pool: { on(event: 'workerDestroy', f: () => void): unknown; off(event: 'workerDestroy', f: () => void): unknown }, run: () => Promise<void>): Promise<number> {
  let ended = 0;
  const count = () => void (ended += 1);
  pool.on('workerDestroy', count);
  try {
    await run();
  } finally {
    pool.off('workerDestroy', count);
  }
  return ended;
}

/**
 * A client that stops reading a large answer streamed from the pool holds its pool thread (the producer waits for it:
 * backpressure); with DATAFILE_STREAM_STALL_MS (300 ms here) it gives its thread up when other work waits for one,
 * and with DATAFILE_STREAM_MAX_STALL_MS (3 s here) whatever the queue. One pool thread, so any other read needs the
 * one the stalled answer holds. Both roads of a claimed answer: taken in-process (`npm start`) and over the claim port.
 */
describe.each([
  ['redeemed in-process', { CLAIM_IN_PROCESS: 'true' }],
  ['redeemed over the claim port', { CLAIM_IN_PROCESS: 'false', CLAIM_SECRET: 'stalled-clients-shared-secret' }],
])('a client that stops reading a large streamed answer (%s)', (_road, roadEnv) => {
  const started = useDatafileStack('datafile-stalls-', { URL_SIGNING_SECRET: 'stalled-clients-test-secret', DATAFILE_RESULT_CACHE_BYTES: '0', ...roadEnv }, { maxThreads: 1, outsider: true, datafileEnv: { DATAFILE_STREAM_STALL_MS: '300', DATAFILE_STREAM_MAX_STALL_MS: '3000', READ_SAMPLE_BUDGET: LARGE_BUDGET } });
  // The whole JSON of the long outing, every channel named TIMES_NAMED times: the producer waits for its reader to the end.
  const big = JSON.stringify({ channels: namedTimes(names), mode: 0 });
  let dataset: string;
  let othersDataset: string;
  /** The answer read at once by a client that keeps up. */
  let whole: Buffer;

  // Identity, as node:http asks: fetch's gzip would have the gateway compress 118 MB on the way (and the test process
  // decompress it) while the service's stall bounds (3 s here) count, which a busy machine can pass.
  const bigRead = () => ({ method: 'POST', headers: { ...started.headers, 'Content-Type': 'application/json', 'Accept-Encoding': 'identity' }, body: big });

  beforeAll(async () => {
    dataset = `${started.base}/RunSheets/${await started.attached.entityWithFile('DataFile', 'long-outing.ld', long)}/DataFileAccess/DataFile`;
    othersDataset = `${started.base}/RunSheets/${await started.outsider.entityWithFile('DataFile', 'Sample1.ld', fixture('Sample1.ld'))}/DataFileAccess/DataFile`;
    whole = Buffer.from(await (await fetch(`${dataset}/channels`, bigRead())).arrayBuffer());
    expect(whole.byteLength).toBeGreaterThan(100 * MiB);
  }, 90_000);
  /** The other user's reads: each needs the pool (a channel read shaped to a fresh maxPoints, lap statistics). */
  const othersReads = (n: number) =>
    Promise.all([
      fetch(`${othersDataset}/channel?channel=${encodeURIComponent('Engine RPM')}&maxPoints=${1000 + n}`, { headers: started.outsider.headers }),
      fetch(`${othersDataset}/lapstats`, { method: 'POST', headers: { ...started.outsider.headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ channels: ['Engine RPM'] }) }),
    ]);

  test('when a client stops reading while another user\'s reads need the pool, then those are answered (not 504) and the stalled transfer ends aborted', async () => {
    const ended = await threadsEnded(started.datafile.parts.pool, async () => {
      const stalled = await stalledRead(`${dataset}/channels`, bigRead());
      expect(stalled.status).toBe(200);
      const [channel, lapStats] = await othersReads(1);
      expect([channel.status, lapStats.status]).toEqual([200, 200]);
      expect(((await channel.json()) as { name: string }).name).toBe('Engine RPM');
      expect(((await lapStats.json()) as { laps: unknown[] }).laps.length).toBeGreaterThan(0);
      // The stalled client, reading at last, gets what was sent before its answer was given up, then an aborted
      // transfer: its chunked JSON never ends, and never parses as a whole answer.
      const end = await stalled.readRest();
      expect(end.whole).toBe(false);
      expect(end.bytes.byteLength).toBeLessThan(whole.byteLength);
      expect(() => JSON.parse(end.bytes.toString('utf8'))).toThrow();
      expect(started.datafile.parts.streams.running).toBe(0);
    });
    // The stalled answer's thread was given to the others, not ended.
    expect(ended).toBe(0);
  }, 120_000);

  test('when a client reads slowly, pausing longer than DATAFILE_STREAM_STALL_MS, and no other work waits, then its answer streams to the end, byte for byte', async () => {
    // Two pauses of three times the stall bound (below the longer bound), the producer held back at each.
    const slow = await slowRead(`${dataset}/channels`, bigRead(), { everyBytes: 45 * MiB, pauseMs: 900 });
    expect(slow.status).toBe(200);
    expect(slow.whole).toBe(true);
    expect(slow.bytes.equals(whole)).toBe(true);
  }, 120_000);

  test('when a client stops reading and no other work waits, then after DATAFILE_STREAM_MAX_STALL_MS its pool thread is freed anyway, its transfer aborted, and the next read is answered', async () => {
    const stalled = await stalledRead(`${dataset}/channels`, bigRead());
    expect(stalled.status).toBe(200);
    const { streams } = started.datafile.parts;
    expect(streams.running).toBe(1);
    // No other read is made meanwhile: only the longer bound can free the thread.
    while (streams.running > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    const end = await stalled.readRest();
    expect(end.whole).toBe(false);
    expect(end.bytes.byteLength).toBeLessThan(whole.byteLength);
    const [channel] = await othersReads(2);
    expect(channel.status).toBe(200);
  }, 120_000);
});

/**
 * The gateway's own bound (RESPONSE_IDLE_TIMEOUT_MS, 1 s here, before the datafile-service's own at their defaults):
 * a client that accepts no byte has its connection closed, and the answer's producer stops with it. It was waiting
 * for credit, so its task ends by itself: the pool thread is freed, not ended and replaced.
 */
describe.each([
  ['redeemed in-process', { CLAIM_IN_PROCESS: 'true' }],
  ['redeemed over the claim port', { CLAIM_IN_PROCESS: 'false', CLAIM_SECRET: 'stalled-clients-shared-secret' }],
])('a client that accepts no byte of its answer at the gateway (%s)', (_road, roadEnv) => {
  const started = useDatafileStack('datafile-stalls-gateway-', { URL_SIGNING_SECRET: 'stalled-clients-test-secret', DATAFILE_RESULT_CACHE_BYTES: '0', RESPONSE_IDLE_TIMEOUT_MS: '1000', ...roadEnv }, { maxThreads: 1, datafileEnv: { READ_SAMPLE_BUDGET: LARGE_BUDGET } });
  let dataset: string;

  beforeAll(async () => {
    dataset = `${started.base}/RunSheets/${await started.attached.entityWithFile('DataFile', 'long-outing.ld', long)}/DataFileAccess/DataFile`;
  }, 90_000);

  test('when RESPONSE_IDLE_TIMEOUT_MS passes, then the gateway ends the transfer aborted and the pool thread is freed without being ended: the next read is answered', async () => {
    const { pool, streams } = started.datafile.parts;
    const ended = await threadsEnded(pool, async () => {
      const stalled = await stalledRead(`${dataset}/channels`, { method: 'POST', headers: { ...started.headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ channels: namedTimes(names), mode: 0 }) });
      expect(stalled.status).toBe(200);
      expect(streams.running).toBe(1);
      while (streams.running > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      const end = await stalled.readRest();
      expect(end.whole).toBe(false);
      const next = await fetch(`${dataset}/channel?channel=${encodeURIComponent('Engine RPM')}&lapIndex=1`, { headers: started.headers });
      expect(next.status).toBe(200);
      await next.arrayBuffer();
    });
    expect(ended).toBe(0);
  }, 120_000);
});
