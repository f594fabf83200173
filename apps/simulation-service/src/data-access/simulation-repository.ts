import type { Pool, PoolClient } from 'pg';
import { SIMULATION_FINAL_STATUSES, type ParameterUpdate, type SimulationResult } from '@pitwall/contracts';
import type { Queryable } from '@pitwall/db';
import type { ProfileNames } from './entity-client';

export type JobKind = 'trigger' | 'reprocess';

export interface Job {
  id: string;
  accountId: string;
  profileId: string;
  setupId: string;
  kind: JobKind;
  sealedCredentials: Buffer | null;
  studyId: string | null;
  /** The last status written (`Requested`, `Running`, ...). */
  status: string;
  /** Events announced so far for this job: the next one carries sequence + 1. */
  sequence: number;
  /** True once the job gave up on the external system and went to the dead-letter queue. */
  deadLettered: boolean;
  /** The X-Request-Id of the Trigger or Reprocess that started the job: every status event of the job carries it. */
  requestId?: string | null;
  /**
   * The profile's setup parameter names the request wrote `Requested` under (null for a job older than them): a job
   * whose profile was deleted before it ran writes its last status under them.
   */
  profileNames?: ProfileNames | null;
}

/** The account's connection: its sealed credentials and the origin an admin bound them to. */
export interface StoredConnection {
  sealed: Buffer;
  origin: string | null;
}

/** A woken job, its times as PostgreSQL writes them (microseconds, which a Date would round). */
export interface WokenJob {
  id: string;
  wokenAt: string | null;
  wokenUntil: string;
}

/** Where a retention purge's next page starts: the last job of the page before, its time as PostgreSQL writes it. */
export interface PurgeCursor {
  updatedAt: string;
  id: string;
}

/** A setup's status write slot and who takes it: the id of the job whose status is about to be written. */
export interface WriteSlot {
  setupId: string;
  holder: string;
}

/**
 * A job's claim of its setup's write slot (`claimWriteSlot`). `heldMs`: how much longer the slot is held, by the claim
 * (`claimed`) or by its `writer` (`busy`; null when nobody holds it, or a holder whose lease lapsed was just freed).
 */
export type SlotClaim = { outcome: 'claimed'; heldMs: number } | { outcome: 'busy'; writer: string | null; heldMs: number } | { outcome: 'superseded' } | { outcome: 'lost' };

/**
 * What finishing a Trigger or Reprocess needs once it has checked its setups and holds their write slots: the
 * `Requested` write of each setup to be written, the jobs to commit with their answer (sealed credentials aside), and
 * that answer so far (the setups refused by the checks, and `jobId` on each that has a job).
 */
export interface PendingWork {
  kind: JobKind;
  profileId: string;
  profileNames: ProfileNames;
  /** The time written as the status's update time and announced (ISO 8601). */
  at: string;
  requestId: string | null;
  results: (SimulationResult & { jobId?: string })[];
  items: { id: string; updates: ParameterUpdate[] }[];
  jobs: { id: string; setupId: string; studyId: string | null }[];
}

/**
 * A Trigger or Reprocess recorded before it writes `Requested` (`recordPending`), until the transaction that commits
 * its jobs and answer removes it: whoever owns it finishes it, and one whose owner's hold lapsed (the owner died, or
 * stopped waiting) is taken over by the next to find it. Its setups' write slots are held for it meanwhile, however long.
 */
export interface PendingRequest {
  id: string;
  accountId: string;
  /** The inbox's command (a repeat of it finds this); null for a request without a command id. */
  command: { id: string; requestHash: string } | null;
  owner: string;
  sealedCredentials: Buffer | null;
  work: PendingWork;
}

interface PendingRow {
  id: string;
  account_id: string;
  command_id: string | null;
  request_hash: string | null;
  owner: string;
  sealed_credentials: Buffer | null;
  request: PendingWork;
  lapsed: boolean;
}

const toPending = (r: PendingRow): PendingRequest => ({
  id: r.id,
  accountId: r.account_id,
  command: r.command_id !== null && r.request_hash !== null ? { id: r.command_id, requestHash: r.request_hash } : null,
  owner: r.owner,
  sealedCredentials: r.sealed_credentials,
  work: r.request,
});

/**
 * A job `j` that may still run: not ended nor dead-lettered, and its setup's latest run (its third parameter the final
 * statuses).
 */
const ALIVE = `(NOT j.dead_lettered AND j.state <> ALL($3::text[])
  AND j.id IS NOT DISTINCT FROM (SELECT s.job_id FROM simulation.setup_runs s WHERE s.account_id = j.account_id AND s.setup_id = j.setup_id))`;

/** A waiting job `j` that may run now: alive, and no live lease of another run (a second delivery of a running job waits for that run to end). */
const RUNNABLE = `(${ALIVE} AND (j.runner_until IS NULL OR j.runner_until <= now()))`;

/** A job `j` that no worker runs (no live lease) and no delivery has reached since it was woken. */
const UNCLAIMED = `(j.runner_until IS NULL OR j.runner_until <= now()) AND (j.received_at IS NULL OR j.received_at < j.woken_at)`;

/**
 * How many slots of account `account` (an SQL expression) its jobs hold, `finals` (an SQL expression) the final
 * statuses, `except` an SQL condition on a job `h` left out: the jobs a worker runs (a live lease), and those woken from
 * waiting that no worker has taken yet (however long their message waits in the job queue: see `republishLapsed`); a
 * job at a last status or dead-lettered holds none (a last status clears its hold). Two counts, each a range of its own
 * index (jobs_running, jobs_woken: the account first), so the count reads the jobs holding slots, never the account's others.
 */
