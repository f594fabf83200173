import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { FilesystemBlobStore, UrlSigner } from '@pitwall/blob-store';
import type { Bus } from '@pitwall/bus';
import { entityService } from '@pitwall/entity-service';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { createLogger, listen, type HttpEntryPoint } from '@pitwall/service-kit';
import { buildGateway } from '../../src/app';
import { authHeaders, fakeAuth, send } from '../support/gateway-harness';

const SECRET = 'component-test-signing-secret';
const MAX_UPLOAD_BYTES = 1024 * 1024;
const json = { ...authHeaders, 'Content-Type': 'application/json' };
/** The bus timeout of the impatient gateway: its finalise answers 504 while the entity-service still works on it. */
const SHORT_TIMEOUT_MS = 400;

/** The stack's bus, with every request's timeout cut to `timeoutMs` (a gateway whose BUS_TIMEOUT_MS is that). */
function impatient(bus: Bus, timeoutMs: number): Bus {
  return new Proxy(bus, {
    get(target, prop, receiver) {
      if (prop === 'request' || prop === 'requestEncoded') return (service: string, type: string, payload: unknown, options: object = {}) => target[prop](service, type, payload, { ...options, timeoutMs });
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe('a finalise that outlasts the bus timeout (entity-service in-process, real PostgreSQL)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pitwall-long-finalise-'));
  const blobDir = join(dir, 'blobs');
  let stack: InProcessStack;
  let http: HttpEntryPoint;
  let hasty: HttpEntryPoint;
  let db: Client;

  beforeAll(async () => {
    stack = await startInProcessStack();
    const logger = createLogger('gateway-test', 'silent');
    const attachments = { blobs: new FilesystemBlobStore(blobDir), signer: new UrlSigner(SECRET), maxUploadBytes: MAX_UPLOAD_BYTES };
    http = await listen(buildGateway({ bus: stack.bus, auth: fakeAuth, logger, attachments }), 0, '127.0.0.1');
    hasty = await listen(buildGateway({ bus: impatient(stack.bus, SHORT_TIMEOUT_MS), auth: fakeAuth, logger, attachments }), 0, '127.0.0.1');
    await stack.start(entityService, { BLOB_DIR: blobDir, URL_SIGNING_SECRET: SECRET, PUBLIC_BASE_URL: http.address, MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES), UPLOAD_URL_TTL_S: '600' });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await hasty?.stop();
    await http?.stop();
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A car with one uploaded (state 1) file: its id, the file's id and its blob key. */
  async function uploadedFile(): Promise<{ car: string; file: string; blobKey: string }> {
    const created = await fetch(`${http.address}/Cars`, { method: 'POST', headers: json, body: JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: `Car ${randomUUID().slice(0, 8)}` }] }) });
    expect(created.status).toBe(201);
    const car = ((await created.json()) as { Id: string }).Id;
    const prepared = await fetch(`${http.address}/Cars/${car}/Attachments`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ FileName: 'setup.txt', CustomPropertyAttachedFileName: null, IfSingleOverwriteExisting: false, AutoDownload: false, UseCompression: false, AttachedFileGroupName: null }),
    });
    expect(prepared.status).toBe(200);
    const { AttachedFileId: file, Url } = (await prepared.json()) as { AttachedFileId: string; Url: string };
    expect((await send(Url, 'PUT', Url, { body: Buffer.from(`setup ${randomUUID()}`), headers: { 'Content-Type': 'application/octet-stream' } })).status).toBe(200);
    const { rows } = await db.query<{ blob_key: string }>('SELECT blob_key FROM entity.attached_files WHERE id = $1', [file]);
    return { car, file, blobKey: rows[0]?.blob_key as string };
  }

  const finalise = (base: string, car: string, file: string) =>
    fetch(`${base}/Cars/${car}/Attachments/${file}`, { method: 'PUT', headers: json, body: JSON.stringify({ LastModifiedTimeMaxAllowedValue: null, ParameterUpdates: [{ Name: 'ServerAttachedFileState', Value: '2' }], CollectionUpdateModels: {} }) });

  async function stateOf(car: string, file: string): Promise<unknown> {
    const res = await fetch(`${http.address}/Cars/${car}/Attachments?attachedFileIds=${file}`, { headers: authHeaders });
    expect(res.status).toBe(200);
    return ((await res.json()) as { Parameters: Record<string, unknown> }[])[0]?.Parameters['ServerAttachedFileState'];
  }

  /** Holds the lock a finalise takes on its bytes before it commits, until the returned function is called. */
  async function holdBlobLock(blobKey: string): Promise<() => Promise<void>> {
    const holder = new Client({ connectionString: stack.databaseUrl });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`blob:${blobKey}`]);
    return async () => {
      await holder.query('COMMIT');
      await holder.end();
    };
  }

  test('when the finalise is still checking as its caller is answered 504, then it commits all the same, a retry meanwhile is a 503 naming it, and a retry after answers the available file', async () => {
    const { car, file, blobKey } = await uploadedFile();
    // The finalise waits on its bytes' lock (as it waits on a gigabyte's LZ4 check) past the impatient gateway's timeout.
    const release = await holdBlobLock(blobKey);
    const timedOut = await finalise(hasty.address, car, file);
    expect(timedOut.status).toBe(504);
    expect(await timedOut.json()).toMatchObject({ type: expect.stringContaining('outcome-unknown') });

    // Retried while the first still works: no second check beside it, a 503 that says when to ask again.
    const retried = await finalise(http.address, car, file);
    expect(retried.status).toBe(503);
    expect(Number(retried.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(retried.headers.get('retry-after'))).toBeLessThanOrEqual(10);
    expect(((await retried.json()) as { detail: string }).detail).toBe(`Attached file ${file} is being finalised by another request (its bytes are being checked); retry to learn its outcome`);
    expect(await stateOf(car, file)).toBe(1);

    await release();
    // The first finalise commits past its deadline (before, it was rolled back and every retry began again).
    const until = Date.now() + 10_000;
    while ((await stateOf(car, file)) !== 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(await stateOf(car, file)).toBe(2);
    const again = await finalise(http.address, car, file);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { Parameters: Record<string, unknown> }).Parameters['ServerAttachedFileState']).toBe(2);
    // The lease ended with the commit.
    const { rows } = await db.query('SELECT finalising_token, finalising_until FROM entity.attached_files WHERE id = $1', [file]);
    expect(rows).toEqual([{ finalising_token: null, finalising_until: null }]);
  });

  test('when the process that held a finalise lease is gone (its lease ran out), then the next finalise takes it over and answers 200', async () => {
    const { car, file } = await uploadedFile();
    await db.query(`UPDATE entity.attached_files SET finalising_token = $2, finalising_until = now() + interval '20 seconds' WHERE id = $1`, [file, randomUUID()]);
    const held = await finalise(http.address, car, file);
    expect(held.status).toBe(503);
    expect(held.headers.get('retry-after')).toBe('10');
    expect(await stateOf(car, file)).toBe(1);

    await db.query(`UPDATE entity.attached_files SET finalising_until = now() - interval '1 second' WHERE id = $1`, [file]);
    const taken = await finalise(http.address, car, file);
    expect(taken.status).toBe(200);
    expect(await stateOf(car, file)).toBe(2);
  });

  test('when a finalise is refused for its bytes, then its lease ends with it and the next finalise is not told to wait', async () => {
    const { car, file } = await uploadedFile();
    await db.query(`UPDATE entity.attached_files SET blob_key = 'sha256/${'0'.repeat(64)}' WHERE id = $1`, [file]);
    const refused = await finalise(http.address, car, file);
    expect(refused.status).toBe(409);
    const again = await finalise(http.address, car, file);
    expect(again.status).toBe(409);
    const { rows } = await db.query('SELECT finalising_until FROM entity.attached_files WHERE id = $1', [file]);
    expect(rows).toEqual([{ finalising_until: null }]);
  });
});
