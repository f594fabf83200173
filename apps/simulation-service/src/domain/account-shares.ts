import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Outbox } from '@pitwall/messaging';
import type { Logger } from '@pitwall/service-kit';
import type { Job, SimulationRepository } from '../data-access/simulation-repository';
import { CoalescedPass } from './coalesced-pass';
import { LostJobMessages, type JobQueue } from './lost-job-messages';
import { JOB_ROUTING_PREFIX, type JobMessage } from './request-simulations';

const NEVER = new AbortController().signal;

/** How long a worker's slot stays counted without being renewed (renewed every third of it): a worker killed -9 frees it, and its job runs again, after this. */
export const RUN_LEASE_MS = 20_000;
/** SIMULATION_WORKERS: jobs one instance runs at once (the job queue's prefetch too). */
export const DEFAULT_WORKERS = 8;
/** SIMULATION_JOB_REPUBLISH_MS's default: how long a woken job's message may wait for a worker before it is presumed lost. */
export const DEFAULT_JOB_REPUBLISH_MS = 10 * 60_000;
/** The longest wait between two publications of a woken job's message that no worker takes (unless SIMULATION_JOB_REPUBLISH_MS is longer). */
export const MAX_JOB_REPUBLISH_MS = 60 * 60_000;

export interface ShareSettings {
  /** SIMULATION_MAX_JOBS_PER_ACCOUNT: jobs of one account running at once, across every instance. */
  maxJobsPerAccount: number;
  /**
   * SIMULATION_WORKERS: jobs this instance runs at once (default 8), whatever its deliveries: the job queue's prefetch
   * bounds them only while its channel lives, and the runs of a channel the broker closed go on beside the deliveries
   * of its new one until they stop.
   */
  workers?: number;
  /** How often waiting jobs are looked for (besides right after a job of the instance ends). */
  wakeIntervalMs: number;
  leaseMs?: number;
  /**
   * SIMULATION_JOB_REPUBLISH_MS: a woken job whose message no worker has taken within it is published again (the
   * message may have been lost), then after as long again as it has waited, up to an hour between two.
   */
  republishMs?: number;
  /** TEST_HOLD_WAKES_MS: each wake waits this long before it looks for waiting jobs (a kill -9 test's window). */
  holdWakesMs?: number;
  /**
   * The job queue's count of ready messages: with it, a woken job whose message is lost (no delivery reached it while
   * the queue holds none) is published again at the next wakes instead of after `republishMs` (LostJobMessages).
   */
  jobQueue?: JobQueue;
}

/** A job admitted to a worker slot: `end()` frees it (and looks for a waiting job to run in its place). */
export interface RunSlot {
  /** Time since a worker first ran the job (earlier deliveries included). */
  elapsedMs: number;
  /** This run's worker id: the job's lease, and the holder of its setup's write slot while it writes a step. */
  runner: string;
  /** Aborted once another delivery of the job took its lease over (this one lapsed): the run stops, writing nothing more. */
  lost: AbortSignal;
  end(): Promise<void>;
}

/**
 * Thrown by a run (or an admission waiting for a worker) whose delivery was lost: its channel closed, so it can no
 * longer be acked, and the broker gives the job's message to a consumer again, which resumes the job.
 */
export class DeliveryLost extends Error {
  constructor(job: Pick<Job, 'id'>) {
    super(`The delivery of job ${job.id} was lost (its channel closed); this run stops and the redelivered message resumes the job`);
  }
}

/** At most `size` runs at once in this process; an admission waits its turn in order, or stops waiting once aborted. */
class WorkerSlots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  /** A worker, once one is free: what frees it (once). Rejects with the signal's reason when it is aborted first. */
  async take(signal: AbortSignal): Promise<() => void> {
    while (this.running >= this.size) {
      signal.throwIfAborted();
      await new Promise<void>((resolve, reject) => {
        const turn = () => {
          signal.removeEventListener('abort', aborted);
          resolve();
        };
        const aborted = () => {
          this.waiting.splice(this.waiting.indexOf(turn) >>> 0, 1);
          reject(signal.reason);
        };
        this.waiting.push(turn);
        signal.addEventListener('abort', aborted, { once: true });
      });
    }
    this.running++;
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      this.running--;
      this.waiting.shift()?.();
    };
  }
}

