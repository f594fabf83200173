import { randomUUID } from 'node:crypto';
import { SIMULATION_STATUS, simulationServiceCaller, type ParameterUpdate, type SimulationStatusChanged } from '@pitwall/contracts';
import type { Queryable } from '@pitwall/db';
import type { Outbox, OutboxMessage } from '@pitwall/messaging';
import type { CallbackRepository } from '../data-access/callback-repository';
import type { EntityClient, SimulationProfile } from '../data-access/entity-client';
import type { Job, SimulationRepository } from '../data-access/simulation-repository';
import { systemText } from '../data-access/external-simulation-client';
import { webhookMessage } from './callbacks';
import { RunTakenOver } from './account-shares';
import type { SetupWriteSlots } from './setup-write-slots';

export interface StatusStep {
  status: string;
  message: string | null;
  studyId: string | null;
  /** Result values to write to the setup beside the status (the profile's result parameters). */
  results?: Record<string, unknown>;
  deadLettered?: boolean;
}

/** The setup parameters one status step writes, by the names the profile configures; names it lacks are skipped. */
export function statusUpdates(profile: SimulationProfile, step: StatusStep, at: Date): ParameterUpdate[] {
  const updates: ParameterUpdate[] = [];
  if (profile.statusParameter) updates.push({ Name: profile.statusParameter, Value: step.status });
  if (profile.messageParameter) updates.push({ Name: profile.messageParameter, Value: step.message });
  // Null too: a new trigger's run has no study yet, and the earlier run's study ID would not be the latest run's.
  if (profile.studyIdParameter) updates.push({ Name: profile.studyIdParameter, Value: step.studyId });
  if (profile.updateTimeParameter) updates.push({ Name: profile.updateTimeParameter, Value: at.toISOString() });
  for (const name of profile.resultParameters) {
    // Own keys only: a result parameter named like an Object member (`constructor`) is not a result.
    const value = step.results && Object.hasOwn(step.results, name) ? step.results[name] : undefined;
    if (value !== undefined) updates.push({ Name: name, Value: value === null ? null : String(value) });
  }
  return updates;
}

/** A 400 of the entity store: the write itself is wrong, and repeating it cannot help. */
function isRefusal(err: unknown): boolean {
  return (err as { status?: unknown } | null)?.status === 400;
}

/** The words a refused step's reason is written in: the store's own, made fit for a Text parameter. */
const REFUSAL_CHARS = 1000;

/** A refusal's reasons, as the entity store named them (`ParameterUpdates[1].Name: Setups has no parameter named 'X'`). */
function refusalText(err: unknown): string {
  const { message, errors } = err as { message?: string; errors?: Record<string, string[]> };
  const named = Object.values(errors ?? {}).flat();
  return named.length ? named.join('; ') : (message ?? 'refused');
}

export const statusRoutingKey = (job: Pick<Job, 'accountId' | 'profileId' | 'setupId'>): string => `${job.accountId}.${job.profileId}.${job.setupId}`;

export function statusEvent(job: Pick<Job, 'id' | 'accountId' | 'profileId' | 'setupId' | 'requestId'>, step: StatusStep, sequence: number, at: Date): SimulationStatusChanged {
  return {
    eventId: randomUUID(),
    accountId: job.accountId,
    profileId: job.profileId,
    setupId: job.setupId,
    jobId: job.id,
    status: step.status,
    message: step.message,
    studyId: step.studyId,
    sequence,
    occurredAt: at.toISOString(),
    requestId: job.requestId ?? null,
  };
}

/** Where status changes go beside the job's row, in the same transaction: the outbox and the callbacks' events. */
export interface StatusAnnouncer {
  callbacks: CallbackRepository;
  /** Called once a transaction that recorded events for callbacks committed: their deliveries wait to be written and sent. */
  committed: () => void;
}

/**
 * Announces status events inside the caller's transaction: each goes to the outbox (the `simulation.status`
 * exchange) and, when its account has HTTP callbacks, to their events (written as one delivery per callback after the
 * commit, in bounded batches), so neither is lost if the step commits. Returns how many were recorded for callbacks.
 */
export async function announce(client: Queryable, add: (messages: readonly OutboxMessage[]) => Promise<void>, callbacks: CallbackRepository, events: readonly SimulationStatusChanged[], headers?: Record<string, string>): Promise<number> {
  await add(events.map((event) => ({ routingKey: statusRoutingKey(event), payload: event, ...(headers ? { headers } : {}) })));
  return callbacks.enqueue(client, events.map(webhookMessage));
}

/**
 * One status step of a running job: the setup's write slot taken (JobSuperseded when a newer run of the setup was
 * accepted), the step written to the setup through the entity store (as the simulation-service), then recorded on the
 * job, announced (outbox and callback events) and the slot freed in one transaction. The setup write and the
 * announcement both carry the request id of the Trigger that started the job, as its own events do. A crash between the two
 * repeats the step on redelivery (the setup write is idempotent), so no step goes unannounced.
 */
