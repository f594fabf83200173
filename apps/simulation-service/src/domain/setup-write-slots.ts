import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, type Logger } from '@pitwall/service-kit';
import type { Job, SimulationRepository, WriteSlot } from '../data-access/simulation-repository';
import { RunTakenOver } from './account-shares';

export interface WriteSlotSettings {
  /** How long a holder may keep a setup's write slot before another may take it (it died); above any bus timeout. */
  leaseMs: number;
  /** Pause between two tries while a slot is held. */
  retryMs: number;
  /** A job's step that has waited this long for its setup's slot says so (a warn line, again after as long again). */
  warnAfterMs?: number;
}

/** How much sooner than its slot's end a step's setup writes must commit (clocks of two hosts differ a little). */
export const DEADLINE_MARGIN_MS = 1000;

/** WriteSlotSettings.warnAfterMs's default. */
export const DEFAULT_SLOT_WARN_MS = 10_000;

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
    private readonly logger?: Logger,
  ) {}

  /**
   * How long a request holds what it takes (its setups' slots, then its recorded work): until its deadline and a margin
   * (its writes carry that deadline, so none of them lands later: a request that died frees them then), never longer
   * than a lease; a lease without a deadline.
   */
  requestHoldMs(deadline?: number): number {
    if (deadline === undefined) return this.settings.leaseMs;
    return Math.min(this.settings.leaseMs, Math.max(0, deadline - Date.now()) + DEADLINE_MARGIN_MS);
  }

  /**
   * Waits for the slots of all these setups (a job's step in flight ends first), each held for `requestHoldMs`; a 503 if
   * they stay held past a lease, or past the request's deadline (the caller would have given up: the request must then
   * take no effect). `settled`, asked between two tries, ends the wait with what it answers (not undefined): the
   * request's command settled meanwhile by another request.
   */
  async takeForRequest<T>(accountId: string, slots: readonly WriteSlot[], deadline?: number, settled?: () => Promise<T | undefined>): Promise<{ taken: true } | { settled: T }> {
    const until = Math.min(Date.now() + this.settings.leaseMs, deadline ?? Number.POSITIVE_INFINITY);
    for (;;) {
      if (await this.repository.takeWriteSlots(accountId, slots, this.requestHoldMs(deadline))) return { taken: true };
      const answer = await settled?.();
      if (answer !== undefined) return { settled: answer };
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
   * Two runs of one job never hold it together, so a step is never recorded twice. Returns the slot's deadline (epoch
   * ms, on this process's clock, never later than the database's): the step's writes to the setup carry it, so none of
   * them lands once the slot may be another's (a run holds it no longer than its lease on the job). A wait of
   * `warnAfterMs` or more says so, naming the holder.
   */
  async claimForJob(job: Pick<Job, 'id' | 'accountId' | 'setupId' | 'sequence'>, holder: string, signal: AbortSignal): Promise<number> {
    const warnAfterMs = this.settings.warnAfterMs ?? DEFAULT_SLOT_WARN_MS;
    const since = Date.now();
    let warned = since;
    for (;;) {
      const asked = Date.now();
      const claim = await this.repository.claimWriteSlot(job, holder, this.settings.leaseMs);
      // A margin kept from the slot's end (a second, or a quarter of a short hold): the entity-service checks the
      // deadline on its own clock, which may be a little behind the database's.
      if (claim.outcome === 'claimed') return asked + claim.heldMs - Math.min(DEADLINE_MARGIN_MS, claim.heldMs / 4);
      if (claim.outcome === 'superseded') throw new JobSuperseded(job);
      if (claim.outcome === 'lost') throw new RunTakenOver(job);
      if (Date.now() - warned >= warnAfterMs) {
        warned = Date.now();
        this.logger?.warn(
          { jobId: job.id, setupId: job.setupId, holder, writer: claim.writer, writerLeftMs: Math.round(claim.heldMs), waitedMs: warned - since },
          claim.writer && claim.writer !== holder
            ? "a simulation job's step waits for its setup's write slot, held by another writer (a request, or an earlier run of the job) until its lease lapses, or for a request's recorded work until the work is finished"
            : "a simulation job's step waits for its setup's write slot: the run's lease on the job lapsed and waits for its renewal",
        );
      }
      await sleep(this.settings.retryMs * (0.5 + Math.random()), undefined, { signal });
    }
  }
}