/** Thrown by a run of a job whose lease another delivery of the job took over: that one finishes the job. */
export class RunTakenOver extends Error {
  constructor(job: Pick<Job, 'id'>) {
    super(`Job ${job.id} is run by another delivery (this run's lease lapsed and was taken over); this run stops`);
  }
}

/**
 * One account's share of the workers. Every instance runs `SIMULATION_WORKERS` jobs at once; an account's running jobs
 * (all instances together, counted in the database by their workers' leases) stop at SIMULATION_MAX_JOBS_PER_ACCOUNT,
 * so studies that stay queued for hours on one account's system leave the other accounts slots. A job of an account
 * at its share takes no slot while it waits: its row is marked waiting and its delivery acked, and it is published
 * again (through the outbox, in the transaction that clears the mark) once a slot of its account is free: when one of
 * its jobs ends on this instance, and every `wakeIntervalMs` on every instance (a worker killed -9 frees its slot
 * when its lease lapses). The mark is committed before the ack, so a crash in between redelivers the job, never loses it.
 * A woken job holds the slot it was woken for until a worker takes it, however long its message waits behind other
 * accounts' long studies: the wakes and fresh deliveries meanwhile count it, so the job queue holds at most an
 * account's share of its jobs, and a backlog is published one free slot at a time. Its message is published again only
 * when it may have been lost: after a restart with an in-process bus (`unfinishedJobs`), or once no worker took it
 * within `republishMs` (then after as long again as it has waited, up to an hour between two).
 */
export class AccountShares {
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private readonly waking = new CoalescedPass(
    () => this.publishWoken(),
    (err: unknown) => this.logger.warn({ err }, 'waiting simulation jobs could not be looked for; retried later'),
    () => !this.stopped,
  );
  private readonly leaseMs: number;
  /** Ends a test's hold of the wakes (TEST_HOLD_WAKES_MS) at a stop. */
  private readonly holdsEnd = new AbortController();
  /** How long a woken job's message may wait for a worker before it is published again. */
  readonly republishMs: number;
  /**
   * Admissions wait for `start()`: the service's start-up work (with an in-process bus, the unfinished jobs queued again
   * and every lease freed: they were the dead process's) runs first, so it never frees the lease of a run admitted meanwhile.
   */
  private readonly begun: Promise<void>;
  private begin: () => void = () => undefined;
  private readonly lost: LostJobMessages | undefined;
  private readonly workers: WorkerSlots;

  constructor(
    private readonly repository: SimulationRepository,
    private readonly outbox: Outbox,
    private readonly settings: ShareSettings,
    private readonly logger: Logger,
  ) {
    this.leaseMs = settings.leaseMs ?? RUN_LEASE_MS;
    this.republishMs = settings.republishMs ?? DEFAULT_JOB_REPUBLISH_MS;
    this.begun = new Promise((resolve) => (this.begin = resolve));
    this.lost = settings.jobQueue ? new LostJobMessages(repository, settings.jobQueue, logger) : undefined;
    this.workers = new WorkerSlots(settings.workers ?? DEFAULT_WORKERS);
  }

