import { request } from 'node:http';
import zlib from 'node:zlib';
import { tableFromIPC } from 'apache-arrow';
import { decodeChannelsBody } from '@pitwall/client';
import { fixture } from '../support/fixtures';
import { useDatafileStack } from '../support/datafile-stack';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as they came on the wire (node:http decodes nothing). */
  bytes: Buffer;
}

const decoders: Record<string, (bytes: Buffer) => Buffer> = {
  zstd: (bytes) => zlib.zstdDecompressSync(bytes),
  gzip: (bytes) => zlib.gunzipSync(bytes),
  br: (bytes) => zlib.brotliDecompressSync(bytes),
};

/**
 * The reads a data person makes, each answered compressed when Accept-Encoding asks: real answers of the
 * datafile-service (JSON, the binary body, the Arrow stream and file, the metadata record), on the bus when small and
 * by claim when large (CLAIM_INLINE_MAX_BYTES 64 KiB here), each decoding to the identity answer byte for byte.
 * HELD_ANSWERS_BYTES=0: every read is made and sent anew (the held road has its own test at the gateway).
 */
// No answer is held: each read's identity answer is made once (and compared with each coding's), each compressed one
// anew; room for a loaded CI machine (no time is asserted).
jest.setTimeout(120_000);

/** CLAIM_INLINE_MAX_BYTES here: a larger answer goes by claim and streams through the compressor, chunked. */
const CLAIM_INLINE_MAX_BYTES = 64 * 1024;