const slotsHeld = (account: string, finals: string, except = 'true'): string =>
  `((SELECT count(*)::int FROM simulation.jobs h WHERE h.account_id = ${account} AND h.runner_until > now() AND h.state <> ALL(${finals}) AND NOT h.dead_lettered AND ${except})
    + (SELECT count(*)::int FROM simulation.jobs h WHERE h.account_id = ${account} AND h.woken_until IS NOT NULL AND NOT (h.runner_until IS NOT NULL AND h.runner_until > now())
         AND h.state <> ALL(${finals}) AND NOT h.dead_lettered AND ${except}))`;

/**
 * A write slot's end while it is held for a request's recorded work (`recordPending`): never, in effect, until the work
 * is finished (a date, not 'infinity': a lease's time left is computed from it, which infinity would make an error).
 */
const HELD_FOR_WORK = `'9999-12-31 00:00:00+00'::timestamptz`;

/** The one order every transaction inserts and locks setup_runs rows in, so no two of them deadlock. */
const bySetupId = (a: { setupId: string }, b: { setupId: string }): number => (a.setupId < b.setupId ? -1 : a.setupId > b.setupId ? 1 : 0);

interface JobRow {
  id: string;
  account_id: string;
  profile_id: string;
  setup_id: string;
  kind: JobKind;
  sealed_credentials: Buffer | null;
  study_id: string | null;
  state: string;
  sequence: number;
  dead_lettered: boolean;
  request_id: string | null;
  profile_names: ProfileNames | null;
}

const toJob = (r: JobRow): Job => ({
  id: r.id,
  accountId: r.account_id,
  profileId: r.profile_id,
  setupId: r.setup_id,
  kind: r.kind,
  sealedCredentials: r.sealed_credentials,
  studyId: r.study_id,
  status: r.state,
  sequence: r.sequence,
  deadLettered: r.dead_lettered,
  requestId: r.request_id,
  profileNames: r.profile_names ?? null,
});

/** Connections, jobs and the setups' latest runs of the simulation schema: plain objects in and out (writes in the caller's transaction). */
export class SimulationRepository {
  constructor(private readonly pool: Pool) {}

  /** `origin`: the scheme://host:port the credentials are bound to (null: bound to none, sent nowhere). */
  async putConnection(q: Queryable, accountId: string, sealed: Buffer, origin: string | null): Promise<void> {
    await q.query(
      `INSERT INTO simulation.connections (account_id, sealed, origin) VALUES ($1, $2, $3)
       ON CONFLICT (account_id) DO UPDATE SET sealed = EXCLUDED.sealed, origin = EXCLUDED.origin, updated_at = now()`,
      [accountId, sealed, origin],
    );
  }

  async connection(accountId: string): Promise<StoredConnection | null> {
    const { rows } = await this.pool.query<{ sealed: Buffer; origin: string | null }>('SELECT sealed, origin FROM simulation.connections WHERE account_id = $1', [accountId]);
    return rows[0] ?? null;
  }

  /**
   * Queues accepted jobs: each waits in the table (marked waiting, no job message yet) until `wakeWaiting` publishes it
   * within its account's share, so a backlog of one account is never ahead of another account's job on the bus.
   */
  async insertJobs(q: Queryable, jobs: readonly Omit<Job, 'deadLettered'>[]): Promise<void> {
    if (!jobs.length) return;
    await q.query(
      `INSERT INTO simulation.jobs (id, account_id, profile_id, setup_id, kind, sealed_credentials, study_id, state, sequence, request_id, profile_names, waiting)
       SELECT *, true FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::bytea[], $7::text[], $8::text[], $9::int[], $10::text[], $11::jsonb[])`,
      [
        jobs.map((j) => j.id),
        jobs.map((j) => j.accountId),
        jobs.map((j) => j.profileId),
        jobs.map((j) => j.setupId),
        jobs.map((j) => j.kind),
        jobs.map((j) => j.sealedCredentials),
        jobs.map((j) => j.studyId),
        jobs.map((j) => j.status),
        jobs.map((j) => j.sequence),
        jobs.map((j) => j.requestId ?? null),
        jobs.map((j) => (j.profileNames ? JSON.stringify(j.profileNames) : null)),
      ],
    );
  }

  /**
   * Jobs not at a last status (nor dead-lettered) that are their setup's latest run, are not marked waiting
   * (`wakeWaiting` publishes those), and whose job message (its
   * routing key starts with `jobRoutingPrefix`; status events carry the job id too) is not still waiting in the outbox
   * (that one will be published): with an in-process bus, the jobs it lost with its process.
   */
  async unfinishedJobs(jobRoutingPrefix: string, q: Queryable = this.pool): Promise<{ id: string; accountId: string }[]> {
    const { rows } = await q.query<{ id: string; account_id: string }>(
      `SELECT j.id, j.account_id FROM simulation.jobs j
         JOIN simulation.setup_runs r ON r.account_id = j.account_id AND r.setup_id = j.setup_id AND r.job_id = j.id
        WHERE NOT j.dead_lettered AND NOT j.waiting AND j.state <> ALL($1::text[])
          AND NOT EXISTS (SELECT 1 FROM simulation.outbox o WHERE starts_with(o.routing_key, $2) AND o.payload->>'jobId' = j.id::text)
        ORDER BY j.created_at, j.id`,
      [SIMULATION_FINAL_STATUSES, jobRoutingPrefix],
    );
    return rows.map((r) => ({ id: r.id, accountId: r.account_id }));
  }