  /**
   * A slot for this delivery of the job, renewed until ended; `wait` when its account is at its share, `busy` when
   * another delivery runs the job (live lease): either way the job is marked waiting and this delivery does not run it.
   * It first waits for one of this instance's workers (SIMULATION_WORKERS), as long as `signal` lets it: a delivery
   * waits only while the runs of a lost channel's deliveries are still stopping.
   */
  async admit(job: Pick<Job, 'id' | 'accountId'>, signal: AbortSignal = NEVER): Promise<RunSlot | 'wait' | 'busy'> {
    await this.begun;
    // Released by a stop that came before the start: nothing is admitted on a stopping instance (the job is handed back).
    if (this.stopped) throw new Error('The simulation-service is stopping: the job is not admitted here');
    const free = await this.workers.take(signal);
    let admitted: Awaited<ReturnType<SimulationRepository['admit']>>;
    const runner = randomUUID();
    try {
      signal.throwIfAborted();
      admitted = await this.repository.admit(job, runner, this.settings.maxJobsPerAccount, this.leaseMs);
    } catch (err) {
      free();
      throw err;
    }
    if (admitted.outcome !== 'run') {
      free();
      return admitted.outcome;
    }
    const lost = new AbortController();
    const renewal = setInterval(() => {
      this.repository
        .renewRun(job.id, runner, this.leaseMs)
        .then((held) => {
          if (held || lost.signal.aborted) return;
          clearInterval(renewal);
          this.logger.warn({ jobId: job.id }, "a simulation job's worker lease lapsed and another delivery took the job over; this run stops");
          lost.abort(new RunTakenOver(job));
        })
        .catch((err: unknown) => this.logger.warn({ err, jobId: job.id }, "a simulation job's worker slot could not be renewed; retried"));
    }, Math.max(10, Math.floor(this.leaseMs / 3)));
    renewal.unref();
    return {
      elapsedMs: admitted.elapsedMs,
      runner,
      lost: lost.signal,
      end: async () => {
        clearInterval(renewal);
        free();
        // Not freed (the database is away): the lease lapses by itself.
        await this.repository.endRun(job.id, runner).catch((err: unknown) => this.logger.warn({ err, jobId: job.id }, "a simulation job's worker slot could not be freed; its lease will lapse"));
        this.wake();
      },
    };
  }

  /**
   * Publishes a job message for the job afresh (through the outbox): a stopping instance hands its running job back
   * this way rather than requeueing its delivery, which would count against the queue's delivery limit.
   */
  async requeue(job: Pick<Job, 'id' | 'accountId'>): Promise<void> {
    await this.outbox.transaction(async (client, add) => {
      // Woken, as a waiting job's wake makes it: it keeps the place it ran in, and should its message be lost (the
      // queue purged, the message dead-lettered), LostJobMessages and republishLapsed publish it again.
      await this.repository.markWoken(client, job.id, this.republishMs);
      await add([{ routingKey: `${JOB_ROUTING_PREFIX}${job.accountId}`, payload: { jobId: job.id } satisfies JobMessage }]);
    });
  }

  start(): void {
    this.begin();
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.settings.wakeIntervalMs);
    this.timer.unref();
    this.wake();
  }

  async stop(): Promise<void> {
    this.begin();
    this.stopped = true;
    this.holdsEnd.abort();
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.waking.idle();
  }

  /** Publishes the waiting jobs whose account has a free slot again (and the woken ones whose message may be lost). */
  wake(): void {
    this.waking.wake();
  }

  private async publishWoken(): Promise<void> {
    if (this.settings.holdWakesMs) {
      await sleep(this.settings.holdWakesMs, undefined, { signal: this.holdsEnd.signal }).catch(() => undefined);
      if (this.stopped) return;
    }
    // Read before the transaction: it asks the broker, which no transaction should wait for.
    const lost = (await this.lost?.find()) ?? [];
    const { lapsed, woken, presumed } = await this.outbox.transaction(async (client, add) => {
      const presumed = await this.repository.presumeLost(client, lost);
      const again = await this.repository.republishLapsed(client, this.republishMs, Math.max(this.republishMs, MAX_JOB_REPUBLISH_MS));
      const jobs = await this.repository.wakeWaiting(client, this.settings.maxJobsPerAccount, this.republishMs);
      await add([...again, ...jobs].map((job) => ({ routingKey: `${JOB_ROUTING_PREFIX}${job.accountId}`, payload: { jobId: job.id } satisfies JobMessage })));
      return { lapsed: again.length, woken: jobs.length, presumed: presumed.length };
    });
    if (presumed) this.logger.warn({ jobs: presumed }, 'woken simulation jobs whose message no worker received while the job queue held none (lost) published again');
    if (lapsed - presumed > 0) this.logger.warn({ jobs: lapsed - presumed }, 'woken simulation jobs whose message no worker took within SIMULATION_JOB_REPUBLISH_MS published again (the message may have been lost)');
    if (woken) this.logger.info({ jobs: woken }, 'simulation jobs that waited for their account share published again');
  }
}