describe('data file reads compressed as the client accepts (gateway, entity-service and datafile-service in-process)', () => {
  const started = useDatafileStack('datafile-compression-', { URL_SIGNING_SECRET: 'datafile-compression-test-secret', HELD_ANSWERS_BYTES: '0' }, { datafileEnv: { CLAIM_INLINE_MAX_BYTES: String(CLAIM_INLINE_MAX_BYTES) } });
  const sample1 = fixture('Sample1.ld');
  /**
   * The batch reads' channels: four of Sample1.ld's, at three rates (the Arrow answers have a record batch for each),
   * whose every answer (JSON, binary, Arrow) is past CLAIM_INLINE_MAX_BYTES. Not all 78: their Arrow answers are some
   * tens of MB each (every record batch carries every column, null outside its own), for nothing more to show.
   */
  const batch = ['Susp Pos FL', 'Engine RPM', 'Ground Speed', 'Lap Number'];
  let dataset: string;

  beforeAll(async () => {
    dataset = `/RunSheets/${await started.attached.entityWithFile('DataFile', 'Sample1.ld', sample1)}/DataFileAccess/DataFile`;
  }, 90_000);

  function raw(path: string, headers: Record<string, string>, body?: unknown): Promise<Raw> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = request(`${started.base}${path}`, { method: payload ? 'POST' : 'GET', headers: { ...started.headers, ...headers, ...(payload ? { 'Content-Type': 'application/json' } : {}) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** Each read: what it is, whether its answer goes by claim (else on the bus), and its path, headers and body. */
  const reads: [string, 'claim' | 'bus', () => [string, Record<string, string>, unknown?]][] = [
    ['the metadata record', 'bus', () => [`${dataset}/metadata`, {}]],
    ['a whole channel as JSON (GET .../channel)', 'bus', () => [`${dataset}/channel?channel=${encodeURIComponent('Engine RPM')}`, {}]],
    ['a whole channel as the binary body', 'bus', () => [`${dataset}/channel?channel=${encodeURIComponent('Engine RPM')}`, { Accept: 'application/x-service-channels' }]],
    ['channels of the whole file as JSON (POST .../channels, by claim, chunked)', 'claim', () => [`${dataset}/channels`, {}, { channels: batch, mode: 0 }]],
    ['channels of the whole file as the binary body (by claim, with its length)', 'claim', () => [`${dataset}/channels`, { Accept: 'application/x-service-channels' }, { channels: batch, mode: 0 }]],
    ['channels of the whole file as the Arrow stream', 'claim', () => [`${dataset}/channels`, { Accept: 'application/vnd.apache.arrow.stream' }, { channels: batch, mode: 0 }]],
    ['channels of the whole file as the Arrow file', 'claim', () => [`${dataset}/channels`, { Accept: 'application/vnd.apache.arrow.file' }, { channels: batch, mode: 0 }]],
    ['a lap of a few channels as the Arrow stream (on the bus)', 'bus', () => [`${dataset}/channels?maxPoints=2000`, { Accept: 'application/vnd.apache.arrow.stream' }, { channels: ['Air Temp Inlet', 'Brake Temp FL', 'Brake Temp RL'], mode: 1, lapIndex: 1 }]],
  ];

  /** Each read's identity answer, made once (by the first coding's test that needs it): nothing is held, so it is the same each time. */
  const identities = new Map<string, Promise<Raw>>();
  const identityOf = (what: string, [path, headers, body]: [string, Record<string, string>, unknown?]) => {
    if (!identities.has(what)) identities.set(what, raw(path, { ...headers, 'Accept-Encoding': 'identity' }, body));
    return identities.get(what) as Promise<Raw>;
  };

  describe.each(['zstd', 'gzip', 'br'])('Accept-Encoding: %s', (coding) => {
    test.each(reads)('when %s is read, then it comes compressed and decodes to the identity answer, byte for byte', async (what, road, read) => {
      const [path, headers, body] = read();
      const identity = await identityOf(what, [path, headers, body]);
      const got = await raw(path, { ...headers, 'Accept-Encoding': coding }, body);
      expect(identity.status).toBe(200);
      expect(identity.bytes.byteLength).toBeGreaterThan(8 * 1024);
      expect(identity.bytes.byteLength > CLAIM_INLINE_MAX_BYTES ? 'claim' : 'bus').toBe(road);
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(got.status).toBe(200);
      expect(got.headers['content-encoding']).toBe(coding);
      expect(got.headers['content-type']).toBe(identity.headers['content-type']);
      expect(String(got.headers['vary'])).toContain('Accept-Encoding');
      expect(got.bytes.byteLength).toBeLessThan(identity.bytes.byteLength);
      // A claimed answer streams through the compressor, chunked; one that rode the bus is compressed whole, with its length.
      if (road === 'claim') expect([got.headers['content-length'], got.headers['transfer-encoding']]).toEqual([undefined, 'chunked']);
      else expect(got.headers['content-length']).toBe(String(got.bytes.byteLength));
      expect((decoders[coding] as (b: Buffer) => Buffer)(got.bytes).equals(identity.bytes)).toBe(true);
    });
  });

  test('when the client library-style reader (fetch, gzip by default) reads the binary body and the Arrow stream, then they decode as the identity answers do', async () => {
    const binaryPath = `${started.base}${dataset}/channels`;
    const post = (accept: string, encoding?: string) => fetch(binaryPath, { method: 'POST', headers: { ...started.headers, 'Content-Type': 'application/json', Accept: accept, ...(encoding ? { 'Accept-Encoding': encoding } : {}) }, body: JSON.stringify({ channels: batch, mode: 0 }) });
    const compressed = await post('application/x-service-channels');
    expect(compressed.headers.get('content-encoding')).toBe('gzip');
    const identity = await post('application/x-service-channels', 'identity');
    expect(identity.headers.get('content-encoding')).toBeNull();
    const series = decodeChannelsBody(new Uint8Array(await compressed.arrayBuffer()));
    expect(series.map((s) => s.name)).toEqual(batch);
    expect(series).toEqual(decodeChannelsBody(new Uint8Array(await identity.arrayBuffer())));
    const arrow = tableFromIPC(new Uint8Array(await (await post('application/vnd.apache.arrow.stream')).arrayBuffer()));
    const arrowIdentity = tableFromIPC(new Uint8Array(await (await post('application/vnd.apache.arrow.stream', 'identity')).arrayBuffer()));
    expect(arrow.numRows).toBe(arrowIdentity.numRows);
    expect(arrow.schema.fields.map((f) => f.name)).toEqual(arrowIdentity.schema.fields.map((f) => f.name));
  });
});