export class StatusRecorder {
  constructor(
    private readonly entities: EntityClient,
    private readonly repository: SimulationRepository,
    private readonly outbox: Outbox,
    private readonly announcer: StatusAnnouncer,
    private readonly slots: SetupWriteSlots,
    private readonly stopping: AbortSignal,
  ) {}

  /** `run`: the worker run recording it (its id holds the slot, and the step is recorded only while it holds the job). */
  async record(job: Job, profile: SimulationProfile, requested: StatusStep, run?: { runner: string; signal: AbortSignal }): Promise<Job> {
    const holder = run?.runner ?? job.id;
    // The step's writes to the setup carry the slot's deadline: none lands after the slot may be another's (a run
    // killed -9 mid-step frees it with its lease on the job, and the delivery that takes the job over writes at once).
    const deadline = await this.slots.claimForJob(job, holder, run?.signal ?? this.stopping);
    const slot = [{ setupId: job.setupId, holder }];
    const at = new Date();
    let step: StatusStep;
    try {
      step = await this.writeToSetup(job, profile, requested, at, deadline);
    } catch (err) {
      await this.slots.release(job.accountId, slot);
      throw err;
    }
    try {
      return await this.commit(job, step, at, slot, run?.runner);
    } catch (err) {
      // The release rolled back with the step: freed here, or every request for the setup would wait for the lease.
      await this.slots.release(job.accountId, slot).catch(() => undefined);
      throw err;
    }
  }

  /**
   * Records and announces a last step of a job without writing it to the setup: for a job that must end although its
   * steps cannot be written there (the setup write keeps failing unexpectedly). The setup keeps its last status. With
   * `runner`, only while that worker run holds the job.
   */
  async abandon(job: Job, step: StatusStep, runner?: string): Promise<Job> {
    return this.commit(job, step, new Date(), [], runner);
  }

  /** The step recorded on the job, the slot freed and the step announced, in one transaction. */
  private async commit(job: Job, step: StatusStep, at: Date, slot: { setupId: string; holder: string }[], runner?: string): Promise<Job> {
    const { sequence, forCallbacks } = await this.outbox.transaction(async (client, add) => {
      const next = await this.repository.advance(client, job.id, { status: step.status, studyId: step.studyId, message: step.message, deadLettered: step.deadLettered ?? false }, runner);
      // Another delivery took the run's lease between its claim and here: that one records the step (rolled back).
      if (next === null) throw new RunTakenOver(job);
      await this.repository.releaseWriteSlots(job.accountId, slot, client);
      const headers = job.requestId ? { requestId: job.requestId } : undefined;
      return { sequence: next, forCallbacks: await announce(client, add, this.announcer.callbacks, [statusEvent(job, step, next, at)], headers) };
    });
    if (forCallbacks > 0) this.announcer.committed();
    return { ...job, status: step.status, studyId: step.studyId, sequence, deadLettered: step.deadLettered ?? false };
  }

  /**
   * Writes the step to the setup; returns the step written. A step the setup refuses (a 400: results the profile's
   * result parameters cannot hold, a message the message parameter cannot hold) would be refused on every retry: the
   * run ends as failed instead, saying why, rather than staying at its last status for ever. Should even that be
   * refused, the reason goes without the store's words, and then without a message on the setup (its event keeps it).
   */
  private async writeToSetup(job: Job, profile: SimulationProfile, requested: StatusStep, at: Date, deadline: number): Promise<StatusStep> {
    const caller = simulationServiceCaller(job.accountId);
    const requestId = job.requestId ?? undefined;
    try {
      await this.entities.updateSetup(caller, job.setupId, statusUpdates(profile, requested, at), requestId, deadline);
      return requested;
    } catch (err) {
      if (!isRefusal(err)) throw err;
      const failed = requested.status === SIMULATION_STATUS.startFailed ? SIMULATION_STATUS.startFailed : SIMULATION_STATUS.failed;
      const what = requested.results ? 'The results' : 'The simulation status';
      const detailed: StatusStep = { ...requested, status: failed, message: systemText(`${what} could not be written to the setup: ${refusalText(err)}`, REFUSAL_CHARS), results: undefined };
      const plain: StatusStep = { ...detailed, message: `${what} could not be written to the setup (the entity store refused it)` };
      for (const [step, written] of [[detailed, detailed], [plain, plain], [detailed, { ...detailed, message: null }]] as const) {
        try {
          await this.entities.updateSetup(caller, job.setupId, statusUpdates(profile, written, at), requestId, deadline);
          return step;
        } catch (again) {
          if (!isRefusal(again)) throw again;
        }
      }
      // Refused whatever it says: the run still ends, recorded on the job and announced.
      return detailed;
    }
  }
}
