import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3BlobStore, contentKey } from '@pitwall/blob-store';
import { DistributedStack, type Member } from './support/distributed';

// s3rver is the test's own S3 server (port 0, its own directory), stopped and started again by the test: the store
// going away. The directory store goes away when a file takes the place of its parent directory (tests run as root,
// so chmod would not stop a write).
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => { run(): Promise<{ port: number }>; close(): Promise<void>; httpServer: { closeAllConnections(): void } };

const ROOT = join(__dirname, '..', '..', '..');
/** A MoTeC .ld file the datafile-service reads metadata and channels from. */
const SAMPLE = new Uint8Array(readFileSync(join(ROOT, 'libs', 'formats', 'test', 'fixtures', 'telemetry', 'Sample1.ld')));
/** One of its channels. */
const CHANNEL = 'Air Temp Inlet';
const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** A blob store the test can take away and bring back, and look into. */
interface StoreUnderTest {
  env: Record<string, string>;
  cut(): Promise<void>;
  restore(): Promise<void>;
  /** Every key it holds (`sha256/...`, `staging/...`). */
  keys(): Promise<string[]>;
  stop(): Promise<void>;
}

async function s3Store(dir: string): Promise<StoreUnderTest> {
  const bucket = `pitwall-${randomUUID().slice(0, 8)}`;
  const start = async (port: number) => {
    const server = new S3rver({ port, address: '127.0.0.1', silent: true, directory: join(dir, 's3'), configureBuckets: [{ name: bucket }] });
    return { server, port: (await server.run()).port };
  };
  let running: Awaited<ReturnType<typeof start>> | undefined = await start(0);
  const endpoint = `http://127.0.0.1:${running.port}`;
  const port = running.port;
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const look = new S3BlobStore({ endpoint, region: 'us-east-1', bucket, credentials, forcePathStyle: true });
  const cut = async () => {
    // Connections in use are cut too: a request under way fails as it would when the store's host goes.
    running?.server.httpServer.closeAllConnections();
    await running?.server.close();
    running = undefined;
  };
  return {
    env: { BLOB_STORE: 's3', S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: credentials.accessKeyId, S3_SECRET_ACCESS_KEY: credentials.secretAccessKey, S3_FORCE_PATH_STYLE: 'true' },
    cut,
    restore: async () => void (running = await start(port)),
    keys: async () => {
      const keys: string[] = [];
      for (const area of ['sha256', 'staging'] as const) for await (const blob of look.list(area)) keys.push(blob.key);
      return keys.sort();
    },
    stop: async () => {
      await look.close();
      await cut();
    },
  };
}

async function directoryStore(dir: string): Promise<StoreUnderTest> {
  const volume = join(dir, 'volume');
  const blobs = join(volume, 'blobs');
  const list = (area: string) => {
    try {
      return readdirSync(join(blobs, area)).filter((n) => !n.startsWith('.tmp-')).map((n) => `${area}/${n}`);
    } catch {
      return [];
    }
  };
  return {
    env: { BLOB_STORE: 'fs', BLOB_DIR: blobs },
    cut: async () => {
      renameSync(volume, `${volume}.away`);
      writeFileSync(volume, 'a file where the blob directory was');
    },
    restore: async () => {
      rmSync(volume);
      renameSync(`${volume}.away`, volume);
    },
    keys: async () => [...list('sha256'), ...list('staging')].sort(),
    stop: async () => undefined,
  };
}

interface Answer {
  status: number;
  retryAfter: string | null;
  body: unknown;
}