  /**
   * Frees every run's worker lease and the setup write slots those runs held (a run killed in the middle of a step),
   * the slots taken before `restart.at` by requests and steps outside a run (the dead process's Triggers and
   * Reprocesses, killed between taking them and recording their work), and starts every woken job's wait for its
   * message afresh (`republishMs` from now): with an in-process bus, after a restart and before any admission, the
   * leases were a dead process's and the woken jobs' messages died with it (`unfinishedJobs` has them published again
   * in the same transaction). `restart.at` is the database's clock when this process started, before it took any
   * request: the slots of this process's own requests (the bus serves before this runs) are kept, and so are those
   * held for a pending request (`recordPending`): it is finished by whoever takes it over.
   */
  async freeRuns(q: Queryable, republishMs: number, restart: { at: string }): Promise<void> {
    await q.query('UPDATE simulation.setup_runs s SET writer = NULL, writer_until = NULL FROM simulation.jobs j WHERE j.runner IS NOT NULL AND s.writer = j.runner');
    await q.query('UPDATE simulation.jobs SET runner = NULL, runner_until = NULL WHERE runner IS NOT NULL');
    await q.query(
      `UPDATE simulation.setup_runs SET writer = NULL, writer_until = NULL
        WHERE writer IS NOT NULL AND writer_until < ${HELD_FOR_WORK} AND (writer_since IS NULL OR writer_since < $1::timestamptz)`,
      [restart.at],
    );
    await q.query(`UPDATE simulation.jobs SET woken_at = now(), woken_until = now() + $1::int * interval '1 millisecond' WHERE woken_until IS NOT NULL`, [republishMs]);
  }

  /**
   * The database's clock (the one leases are written on), as PostgreSQL writes it: to the microsecond, which a `Date`
   * would cut to the millisecond (a slot taken in the millisecond before it would then pass for one taken after).
   */
  async databaseNow(): Promise<string> {
    // ISO 8601 in UTC, read back the same whatever the session's DateStyle and TimeZone.
    const { rows } = await this.pool.query<{ now: string }>(`SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS now`);
    const [row] = rows;
    if (!row) throw new Error('SELECT now() answered no row');
    return row.now;
  }

  /**
   * A delivery of the job reached a worker: the job, with the time recorded (`unclaimedWoken` takes a woken job whose
   * message no worker received for lost; one received and held before its admission is not).
   */
  async receive(id: string): Promise<Job | null> {
    const { rows } = await this.pool.query<JobRow>('UPDATE simulation.jobs SET received_at = now() WHERE id = $1 RETURNING *', [id]);
    return rows[0] ? toJob(rows[0]) : null;
  }

  /**
   * The woken jobs that no delivery has reached since they were woken, not run by a worker, whose job message (its
   * routing key starts with `jobRoutingPrefix`) has left the outbox: each message is on the broker, or lost. Each with
   * its hold as PostgreSQL writes it (microseconds), for `presumeLost` to act only on a job whose hold did not change.
   */
  async unclaimedWoken(jobRoutingPrefix: string, q: Queryable = this.pool): Promise<WokenJob[]> {
    const { rows } = await q.query<{ id: string; woken_at: string | null; woken_until: string }>(
      // jobs_woken_due (a woken job is never waiting): the woken jobs only, at most an account's share of each account.
      `SELECT j.id, j.woken_at::text AS woken_at, j.woken_until::text AS woken_until FROM simulation.jobs j
        WHERE j.woken_until IS NOT NULL AND NOT j.waiting AND ${UNCLAIMED}
          AND NOT EXISTS (SELECT 1 FROM simulation.outbox o WHERE starts_with(o.routing_key, $1) AND o.payload->>'jobId' = j.id::text)
        ORDER BY j.woken_until LIMIT 1000`,
      [jobRoutingPrefix],
    );
    return rows.map((r) => ({ id: r.id, wokenAt: r.woken_at, wokenUntil: r.woken_until }));
  }

  /**
   * Inside the caller's transaction: makes these woken jobs due to be published again now (`republishLapsed`, in the
   * same transaction, publishes them), each only if its hold is the one seen and still no delivery reached it or runs
   * it. Returns the ids. The rows are locked in id order, as a Trigger's transaction locks the jobs it supersedes
   * (`makeLatest`): in the order they were found (their holds') the two could deadlock.
   */
  async presumeLost(q: Queryable, jobs: readonly Pick<WokenJob, 'id' | 'wokenUntil'>[]): Promise<string[]> {
    if (!jobs.length) return [];
    const { rows } = await q.query<{ id: string }>(
      `WITH locked AS (
         SELECT j.id FROM simulation.jobs j JOIN unnest($1::uuid[], $2::timestamptz[]) AS l (id, woken_until) ON j.id = l.id AND j.woken_until = l.woken_until
          WHERE NOT j.waiting AND ${UNCLAIMED} ORDER BY j.id FOR UPDATE OF j)
       UPDATE simulation.jobs j SET woken_until = now() FROM locked l WHERE j.id = l.id
       RETURNING j.id`,
      [jobs.map((j) => j.id), jobs.map((j) => j.wokenUntil)],
    );
    return rows.map((r) => r.id);
  }

  async job(id: string): Promise<Job | null> {
    const { rows } = await this.pool.query<JobRow>('SELECT * FROM simulation.jobs WHERE id = $1', [id]);
    return rows[0] ? toJob(rows[0]) : null;
  }

