import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { FilesystemBlobStore } from '@pitwall/blob-store';
import { compressLz4, openDataFile } from '@pitwall/formats';
import { AMQP_URL, DistributedStack, REDIS_URL } from './support/distributed';

const ROOT = join(__dirname, '..', '..', '..');

/** A RunSheet row and its compressed Sample1.ld as the upload flow leaves them (state 2, bytes in the blob store). */
async function seedDataset(databaseUrl: string, blobDir: string, accountId: string, bytes: Uint8Array): Promise<string> {
  const pg = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const id = randomUUID();
    await pg.query(`INSERT INTO entity.entities (id, account_id, type, parameters, created_at, modified_at) VALUES ($1, $2, 'RunSheets', '{"Name":"killed read"}', now(), now())`, [id, accountId]);
    const stored = await new FilesystemBlobStore(blobDir).putStream([await compressLz4(bytes)]);
    await pg.query(
      `INSERT INTO entity.attached_files (id, account_id, entity_id, file_name, group_name, use_compression, state, file_size, created_time, modified_at, blob_key, blob_sha256)
       VALUES ($1, $2, $3, 'Sample1.ld', 'DataFile', true, 2, $4, now(), now(), $5, $6)`,
      [randomUUID(), accountId, id, bytes.byteLength, stored.key, stored.sha256],
    );
    return id;
  } finally {
    await pg.end();
  }
}

describe('when the datafile-service is killed (SIGKILL) in the middle of a read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pitwall-dfs-kill-'));
  let stack: DistributedStack;
  let replacement: ChildProcess | undefined;
  afterAll(async () => {
    replacement?.kill('SIGTERM');
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('then a restarted instance answers the read (redelivered) with every sample, and later reads work', async () => {
    const env = { BLOB_DIR: join(dir, 'blobs'), DATAFILE_CACHE_DIR: join(dir, 'decompressed') };
    stack = await DistributedStack.start({ env });
    const m = await stack.member('admin');
    const bytes = new Uint8Array(readFileSync(join(ROOT, 'libs', 'formats', 'test', 'fixtures', 'telemetry', 'Sample1.ld')));
    const eager = openDataFile(bytes);
    const runSheet = await seedDataset(stack.databaseUrl, env.BLOB_DIR, m.accountId, bytes);
    const names = eager.channels.filter((c) => !c.unsupported).map((c) => c.name);

    // The first read of a compressed blob decompresses it first: the kill lands while that work is under way.
    const inFlight = m.client.getRunSheetDataFileChannels(runSheet, 'DataFile', { channels: names, mode: 0 });
    const killed = stack.stack.procs.find((p) => p.name === 'datafile-service');
    await new Promise((resolve) => {
      killed?.child.once('exit', resolve);
      setTimeout(() => killed?.child.kill('SIGKILL'), 5);
    });

    replacement = spawn(process.execPath, [join(ROOT, 'dist', 'apps', 'datafile-service', 'main.js')], {
      env: { ...process.env, ...env, DATABASE_URL: stack.databaseUrl, AMQP_URL, REDIS_URL, BUS_PREFIX: `${stack.prefix}.`, HEALTH_PORT: '0', LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    const answer = await inFlight;
    expect(answer.statusCode).toBe(200);
    const channels = (answer.returnValue as { channels: { name: string; samples: (number | null)[] }[] }).channels;
    expect(channels.map((c) => c.name)).toEqual(names);
    expect(channels.find((c) => c.name === 'Engine RPM')?.samples).toEqual(Array.from(eager.readChannel('Engine RPM').samples));

    const lap = await m.client.getRunSheetDataFileChannel(runSheet, 'DataFile', 'Ground Speed', { lapIndex: 1 });
    expect(lap.statusCode).toBe(200);
  }, 180_000);
});