const until = async <T>(probe: () => Promise<T | undefined>, what: string, ms = 30_000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

describe.each([
  ['S3 (s3rver stopped)', s3Store],
  ['directory (a file where its parent was)', directoryStore],
] as const)('the blob store going away on the five-process stack: %s', (_name, makeStore) => {
  const dir = mkdtempSync(join(tmpdir(), 'pitwall-e2e-blob-faults-'));
  let store: StoreUnderTest;
  let stack: DistributedStack;
  let m: Member;
  /** Every file finalised, by id: its entity and its bytes (what must be readable at the end). */
  const finalised = new Map<string, { path: string; bytes: Uint8Array }>();

  beforeAll(async () => {
    store = await makeStore(dir);
    // Sweeps every second of blobs over 3 s old: the test sees what an hour's sweep does.
    stack = await DistributedStack.start({ env: { DATA_DIR: join(dir, 'data'), ...store.env, BLOB_SWEEP_INTERVAL_S: '1', BLOB_SWEEP_GRACE_S: '3' }, readyTimeoutMs: 90_000 });
    m = await stack.member('admin');
  }, 180_000);
  afterAll(async () => {
    await stack?.stop();
    await store?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const api = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const res = await fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { ApiKey: m.apiKey, AccountId: m.accountId, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: text ? (JSON.parse(text) as unknown) : null };
  };
  const name = (value: string) => ({ ParameterUpdates: [{ Name: 'Name', Value: value }] });
  const idOf = (r: { statusCode: number; returnValue: { Id: string } | null }): string => {
    if (!r.returnValue) throw new Error(`create answered ${r.statusCode}`);
    return r.returnValue.Id;
  };
  const newCar = async (label: string): Promise<string> => idOf(await m.client.addCar(name(label)));
  /** A run sheet under its championship, event, session and car entry. */
  const runSheet = async (): Promise<string> => {
    const event = idOf(await m.client.addEvent(idOf(await m.client.addChampionship(name('Faults'))), name('Spa')));
    const session = idOf(await m.client.addSession(event, name('FP1')));
    const car = await newCar('Car 7');
    idOf(await m.client.addEventCar(event, car, name('Car 7')));
    return idOf(await m.client.addRunSheet(session, car, name('Run 1')));
  };
  /** Prepared and its bytes PUT: waiting for its finalise. */
  const uploaded = async (path: string, bytes: Uint8Array, group = 'DataFile'): Promise<string> => {
    const prepared = await api('POST', `${path}/Attachments`, { FileName: 'Sample1.ld', AttachedFileGroupName: group });
    expect(prepared.status).toBe(200);
    const { AttachedFileId, Url } = prepared.body as { AttachedFileId: string; Url: string };
    expect((await fetch(Url, { method: 'PUT', body: bytes })).status).toBe(200);
    return AttachedFileId;
  };
  const finalise = (path: string, id: string) => api('PUT', `${path}/Attachments/${id}`, { ParameterUpdates: [{ Name: 'ServerAttachedFileState', Value: '2' }] });
  /** A finalise retried (as the Retry-After says) until it succeeds: every answer on the way is a 503 with Retry-After. */
  const finaliseUntilDone = async (path: string, id: string, bytes: Uint8Array): Promise<void> => {
    const answer = await until(async () => {
      const a = await finalise(path, id);
      if (a.status === 200) return a;
      expect([a.status, a.retryAfter === null]).toEqual([503, false]);
      return undefined;
    }, 'the finalise to succeed');
    expect(answer.status).toBe(200);
    finalised.set(id, { path, bytes });
  };
  const ready = async (): Promise<Record<string, string>> => {
    const res = await fetch(`${stack.baseUrl}/health/ready`);
    return ((await res.json()) as { dependencies: Record<string, string> }).dependencies;
  };
  /** A file's bytes as a client downloads them: from the signed URL of its listing. */
  const download = async (path: string, id: string): Promise<Buffer> => {
    const listed = await api('GET', `${path}/Attachments?attachedFileIds=${id}`);
    const url = (listed.body as { SignedURL: string }[])[0]?.SignedURL as string;
    const res = await fetch(url);
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  };
  /** What the records refer to: the store must end up holding exactly these. */
  const referencedKeys = () => [...new Set([...finalised.values()].map((f) => contentKey(sha256(f.bytes))))].sort();

  test('when the store is down, then finalise, metadata and channel reads of content never read, and downloads answer 503 with Retry-After (never 500), readiness names it, a delete still removes its record, and once the store is back the retries succeed and the sweep leaves no orphan', async () => {
    const sheet = await runSheet();
    const sheetPath = `/RunSheets/${sheet}`;
    const car = await newCar('Car 12');
    const carPath = `/Cars/${car}`;
    const unread = new Uint8Array(SAMPLE);
    const kept = await uploaded(sheetPath, unread);
    await finaliseUntilDone(sheetPath, kept, unread);
    // Unique bytes for the file deleted while the store is down: its blob is the orphan the sweep must take.
    const doomedBytes = Buffer.from(`pit stop plan ${randomUUID()}`);
    const doomed = await uploaded(carPath, doomedBytes, 'Plans');
    await finaliseUntilDone(carPath, doomed, doomedBytes);
    finalised.delete(doomed);
    const waitingBytes = Buffer.from(`tyre pressures ${randomUUID()}`);
    const waiting = await uploaded(carPath, waitingBytes, 'Tyres');

    await store.cut();
    const outage = await Promise.all([
      finalise(carPath, waiting),
      api('GET', `${sheetPath}/DataFileAccess/DataFile/metadata`),
      api('GET', `${sheetPath}/DataFileAccess/DataFile/channel?channel=${encodeURIComponent(CHANNEL)}`),
    ]);
    for (const answer of outage) expect([answer.status, answer.retryAfter !== null]).toEqual([503, true]);
    if (store.env['BLOB_STORE'] === 'fs') {
      // The gateway serves the directory store's downloads itself: the signed GET is the route that needs the store.
      const listed = await api('GET', `${sheetPath}/Attachments?attachedFileIds=${kept}`);
      const got = await fetch((listed.body as { SignedURL: string }[])[0]?.SignedURL as string);
      expect([got.status, got.headers.get('retry-after') !== null]).toEqual([503, true]);
    }
    // The probe's answer stands 3 s: readiness says so within a few seconds (the gateway stays ready: only the routes
    // that need the store answer 503).
    await until(async () => ((await ready())['blobStore'] === 'degraded' ? true : undefined), 'readiness to name the store', 10_000);
    // The record goes; its object is left for the sweep.
    expect((await api('DELETE', `${carPath}/Attachments/${doomed}`)).status).toBe(204);
    expect(((await api('GET', `${carPath}/Attachments`)).body as { Id: string }[]).map((f) => f.Id)).toEqual([waiting]);

    await store.restore();
    await until(async () => ((await ready())['blobStore'] === 'up' ? true : undefined), 'readiness to see the store again', 15_000);
    await finaliseUntilDone(carPath, waiting, waitingBytes);
    const metadata = await api('GET', `${sheetPath}/DataFileAccess/DataFile/metadata`);
    expect(metadata.status).toBe(200);
    expect((await api('GET', `${sheetPath}/DataFileAccess/DataFile/channel?channel=${encodeURIComponent(CHANNEL)}`)).status).toBe(200);

    await until(async () => (JSON.stringify(await store.keys()) === JSON.stringify(referencedKeys()) ? true : undefined), 'the sweep to leave only referenced blobs');
    expect(await store.keys()).not.toContain(contentKey(sha256(doomedBytes)));
    for (const [id, f] of finalised) expect((await download(f.path, id)).equals(Buffer.from(f.bytes))).toBe(true);
  }, 120_000);

  test('when the store goes away in the middle of finalises, reads and deletes, then each answers or is a 503 with Retry-After (never 500), and after its return the retried finalises succeed, every finalised file reads back, and the sweep leaves no orphan', async () => {
    const car = await newCar('Car 33');
    const carPath = `/Cars/${car}`;
    // Files large enough that their promotion (read through, hashed, copied) is under way when the store goes.
    const files = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const bytes = Buffer.concat([Buffer.from(`stint ${i} ${randomUUID()}\n`), Buffer.alloc(2 * 1024 * 1024, i)]);
        return { id: await uploaded(carPath, bytes, `Stint${i}`), bytes };
      }),
    );
    const doomed = await Promise.all(
      Array.from({ length: 3 }, async (_, i) => {
        const bytes = Buffer.from(`strategy ${i} ${randomUUID()}`);
        const id = await uploaded(carPath, bytes, `Strategy${i}`);
        await finaliseUntilDone(carPath, id, bytes);
        finalised.delete(id);
        return id;
      }),
    );
    const sheets = await Promise.all([runSheet(), runSheet()]);
    for (const sheet of sheets) {
      // Content never read before on this stack: unique bytes appended after the file's end change its hash only.
      const bytes = Buffer.concat([SAMPLE, Buffer.from(randomUUID())]);
      await finaliseUntilDone(`/RunSheets/${sheet}`, await uploaded(`/RunSheets/${sheet}`, bytes), bytes);
    }

    const finalises = files.map((f) => finalise(carPath, f.id));
    const reads = sheets.map((s) => api('GET', `/RunSheets/${s}/DataFileAccess/DataFile/metadata`));
    const deletes = doomed.map((id) => api('DELETE', `${carPath}/Attachments/${id}`));
    await new Promise((r) => setTimeout(r, 30));
    await store.cut();
    const answers = await Promise.all([...finalises, ...reads]);
    for (const a of answers) {
      // Anything else is said with what the stack's processes logged of that request (its trace id), to find its cause.
      if (a.status !== 200 && a.status !== 503) {
        const traceId = (a.body as { traceId?: string } | null)?.traceId ?? '';
        const logged = stack.stack.procs.flatMap((p) => p.output.split('\n').filter((line) => traceId && line.includes(traceId)).map((line) => `[${p.name}] ${line.slice(0, 2000)}`));
        throw new Error(`answered ${a.status}: ${JSON.stringify(a.body)}\n${logged.join('\n')}`);
      }
      if (a.status === 503) expect(a.retryAfter).not.toBeNull();
    }
    for (const a of await Promise.all(deletes)) expect(a.status).toBe(204);

    await store.restore();
    for (const f of files) await finaliseUntilDone(carPath, f.id, f.bytes);
    for (const s of sheets) {
      const read = await until(async () => {
        const a = await api('GET', `/RunSheets/${s}/DataFileAccess/DataFile/metadata`);
        return a.status === 503 ? undefined : a;
      }, 'the read to succeed');
      expect(read.status).toBe(200);
    }
    await until(async () => (JSON.stringify(await store.keys()) === JSON.stringify(referencedKeys()) ? true : undefined), 'the sweep to leave only referenced blobs');
    for (const [id, f] of finalised) expect((await download(f.path, id)).equals(Buffer.from(f.bytes))).toBe(true);
  }, 180_000);
});