  /**
   * Takes the status write slot of every setup for its holder (the id of the job about to be written for it), all or
   * none, so two requests never wait on each other's half: true when taken. A slot is free when nobody holds it, its
   * holder asks again, or its lease ran out (a holder that died).
   */
  async takeWriteSlots(accountId: string, unordered: readonly WriteSlot[], leaseMs: number): Promise<boolean> {
    // Rows are inserted and locked in one order (by setup id) by every request, and a row another transaction holds is
    // not waited for (NOWAIT): two requests naming the same setups in other orders never deadlock, they retry.
    const slots = [...unordered].sort(bySetupId);
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const setupIds = slots.map((slot) => slot.setupId);
      await client.query('INSERT INTO simulation.setup_runs (account_id, setup_id) SELECT $1, s FROM unnest($2::uuid[]) WITH ORDINALITY AS t (s, n) ORDER BY n ON CONFLICT DO NOTHING', [accountId, setupIds]);
      const { rows } = await client.query<{ setup_id: string; writer: string | null; free: boolean }>(
        `SELECT setup_id, writer, (writer IS NULL OR writer_until < now()) AS free FROM simulation.setup_runs
         WHERE account_id = $1 AND setup_id = ANY($2::uuid[]) ORDER BY setup_id FOR UPDATE NOWAIT`,
        [accountId, setupIds],
      );
      const holders = new Map(slots.map((slot) => [slot.setupId, slot.holder]));
      if (!rows.every((r) => r.free || r.writer === holders.get(r.setup_id))) {
        await client.query('ROLLBACK');
        return false;
      }
      await client.query(
        `UPDATE simulation.setup_runs r SET writer = w.holder, writer_until = now() + $4::int * interval '1 millisecond', writer_since = now()
         FROM unnest($2::uuid[], $3::uuid[]) AS w (setup_id, holder) WHERE r.account_id = $1 AND r.setup_id = w.setup_id`,
        [accountId, setupIds, slots.map((slot) => slot.holder), leaseMs],
      );
      await client.query('COMMIT');
      return true;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      // A row locked by another request or a job's step (55P03), or a deadlock PostgreSQL broke (40P01): not taken yet.
      const code = (err as { code?: string }).code;
      if (code === '55P03' || code === '40P01') return false;
      throw err;
    } finally {
      client.release();
    }
  }

  /**
   * A job's claim of its setup's write slot for `holder`: `claimed` (held until released, or for `heldMs`), `superseded`
   * (a newer job is the setup's latest run: this one writes nothing more), `lost` (the holder is a worker run of the job
   * whose lease another delivery of the job took over: it writes nothing more), or `busy` (a request is writing a newer
   * run's Requested, or another run of the job its step; `writer` holds it for `heldMs` more). A setup with no accepted
   * run recorded (a job older than the table) takes the job as its latest. The holder is the run's worker id
   * (`runner`), or the job's id outside a run.
   *
   * A run holds the slot no longer than its lease on the job (`leaseMs` at most): a run killed -9 in the middle of a
   * step frees the slot when its lease lapses, so the delivery that then takes the job over writes its steps at once,
   * not after `leaseMs` (SIMULATION_SETUP_WRITE_LEASE_MS, two minutes). A run whose own lease lapsed (not taken over
   * yet: its renewal is late) is `busy` until the renewal. `heldMs` is measured by the database, from its now().
   */
  async claimWriteSlot(job: Pick<Job, 'id' | 'accountId' | 'setupId' | 'sequence'>, holder: string, leaseMs: number): Promise<SlotClaim> {
    for (;;) {
      // A run of the job that is behind the job's recorded steps (another delivery of the same job went on) is stale:
      // it is treated as superseded, so its older view of the study never lands over the newer one.
      const { rows } = await this.pool.query<{ outcome: SlotClaim['outcome'] | 'missing'; writer: string | null; held_ms: number | null }>(
        `WITH current AS (SELECT sequence, runner, runner_until FROM simulation.jobs WHERE id = $3),
         lost AS (SELECT 1 FROM current WHERE $6::uuid <> $3 AND runner IS DISTINCT FROM $6::uuid),
         until AS (
           SELECT CASE WHEN $6::uuid = $3 THEN now() + $4::int * interval '1 millisecond'
                       ELSE LEAST(now() + $4::int * interval '1 millisecond', (SELECT runner_until FROM current)) END AS at
         ),
         claimed AS (
           UPDATE simulation.setup_runs SET job_id = $3, writer = $6, writer_until = (SELECT at FROM until), writer_since = now()
           WHERE account_id = $1 AND setup_id = $2 AND (job_id = $3 OR job_id IS NULL) AND (writer IS NULL OR writer = $6 OR writer_until < now())
             AND NOT EXISTS (SELECT 1 FROM current WHERE sequence <> $5) AND NOT EXISTS (SELECT 1 FROM lost)
             AND (SELECT at FROM until) > now()
           RETURNING writer_until
         ), run AS (SELECT job_id, writer, writer_until FROM simulation.setup_runs WHERE account_id = $1 AND setup_id = $2)
         SELECT CASE WHEN EXISTS (SELECT 1 FROM claimed) THEN 'claimed'
                     WHEN EXISTS (SELECT 1 FROM lost) THEN 'lost'
                     WHEN EXISTS (SELECT 1 FROM current WHERE sequence <> $5) THEN 'superseded'
                     WHEN NOT EXISTS (SELECT 1 FROM run) THEN 'missing'
                     WHEN (SELECT job_id FROM run) <> $3 THEN 'superseded'
                     ELSE 'busy' END AS outcome,
                CASE WHEN EXISTS (SELECT 1 FROM claimed) THEN $6::uuid ELSE (SELECT writer FROM run) END AS writer,
                GREATEST(0, extract(epoch FROM COALESCE((SELECT writer_until FROM claimed), (SELECT writer_until FROM run)) - now()) * 1000)::float8 AS held_ms`,
        [job.accountId, job.setupId, job.id, leaseMs, job.sequence, holder],
      );
      const row = rows[0];
      const outcome = row?.outcome ?? 'busy';
      if (outcome === 'claimed') return { outcome, heldMs: row?.held_ms ?? 0 };
      if (outcome === 'busy') return { outcome, writer: row?.writer ?? null, heldMs: row?.held_ms ?? 0 };
      if (outcome !== 'missing') return { outcome };
      await this.pool.query('INSERT INTO simulation.setup_runs (account_id, setup_id, job_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [job.accountId, job.setupId, job.id]);
    }
  }

  /**
   * Records a request's work before it writes `Requested` (one transaction): its setups' write slots, which it must still
   * hold (`slots`: a slot whose lease lapsed may be another's by now), are held for the work until the transaction
   * that commits it (`makeLatest`, `releaseWriteSlots`), whatever happens to the request; the work is owned by `owner`
   * for `ownedMs`. `slots-lost`: a slot was no longer the request's (nothing recorded); `duplicate`: another request of
   * the same command recorded its work first (nothing recorded).
   */
  async recordPending(pending: PendingRequest, slots: readonly WriteSlot[], ownedMs: number): Promise<'recorded' | 'slots-lost' | 'duplicate'> {
    const ordered = [...slots].sort(bySetupId);
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const held = await client.query(
        `WITH mine AS (
           SELECT r.account_id, r.setup_id FROM simulation.setup_runs r JOIN unnest($2::uuid[], $3::uuid[]) AS w (setup_id, holder) ON r.setup_id = w.setup_id AND r.writer = w.holder
            WHERE r.account_id = $1 AND r.writer_until > now() ORDER BY r.setup_id FOR UPDATE OF r)
         UPDATE simulation.setup_runs r SET writer_until = ${HELD_FOR_WORK} FROM mine WHERE r.account_id = mine.account_id AND r.setup_id = mine.setup_id`,
        [pending.accountId, ordered.map((slot) => slot.setupId), ordered.map((slot) => slot.holder)],
      );
      if ((held.rowCount ?? 0) !== ordered.length) {
        await client.query('ROLLBACK');
        return 'slots-lost';
      }
      const inserted = await client.query(
        `INSERT INTO simulation.pending_requests (id, account_id, command_id, request_hash, owner, owner_until, sealed_credentials, request)
         VALUES ($1, $2, $3, $4, $5, now() + $6::int * interval '1 millisecond', $7, $8) ON CONFLICT DO NOTHING`,
        [pending.id, pending.accountId, pending.command?.id ?? null, pending.command?.requestHash ?? null, pending.owner, Math.max(0, Math.ceil(ownedMs)), pending.sealedCredentials, JSON.stringify(pending.work)],
      );
      if (!inserted.rowCount) {
        await client.query('ROLLBACK');
        return 'duplicate';
      }
      await client.query('COMMIT');
      return 'recorded';
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  /** The pending work of the account's command, if any, and whether its owner's hold has lapsed. */
  async pendingOf(accountId: string, commandId: string): Promise<(PendingRequest & { lapsed: boolean }) | null> {
    const { rows } = await this.pool.query<PendingRow>('SELECT *, owner_until < now() AS lapsed FROM simulation.pending_requests WHERE account_id = $1 AND command_id = $2', [accountId, commandId]);
    const row = rows[0];
    return row ? { ...toPending(row), lapsed: row.lapsed } : null;
  }

  /** Pending work whose owner's hold has lapsed (its owner died, or gave it up), the longest lapsed first. */
  async lapsedPending(limit: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>('SELECT id FROM simulation.pending_requests WHERE owner_until < now() ORDER BY owner_until LIMIT $1', [limit]);
    return rows.map((r) => r.id);
  }

  /** Takes over the pending work for `owner`, for `ownedMs`, if its owner's hold has lapsed: the work, else null. */
  async takeOverPending(id: string, owner: string, ownedMs: number): Promise<PendingRequest | null> {
    const { rows } = await this.pool.query<PendingRow>(
      `UPDATE simulation.pending_requests SET owner = $2, owner_until = now() + $3::int * interval '1 millisecond'
        WHERE id = $1 AND owner_until < now() RETURNING *, false AS lapsed`,
      [id, owner, Math.max(0, Math.ceil(ownedMs))],
    );
    return rows[0] ? toPending(rows[0]) : null;
  }

  /**
   * The owner gives the work up (it failed to finish it) once nothing it sent can land any more: in `afterMs` (its last
   * write's deadline, and a margin). Never lengthens its hold.
   */
  async leavePending(id: string, owner: string, afterMs: number): Promise<void> {
    await this.pool.query(
      `UPDATE simulation.pending_requests SET owner_until = now() + $3::int * interval '1 millisecond'
        WHERE id = $1 AND owner = $2 AND owner_until > now() + $3::int * interval '1 millisecond'`,
      [id, owner, Math.max(0, Math.ceil(afterMs))],
    );
  }

  /** Inside the transaction that commits the work: removes it, if `owner` still owns it (true); else nothing. */
  async settlePending(q: Queryable, id: string, owner: string): Promise<boolean> {
    const { rowCount } = await q.query('DELETE FROM simulation.pending_requests WHERE id = $1 AND owner = $2', [id, owner]);
    return (rowCount ?? 0) > 0;
  }

  /** True unless a newer job became the setup's latest run. */
  async isLatest(job: Pick<Job, 'id' | 'accountId' | 'setupId'>): Promise<boolean> {
    const { rows } = await this.pool.query<{ job_id: string | null }>('SELECT job_id FROM simulation.setup_runs WHERE account_id = $1 AND setup_id = $2', [job.accountId, job.setupId]);
    return !rows[0] || rows[0].job_id === null || rows[0].job_id === job.id;
  }

  /**
   * Makes each job its setup's latest run and frees the slot its request held, in the transaction that accepts them. The
   * jobs it supersedes wait no more and hold no woken slot: they will never run (a delivery of one ends at once).
   */
  async makeLatest(q: Queryable, unordered: readonly Pick<Job, 'id' | 'accountId' | 'setupId'>[]): Promise<void> {
    if (!unordered.length) return;
    // In setup id order, as takeWriteSlots locks them; the superseded jobs' rows in id order.
    const jobs = [...unordered].sort(bySetupId);
    const superseded = await q.query<{ id: string }>(
      `SELECT j.id FROM simulation.jobs j
         JOIN simulation.setup_runs r ON r.job_id = j.id AND r.account_id = j.account_id AND r.setup_id = j.setup_id
         JOIN unnest($1::uuid[], $2::uuid[], $3::uuid[]) AS n (account_id, setup_id, job_id) ON r.account_id = n.account_id AND r.setup_id = n.setup_id AND r.job_id <> n.job_id
        WHERE j.waiting OR j.woken_until IS NOT NULL
        ORDER BY j.id FOR UPDATE OF j`,
      [jobs.map((j) => j.accountId), jobs.map((j) => j.setupId), jobs.map((j) => j.id)],
    );
    if (superseded.rows.length) await q.query('UPDATE simulation.jobs SET waiting = false, woken_at = NULL, woken_until = NULL WHERE id = ANY($1::uuid[])', [superseded.rows.map((r) => r.id)]);
    await q.query(
      `INSERT INTO simulation.setup_runs AS r (account_id, setup_id, job_id)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[])
       ON CONFLICT (account_id, setup_id) DO UPDATE SET job_id = EXCLUDED.job_id,
         writer = CASE WHEN r.writer = EXCLUDED.job_id THEN NULL ELSE r.writer END,
         writer_until = CASE WHEN r.writer = EXCLUDED.job_id THEN NULL ELSE r.writer_until END`,
      [jobs.map((j) => j.accountId), jobs.map((j) => j.setupId), jobs.map((j) => j.id)],
    );
  }

  /** Frees the slots still held by these holders (no-op for those already freed). */
  async releaseWriteSlots(accountId: string, slots: readonly WriteSlot[], q: Queryable = this.pool): Promise<void> {
    if (!slots.length) return;
    await q.query('UPDATE simulation.setup_runs SET writer = NULL, writer_until = NULL WHERE account_id = $1 AND setup_id = ANY($2::uuid[]) AND writer = ANY($3::uuid[])', [
      accountId,
      slots.map((slot) => slot.setupId),
      slots.map((slot) => slot.holder),
    ]);
  }

  /**
   * Records a status step of a job, inside the transaction that announces it; with `runner`, only while that worker run
   * still holds the job's lease (null when another delivery took it over: nothing is recorded).
   */
  async advance(q: Queryable, id: string, step: { status: string; studyId: string | null; message: string | null; deadLettered?: boolean }, runner?: string): Promise<number | null> {
    const { rows } = await q.query<{ sequence: number }>(
      // A job that ends is waiting no more (a second delivery that came while it ran marked it): left marked, every
      // instance's wake would read it again each second for ever.
      `UPDATE simulation.jobs SET state = $2, study_id = $3, message = $4, dead_lettered = $5, sequence = sequence + 1, updated_at = now(),
              waiting = waiting AND $2 <> ALL($7::text[]),
              woken_at = CASE WHEN $2 = ANY($7::text[]) THEN NULL ELSE woken_at END,
              woken_until = CASE WHEN $2 = ANY($7::text[]) THEN NULL ELSE woken_until END
       WHERE id = $1 AND ($6::uuid IS NULL OR runner = $6::uuid) RETURNING sequence`,
      [id, step.status, step.studyId, step.message, step.deadLettered ?? false, runner ?? null, SIMULATION_FINAL_STATUSES],
    );
    return rows[0] ? rows[0].sequence : runner ? null : 0;
  }

  /**
   * Admits a delivery of the job to a worker slot unless another delivery runs it (its lease not lapsed) or the
   * account's other jobs already hold `maxPerAccount` slots (running, or woken and not yet taken by a worker): `run`
   * with the time since the job first ran (its lease taken by `runner`; a run whose lease lapsed loses it), `busy`
   * (another run holds the job: this delivery does not run it), or `wait` (the account is at its share). Either way the
   * job is marked waiting, published again by `wakeWaiting` once no live lease holds it and its account has room (so a
   * busy delivery whose run has died is not lost). One account's admissions are serialised (an advisory lock), so
   * instances never admit past the share together.
   */
  async admit(job: Pick<Job, 'id' | 'accountId'>, runner: string, maxPerAccount: number, leaseMs: number): Promise<{ outcome: 'run'; elapsedMs: number } | { outcome: 'wait' | 'busy' }> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended('simulation.jobs.share:' || $1, 0))", [job.accountId]);
      const held = await client.query('SELECT 1 FROM simulation.jobs WHERE id = $1 AND runner_until > now()', [job.id]);
      if (held.rowCount) {
        await client.query('UPDATE simulation.jobs SET waiting = true, woken_at = NULL, woken_until = NULL WHERE id = $1', [job.id]);
        await client.query('COMMIT');
        return { outcome: 'busy' };
      }
      const { rows } = await client.query<{ running: number }>(`SELECT ${slotsHeld('$1::uuid', '$3::text[]', 'h.id <> $2')} AS running`, [job.accountId, job.id, SIMULATION_FINAL_STATUSES]);
      if ((rows[0]?.running ?? 0) >= maxPerAccount) {
        await client.query('UPDATE simulation.jobs SET waiting = true, woken_at = NULL, woken_until = NULL WHERE id = $1', [job.id]);
        await client.query('COMMIT');
        return { outcome: 'wait' };
      }
      const started = await client.query<{ elapsed_ms: number }>(
        `UPDATE simulation.jobs SET runner = $2, runner_until = now() + $3::int * interval '1 millisecond', waiting = false, woken_at = NULL, woken_until = NULL, started_at = COALESCE(started_at, now())
          WHERE id = $1 RETURNING (extract(epoch FROM now() - started_at) * 1000)::float8 AS elapsed_ms`,
        [job.id, runner, leaseMs],
      );
      await client.query('COMMIT');
      return { outcome: 'run', elapsedMs: Math.max(0, started.rows[0]?.elapsed_ms ?? 0) };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  /**
   * Inside the caller's transaction (the one that publishes its message again): the job is woken, as `wakeWaiting`
   * wakes a waiting job, so its message is looked after like a woken job's until a worker takes it.
   */
  async markWoken(q: Queryable, jobId: string, republishMs: number): Promise<void> {
    await q.query(`UPDATE simulation.jobs SET waiting = false, woken_at = now(), woken_until = now() + $2::int * interval '1 millisecond' WHERE id = $1`, [jobId, republishMs]);
  }

  /** Extends the lease of a running job's worker: false once another delivery took it over (nothing renewed). */
  async renewRun(jobId: string, runner: string, leaseMs: number): Promise<boolean> {
    const { rowCount } = await this.pool.query(`UPDATE simulation.jobs SET runner_until = now() + $3::int * interval '1 millisecond' WHERE id = $1 AND runner = $2`, [jobId, runner, leaseMs]);
    return (rowCount ?? 0) > 0;
  }

  /** Frees the worker slot a delivery of the job held. */
  async endRun(jobId: string, runner: string): Promise<void> {
    await this.pool.query('UPDATE simulation.jobs SET runner = NULL, runner_until = NULL WHERE id = $1 AND runner = $2', [jobId, runner]);
  }

  /**
   * Takes, inside the caller's transaction, the waiting jobs whose account has room under its share again (oldest
   * first, as many as there is room for), marked waiting no more and holding their slot until a delivery of theirs is
   * admitted: the caller publishes their job messages in the same transaction, and a wake or a fresh delivery before
   * they are admitted counts them rather than taking the same room again, however long their messages wait in the job
   * queue behind other accounts' long studies (their messages are published again only after `republishMs`, should
   * they have been lost: `republishLapsed`). Only a setup's latest run is woken (a superseded one would end at once),
   * and only once no live lease holds it (a delivery that found another running the job waits for that run to end or
   * its lease to lapse).
   *
   * Its cost does not grow with the backlogs: only the accounts with waiting jobs are visited (one index probe each),
   * each one's slots are counted on the indexes of the running and woken jobs, and of its waiting jobs only as many as
   * it has room for are read, oldest first. Rows another transaction holds (a Trigger superseding them) are skipped,
   * never waited for.
   */
  async wakeWaiting(q: Queryable, maxPerAccount: number, republishMs: number): Promise<{ id: string; accountId: string }[]> {
    const { rows } = await q.query<{ id: string; account_id: string }>(
      `WITH RECURSIVE waiting_account AS (
         (SELECT account_id FROM simulation.jobs WHERE waiting ORDER BY account_id LIMIT 1)
         UNION ALL
         SELECT n.account_id FROM waiting_account w CROSS JOIN LATERAL (
           SELECT account_id FROM simulation.jobs WHERE waiting AND account_id > w.account_id ORDER BY account_id LIMIT 1) n
       ), room AS MATERIALIZED (
         SELECT w.account_id, $1 - ${slotsHeld('w.account_id', '$3::text[]')} AS n FROM waiting_account w
       ), walk AS (
         -- Each account's waiting jobs, oldest first, one index probe a step (LIMIT 1 keeps it a walk of the index
         -- whatever the planner thinks of the account's size), until as many as it has room for can run.
         SELECT r.account_id, f.id, f.created_at, f.runnable, r.n - f.runnable::int AS room_left FROM room r CROSS JOIN LATERAL (
           SELECT j.id, j.created_at, ${RUNNABLE} AS runnable FROM simulation.jobs j
            WHERE j.account_id = r.account_id AND j.waiting ORDER BY j.created_at, j.id LIMIT 1) f
          WHERE r.n > 0
         UNION ALL
         SELECT w.account_id, f.id, f.created_at, f.runnable, w.room_left - f.runnable::int FROM walk w CROSS JOIN LATERAL (
           SELECT j.id, j.created_at, ${RUNNABLE} AS runnable FROM simulation.jobs j
            WHERE j.account_id = w.account_id AND j.waiting AND (j.created_at, j.id) > (w.created_at, w.id) ORDER BY j.created_at, j.id LIMIT 1) f
          WHERE w.room_left > 0
       ), locked AS (
         -- By key (an array, so the planner reads them by the primary key, not the table).
         SELECT id FROM simulation.jobs WHERE id = ANY(ARRAY(SELECT id FROM walk WHERE runnable)) AND waiting ORDER BY id FOR UPDATE SKIP LOCKED
       )
       UPDATE simulation.jobs j SET waiting = false, woken_at = now(), woken_until = now() + $2::int * interval '1 millisecond'
        WHERE j.id = ANY(ARRAY(SELECT id FROM locked))
       RETURNING j.id, j.account_id`,
      [maxPerAccount, republishMs, SIMULATION_FINAL_STATUSES],
    );
    return rows.map((r) => ({ id: r.id, accountId: r.account_id }));
  }

  /**
   * Takes, inside the caller's transaction, the woken jobs whose message no worker has taken by their `woken_until`
   * (the message may have been lost: dead-lettered, purged, a broker's loss), and has the caller publish each again: it
   * keeps the slot it holds, and its next deadline is as far again as it has waited since it was woken (`republishMs`
   * at least, `maxRepublishMs` at most), so a message that is merely queued behind long studies for hours is copied a
   * few times, not at every wake. A copy is harmless: a job runs in one worker at a time, and a delivery of a job that
   * runs or ended is acked without running. One that can no longer run holds nothing more: one another run holds
   * (a live lease) waits again, like a delivery that found it running; one ended or superseded is let go.
   */
  async republishLapsed(q: Queryable, republishMs: number, maxRepublishMs: number): Promise<{ id: string; accountId: string }[]> {
    const { rows } = await q.query<{ id: string; account_id: string; runnable: boolean }>(
      `WITH due AS (
         -- jobs_woken_due (a woken job is never waiting): the woken jobs past their deadline only.
         SELECT id FROM simulation.jobs WHERE woken_until <= now() AND NOT waiting ORDER BY woken_until LIMIT 1000 FOR UPDATE SKIP LOCKED
       ), lapsed AS (
         SELECT j.id, ${RUNNABLE} AS runnable, ${ALIVE} AS alive FROM simulation.jobs j WHERE j.id = ANY(ARRAY(SELECT id FROM due))
       )
       UPDATE simulation.jobs j SET
         woken_until = CASE WHEN l.runnable
           THEN now() + LEAST($2::int * interval '1 millisecond', GREATEST($1::int * interval '1 millisecond', now() - COALESCE(j.woken_at, now()))) END,
         woken_at = CASE WHEN l.runnable THEN j.woken_at END,
         waiting = NOT l.runnable AND l.alive
        FROM lapsed l WHERE j.id = l.id
       RETURNING j.id, j.account_id, l.runnable`,
      [republishMs, maxRepublishMs, SIMULATION_FINAL_STATUSES],
    );
    return rows.filter((r) => r.runnable).map((r) => ({ id: r.id, accountId: r.account_id }));
  }

  /**
   * One batch of the retention purge: the next page of at most `pageRows` jobs last changed more than `days` days ago,
   * in (updated_at, id) order after `after` (null: from the oldest), and, among them, deletes the jobs that are finished
   * and hold nothing: at a last status, dead-lettered or superseded by a newer run of their setup, not waiting, not
   * woken and under no live worker lease (a job queued or running is never one of them). A setup's latest-run row goes
   * with its last job, unless a request holds its write slot (a Trigger of the setup between its slot and its commit).
   * Rows another transaction holds are skipped, never waited for. One page is purged at a time across instances (an
   * advisory lock taken in the page's transaction before its statement, so the statement's snapshot sees every page
   * purged before it: two pages purged at once could each see the other's jobs of one setup still there and leave its
   * latest-run row behind for good); an instance that finds the lock taken ends its pass (`busy`), another is purging.
   * `next` is where the following page starts (null after the last).
   */
  async purgeFinished(days: number, pageRows: number, after: PurgeCursor | null): Promise<{ jobs: number; runs: number; next: PurgeCursor | null; busy?: true }> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows: lock } = await client.query<{ got: boolean }>("SELECT pg_try_advisory_xact_lock(hashtextextended('simulation.jobs.purge', 0)) AS got");
      if (!lock[0]?.got) {
        await client.query('ROLLBACK');
        return { jobs: 0, runs: 0, next: null, busy: true };
      }
      const result = await this.purgePage(client, days, pageRows, after);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  private async purgePage(client: PoolClient, days: number, pageRows: number, after: PurgeCursor | null): Promise<{ jobs: number; runs: number; next: PurgeCursor | null }> {
    const { rows } = await client.query<{ jobs: number; runs: number; scanned: number; last_at: string | null; last_id: string | null }>(
      `WITH page AS MATERIALIZED (
         SELECT id, updated_at FROM simulation.jobs
          WHERE updated_at < now() - make_interval(days => $1) AND ($3::timestamptz IS NULL OR (updated_at, id) > ($3::timestamptz, $4::uuid))
          ORDER BY updated_at, id LIMIT $2
       ), doomed AS (
         SELECT j.id, j.account_id, j.setup_id FROM simulation.jobs j
          WHERE j.id = ANY(ARRAY(SELECT id FROM page)) AND j.updated_at < now() - make_interval(days => $1)
            AND NOT j.waiting AND j.woken_until IS NULL AND (j.runner_until IS NULL OR j.runner_until <= now())
            AND (j.dead_lettered OR j.state = ANY($5::text[])
                 OR EXISTS (SELECT 1 FROM simulation.setup_runs r WHERE r.account_id = j.account_id AND r.setup_id = j.setup_id AND r.job_id <> j.id))
          ORDER BY j.id FOR UPDATE OF j SKIP LOCKED
       ), gone AS (
         DELETE FROM simulation.jobs j WHERE j.id = ANY(ARRAY(SELECT id FROM doomed)) RETURNING 1
       ), runs AS (
         -- The statement sees the doomed jobs still there: the setup's other jobs are those not among them.
         DELETE FROM simulation.setup_runs r WHERE (r.account_id, r.setup_id) IN (
           SELECT s.account_id, s.setup_id FROM simulation.setup_runs s
            WHERE (s.account_id, s.setup_id) IN (SELECT account_id, setup_id FROM doomed)
              AND (s.writer IS NULL OR s.writer_until < now())
              AND NOT EXISTS (SELECT 1 FROM simulation.jobs o WHERE o.account_id = s.account_id AND o.setup_id = s.setup_id AND o.id <> ALL(ARRAY(SELECT id FROM doomed)))
            ORDER BY s.account_id, s.setup_id FOR UPDATE OF s SKIP LOCKED)
         RETURNING 1
       ), last AS (SELECT updated_at, id FROM page ORDER BY updated_at DESC, id DESC LIMIT 1)
       SELECT (SELECT count(*)::int FROM gone) AS jobs, (SELECT count(*)::int FROM runs) AS runs, (SELECT count(*)::int FROM page) AS scanned,
              (SELECT updated_at::text FROM last) AS last_at, (SELECT id FROM last) AS last_id`,
      [days, pageRows, after?.updatedAt ?? null, after?.id ?? null, SIMULATION_FINAL_STATUSES],
    );
    const row = rows[0];
    if (!row) return { jobs: 0, runs: 0, next: null };
    // The cursor keeps the time as PostgreSQL wrote it (microseconds): a Date would round it to milliseconds, and a page
    // of jobs sharing one instant (a Trigger's, never run) would start over at the same place for ever.
    const next = row.scanned >= pageRows && row.last_at !== null && row.last_id !== null ? { updatedAt: row.last_at, id: row.last_id } : null;
    return { jobs: row.jobs, runs: row.runs, next };
  }

  /** Counts a delivery of the job that ended in an unexpected error; returns how many did. */
  async countFailure(jobId: string): Promise<number> {
    const { rows } = await this.pool.query<{ failures: number }>('UPDATE simulation.jobs SET failures = failures + 1 WHERE id = $1 RETURNING failures', [jobId]);
    return rows[0]?.failures ?? 0;
  }
}
