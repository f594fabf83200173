import { randomBytes, randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import pino from 'pino';
import { SealedValueRepository } from '../../src/data-access/sealed-value-repository';
import { recordedRegistrationSecret } from '../../src/domain/callbacks';
import { SecretBox } from '../../src/domain/secret-box';
import { ROTATION_DONE, SecretRotation } from '../../src/domain/secret-rotation';
import { useMigratedDatabase } from '../support/migrated-database';

const keyA = randomBytes(32);
const keyB = randomBytes(32);
const lostKey = randomBytes(32);
const underA = new SecretBox(keyA);
const onlyB = new SecretBox(keyB);
const rotating = new SecretBox(keyB, [keyA]);

/** A logger whose lines the test reads. */
function capturedLogger(): { logger: pino.Logger; lines: { level: number; msg: string; [field: string]: unknown }[] } {
  const lines: { level: number; msg: string }[] = [];
  return { lines, logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }) }) };
}

describe('the re-seal sweep of SIMULATION_SECRET_KEY_PREVIOUS (SecretRotation)', () => {
  const db = useMigratedDatabase(6);

  test('when two instances sweep one database at once, then each value under the previous key is re-sealed once, every value opens under the new key alone to what it held, finished jobs and values under no configured key are left, and the done line follows', async () => {
    const { pool } = db;
    const accounts = Array.from({ length: 23 }, () => randomUUID());
    for (const [i, account] of accounts.entries()) {
      await pool.query('INSERT INTO simulation.connections (account_id, sealed) VALUES ($1, $2)', [account, underA.seal({ clientId: `client-${i}` })]);
      await pool.query(`INSERT INTO simulation.callbacks (id, account_id, url, sealed_secret) VALUES ($1, $2, 'https://hooks.example/', $3)`, [randomUUID(), account, underA.seal(`whsec_${i}`)]);
      const created = { id: randomUUID(), url: 'https://hooks.example/', description: null, createdAt: new Date().toISOString(), secret: underA.seal(`whsec_${i}`).toString('base64') };
      await pool.query(`INSERT INTO simulation.inbox (scope, command_id, request_hash, reply_body) VALUES ($1, $2, 'h', $3)`, [account, `key:${i}`, Buffer.from(JSON.stringify(created))]);
      await pool.query(`INSERT INTO simulation.inbox (scope, command_id, request_hash, reply_body) VALUES ($1, $2, 'h', $3)`, [account, `other:${i}`, Buffer.from(JSON.stringify({ results: [] }))]);
      await pool.query(`INSERT INTO simulation.jobs (id, account_id, profile_id, setup_id, kind, state, sealed_credentials) VALUES ($1, $2, $3, $4, 'trigger', 'Requested', $5)`, [randomUUID(), account, randomUUID(), randomUUID(), underA.seal({ clientId: `job-${i}` })]);
    }
    const finishedJob = randomUUID();
    await pool.query(`INSERT INTO simulation.jobs (id, account_id, profile_id, setup_id, kind, state, sealed_credentials) VALUES ($1, $2, $3, $4, 'trigger', 'Processing completed', $5)`, [finishedJob, randomUUID(), randomUUID(), randomUUID(), underA.seal({ clientId: 'finished' })]);
    const lostAccount = randomUUID();
    const lost = new SecretBox(lostKey).seal({ clientId: 'lost' });
    await pool.query('INSERT INTO simulation.connections (account_id, sealed) VALUES ($1, $2)', [lostAccount, lost]);

    const one = capturedLogger();
    const two = capturedLogger();
    const repository = new SealedValueRepository(pool);
    const sweeps = [new SecretRotation(repository, rotating, { batchRows: 5 }, one.logger), new SecretRotation(repository, rotating, { batchRows: 5 }, two.logger)];
    const counts = await Promise.all(sweeps.map((sweep) => sweep.pass()));
    for (const table of ['connections', 'jobs', 'callbacks', 'registrations'] as const) expect([table, counts.reduce((sum, c) => sum + c[table].resealed, 0)]).toEqual([table, accounts.length]);
    expect(counts.map((c) => c.connections.unopenable)).toEqual([1, 1]);

    const connections = await pool.query<{ account_id: string; sealed: Buffer }>('SELECT account_id, sealed FROM simulation.connections');
    for (const row of connections.rows) {
      if (row.account_id === lostAccount) expect(row.sealed).toEqual(lost);
      else expect(onlyB.sealedUnder(row.sealed)).toBe('current');
    }
    expect(connections.rows.filter((r) => r.account_id !== lostAccount).map((r) => onlyB.open<{ clientId: string }>(r.sealed).clientId).sort()).toEqual(accounts.map((_, i) => `client-${i}`).sort());
    const jobs = await pool.query<{ id: string; sealed_credentials: Buffer }>('SELECT id, sealed_credentials FROM simulation.jobs');
    for (const row of jobs.rows) expect([row.id === finishedJob, onlyB.sealedUnder(row.sealed_credentials)]).toEqual(row.id === finishedJob ? [true, 'none'] : [false, 'current']);
    const callbacks = await pool.query<{ sealed_secret: Buffer }>('SELECT sealed_secret FROM simulation.callbacks');
    expect(callbacks.rows.map((r) => onlyB.open<string>(r.sealed_secret)).sort()).toEqual(accounts.map((_, i) => `whsec_${i}`).sort());
    const inbox = await pool.query<{ command_id: string; reply_body: Buffer }>('SELECT command_id, reply_body FROM simulation.inbox');
    for (const row of inbox.rows) {
      const sealed = recordedRegistrationSecret.sealedIn(row.reply_body);
      if (row.command_id.startsWith('other:')) expect(JSON.parse(row.reply_body.toString('utf8'))).toEqual({ results: [] });
      else expect(sealed && onlyB.open<string>(sealed)).toBe(`whsec_${row.command_id.slice(4)}`);
    }

    const resealedLines = [...one.lines, ...two.lines].filter((l) => l.msg.includes('re-sealed under SIMULATION_SECRET_KEY'));
    expect(resealedLines.length).toBeGreaterThan(0);
    expect([...one.lines, ...two.lines].filter((l) => l.level === 40).map((l) => l.unopenable)).toEqual([{ connections: 1 }, { connections: 1 }]);
    // The next pass finds nothing under the previous key: the line that says it may be removed (once).
    await Promise.all(sweeps.map((sweep) => sweep.pass()));
    await sweeps[0]?.pass();
    expect(one.lines.filter((l) => l.msg === ROTATION_DONE).length).toBe(1);
    expect(two.lines.filter((l) => l.msg === ROTATION_DONE).length).toBe(1);
    expect(ROTATION_DONE).toBe('no value is sealed under SIMULATION_SECRET_KEY_PREVIOUS any more: it can be removed');
  });
  test('when another writer takes the same callbacks in id order (a fan-out counting their deliveries, in one transaction) while a pass re-seals them, whatever join the database plans, then neither deadlocks: the row the writer holds is skipped, not waited for, and re-sealed by the next pass', async () => {
    const { pool } = db;
    const account = randomUUID();
    const [low, high] = [randomUUID(), randomUUID()].sort() as [string, string];
    // Stored high first: a scan of the table meets it before the low one.
    for (const id of [high, low]) await pool.query(`INSERT INTO simulation.callbacks (id, account_id, url, sealed_secret) VALUES ($1, $2, 'https://hooks.example/', $3)`, [id, account, underA.seal(`whsec_${id}`)]);
    // The sweep's session joins by hashing over a scan of the table (a plan a large table may get): rows come in the order
    // they are stored, not in key order.
    const scanning = new Pool({ ...pool.options, max: 1, options: '-c enable_nestloop=off -c enable_mergejoin=off' });
    scanning.on('error', () => undefined);
    const sweep = new SecretRotation(new SealedValueRepository(scanning), rotating, {}, capturedLogger().logger);
    const delivery = (callbackId: string) => [randomUUID(), callbackId, randomUUID(), randomUUID()];
    const deliver = `INSERT INTO simulation.callback_deliveries (id, callback_id, webhook_id, setup_id, status, body) VALUES ($1, $2, $3, $4, 'Running', '{}')`;
    const writer = await pool.connect();
    try {
      await writer.query('BEGIN');
      await writer.query(deliver, delivery(low)); // its counters' update holds the low callback
      let settled = false;
      const passing = sweep.pass().finally(() => (settled = true));
      passing.catch(() => undefined);
      // The pass is done, or waits for a row lock (the low callback, or its rows taken out of order).
      const waiting = async () => (await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")).rows[0]?.n ?? 0;
      while (!settled && (await waiting()) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      await writer.query(deliver, delivery(high)); // then the high one
      await writer.query('COMMIT');
      const counts = await passing;
      expect(counts.callbacks).toEqual({ previous: 2, resealed: 1, unopenable: 0 });
    } finally {
      await writer.query('ROLLBACK').catch(() => undefined); // ended by a deadlock: not back to the pool inside a transaction
      writer.release();
    }
    expect((await sweep.pass()).callbacks).toEqual({ previous: 1, resealed: 1, unopenable: 0 });
    await scanning.end();
    const { rows } = await pool.query<{ id: string; sealed_secret: Buffer; pending: string }>('SELECT id, sealed_secret, pending FROM simulation.callbacks WHERE account_id = $1 ORDER BY id', [account]);
    expect(rows.map((r) => [r.id, onlyB.open<string>(r.sealed_secret), Number(r.pending)])).toEqual([low, high].map((id) => [id, `whsec_${id}`, 1]));
  });

  test('when two instances run with the keys swapped (a roll-out in progress: each seals under the other\'s previous key), then each re-seals the other\'s values once more at once after a pass that found some, not in a loop until the interval', async () => {
    const { pool } = db;
    const account = randomUUID();
    await pool.query('INSERT INTO simulation.connections (account_id, sealed) VALUES ($1, $2)', [account, underA.seal({ clientId: 'swapped' })]);
    const repository = new SealedValueRepository(pool);
    const passes = [0, 0];
    const sweeps = [new SecretRotation(repository, new SecretBox(keyB, [keyA]), { intervalMs: 60_000 }, capturedLogger().logger), new SecretRotation(repository, new SecretBox(keyA, [keyB]), { intervalMs: 60_000 }, capturedLogger().logger)];
    sweeps.forEach((sweep, k) => {
      const pass = sweep.pass.bind(sweep);
      sweep.pass = async () => {
        passes[k] = (passes[k] ?? 0) + 1;
        return pass();
      };
    });
    try {
      for (const sweep of sweeps) sweep.start();
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      // The first pass and the one at once after it; the next wait for the interval.
      for (const count of passes) expect(count).toBeLessThanOrEqual(2);
    } finally {
      await Promise.all(sweeps.map((sweep) => sweep.stop()));
    }
  });
});
