import type { Pool } from 'pg';
import type { Queryable } from '@pitwall/messaging';

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
}

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
});

/** Connections and jobs of the simulation schema: plain objects in and out (writes in the caller's transaction). */
export class SimulationRepository {
  constructor(private readonly pool: Pool) {}

  async putConnection(q: Queryable, accountId: string, sealed: Buffer): Promise<void> {
    await q.query(
      `INSERT INTO simulation.connections (account_id, sealed) VALUES ($1, $2)
       ON CONFLICT (account_id) DO UPDATE SET sealed = EXCLUDED.sealed, updated_at = now()`,
      [accountId, sealed],
    );
  }

  async connection(accountId: string): Promise<Buffer | null> {
    const { rows } = await this.pool.query<{ sealed: Buffer }>('SELECT sealed FROM simulation.connections WHERE account_id = $1', [accountId]);
    return rows[0]?.sealed ?? null;
  }

  async insertJobs(q: Queryable, jobs: readonly Omit<Job, 'deadLettered'>[]): Promise<void> {
    if (!jobs.length) return;
    await q.query(
      `INSERT INTO simulation.jobs (id, account_id, profile_id, setup_id, kind, sealed_credentials, study_id, state, sequence)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::bytea[], $7::text[], $8::text[], $9::int[])`,
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
      ],
    );
  }

  async job(id: string): Promise<Job | null> {
    const { rows } = await this.pool.query<JobRow>('SELECT * FROM simulation.jobs WHERE id = $1', [id]);
    return rows[0] ? toJob(rows[0]) : null;
  }

  /** Records a status step of a job, inside the transaction that announces it. */
  async advance(q: Queryable, id: string, step: { status: string; studyId: string | null; message: string | null; deadLettered?: boolean }): Promise<number> {
    const { rows } = await q.query<{ sequence: number }>(
      `UPDATE simulation.jobs SET state = $2, study_id = $3, message = $4, dead_lettered = $5, sequence = sequence + 1, updated_at = now()
       WHERE id = $1 RETURNING sequence`,
      [id, step.status, step.studyId, step.message, step.deadLettered ?? false],
    );
    return rows[0]?.sequence ?? 0;
  }
}
