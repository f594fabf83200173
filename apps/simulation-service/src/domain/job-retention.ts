import { setImmediate as yieldToOthers } from 'node:timers/promises';
import type { Logger } from '@pitwall/service-kit';
import type { PurgeCursor, SimulationRepository } from '../data-access/simulation-repository';
import { PeriodicPass } from './coalesced-pass';

/** SIMULATION_JOB_RETENTION_DAYS's default: a finished job is kept this many days after its last change. */
export const DEFAULT_JOB_RETENTION_DAYS = 30;
/** The most SIMULATION_JOB_RETENTION_DAYS may say (100 years): past it the cutoff would not be a date. */
export const MAX_JOB_RETENTION_DAYS = 36_500;
/** Jobs one statement of the purge reads at most (and so deletes at most), each statement its own transaction. */
export const JOB_PURGE_PAGE_ROWS = 500;
const PURGE_INTERVAL_MS = 60 * 60 * 1000;

export interface RetentionSettings {
  /** SIMULATION_JOB_RETENTION_DAYS: finished jobs last changed longer ago are deleted; 0 keeps them for ever. */
  days: number;
  pageRows?: number;
  intervalMs?: number;
}

/**
 * The retention of finished simulation jobs: every instance, at its start and hourly, deletes the jobs that ended (or
 * were superseded) more than `days` days ago, with their setup's latest-run row once a setup has none left. The pass
 * runs beside the service's work, never in a request or a job's delivery: a bounded page of jobs a statement, each its
 * own transaction, so other work goes between them (under `npm start`, every request shares the one embedded session).
 * Instances purging at once skip each other's rows (SKIP LOCKED) instead of waiting for them.
 */
export class JobRetention {
  private readonly purging: PeriodicPass;

  constructor(
    private readonly repository: SimulationRepository,
    private readonly settings: RetentionSettings,
    private readonly logger: Logger,
  ) {
    this.purging = new PeriodicPass(
      async () => void (await this.purge()),
      (err: unknown) => this.logger.warn({ err }, 'finished simulation jobs could not be purged; retried at the next pass'),
      settings.intervalMs ?? PURGE_INTERVAL_MS,
    );
  }

  start(): void {
    if (this.settings.days === 0) return; // kept for ever
    this.purging.start();
  }

  async stop(): Promise<void> {
    await this.purging.stop();
  }

  /** One pass over the jobs older than the cutoff, page by page (stopped between two pages by a stop); returns how many were deleted. */
  async purge(): Promise<number> {
    if (this.settings.days === 0) return 0;
    let purged = 0;
    let cursor: PurgeCursor | null = null;
    do {
      const batch = await this.repository.purgeFinished(this.settings.days, this.settings.pageRows ?? JOB_PURGE_PAGE_ROWS, cursor);
      purged += batch.jobs;
      cursor = batch.next;
      await yieldToOthers();
    } while (cursor && !this.purging.halted);
    if (purged) this.logger.info({ jobs: purged, days: this.settings.days }, 'finished simulation jobs older than SIMULATION_JOB_RETENTION_DAYS purged');
    return purged;
  }
}
