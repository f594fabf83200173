import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '@pitwall/service-kit';
import type { Job, SimulationRepository, WriteSlot } from '../data-access/simulation-repository';
import { RunTakenOver } from './account-shares';

export interface WriteSlotSettings {
  /** How long a holder may keep a setup's write slot before another may take it (it died); above any bus timeout. */
  leaseMs: number;
  /** Pause between two tries while a slot is held. */
  retryMs: number;
}

/** Thrown when a newer Trigger or Reprocess of the job's setup was accepted: the job writes nothing more and ends. */
export class JobSuperseded extends Error {
  constructor(job: Pick<Job, 'id' | 'setupId'>) {
    super(`Job ${job.id} was superseded by a newer run of setup ${job.setupId}`);
  }
}

/**
 * Only the latest accepted run of a setup writes its status (service-api.md: "overwritten in place per setup, so it
 * always reflects the latest run"). The database holds each setup's latest job and a write slot: a request takes the
 * slots of its setups before it writes their `Requested` and makes its jobs the latest in the transaction that accepts
 * them; a job takes its setup's slot for each step and finds itself superseded once a newer job is the latest. So no
 * older step lands after a newer run was accepted, across instances and redeliveries.
 */
export class SetupWriteSlots {
  constructor(
    private readonly repository: SimulationRepository,
    private readonly settings: WriteSlotSettings,
  ) {}

  /**
   * Waits for the slots of all these setups (a job's step in flight ends first); a 503 if they stay held past a lease,
   * or past the request's deadline (the caller would have given up: the request must then take no effect).
   */
  async takeForRequest(accountId: string, slots: readonly WriteSlot[], deadline?: number): Promise<void> {
    const until = Math.min(Date.now() + this.settings.leaseMs, deadline ?? Number.POSITIVE_INFINITY);
    while (!(await this.repository.takeWriteSlots(accountId, slots, this.settings.leaseMs))) {
      if (Date.now() > until) throw AppError.busy("The setups' simulation status is being written by another request; retry", Math.ceil(this.settings.retryMs / 1000) || 1);
      await sleep(this.settings.retryMs * (0.5 + Math.random()));
    }
  }

  async release(accountId: string, slots: readonly WriteSlot[]): Promise<void> {
    await this.repository.releaseWriteSlots(accountId, slots);
  }

  /**
   * Waits for the job's setup slot for `holder` (the run's worker id, or the job's id outside a run); throws
   * JobSuperseded when a newer run of the setup was accepted, RunTakenOver when another delivery took the run's lease.
   * Two runs of one job never hold it together, so a step is never recorded twice.
   */
  async claimForJob(job: Pick<Job, 'id' | 'accountId' | 'setupId' | 'sequence'>, holder: string, signal: AbortSignal): Promise<void> {
    for (;;) {
      const outcome = await this.repository.claimWriteSlot(job, holder, this.settings.leaseMs);
      if (outcome === 'claimed') return;
      if (outcome === 'superseded') throw new JobSuperseded(job);
      if (outcome === 'lost') throw new RunTakenOver(job);
      await sleep(this.settings.retryMs * (0.5 + Math.random()), undefined, { signal });
    }
  }
}
