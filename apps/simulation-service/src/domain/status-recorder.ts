import { randomUUID } from 'node:crypto';
import { SIMULATION_STATUS, simulationServiceCaller, type ParameterUpdate, type SimulationStatusChanged } from '@pitwall/contracts';
import type { Queryable } from '@pitwall/db';
import type { Outbox, OutboxMessage } from '@pitwall/messaging';
import type { CallbackRepository } from '../data-access/callback-repository';
import type { EntityClient, SimulationProfile } from '../data-access/entity-client';
import type { Job, SimulationRepository } from '../data-access/simulation-repository';
import { webhookMessage } from './callbacks';
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
    const value = step.results?.[name];
    if (value !== undefined) updates.push({ Name: name, Value: value === null ? null : String(value) });
  }
  return updates;
}

/** A 400 of the entity store: the write itself is wrong, and repeating it cannot help. */
function isRefusal(err: unknown): boolean {
  return (err as { status?: unknown } | null)?.status === 400;
}

/** A refusal's reasons, as the entity store named them (`ParameterUpdates[1].Name: Setups has no parameter named 'X'`). */
function refusalText(err: unknown): string {
  const { message, errors } = err as { message?: string; errors?: Record<string, string[]> };
  const named = Object.values(errors ?? {}).flat();
  return named.length ? named.join('; ') : (message ?? 'refused');
}

export const statusRoutingKey = (job: Pick<Job, 'accountId' | 'profileId' | 'setupId'>): string => `${job.accountId}.${job.profileId}.${job.setupId}`;

export function statusEvent(job: Pick<Job, 'id' | 'accountId' | 'profileId' | 'setupId'>, step: StatusStep, sequence: number, at: Date): SimulationStatusChanged {
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
  };
}

/** Where status changes go beside the job's row, in the same transaction: the outbox and the callbacks' deliveries. */
export interface StatusAnnouncer {
  callbacks: CallbackRepository;
  /** Called once a transaction that wrote callback deliveries committed: they wait to be sent. */
  committed: () => void;
}

/**
 * Announces status events inside the caller's transaction: each goes to the outbox (the `simulation.status`
 * exchange) and becomes one delivery per HTTP callback of its account, so neither is lost if the step commits.
 */
export async function announce(client: Queryable, add: (messages: readonly OutboxMessage[]) => Promise<void>, callbacks: CallbackRepository, events: readonly SimulationStatusChanged[], headers?: Record<string, string>): Promise<number> {
  await add(events.map((event) => ({ routingKey: statusRoutingKey(event), payload: event, ...(headers ? { headers } : {}) })));
  return callbacks.enqueue(client, events.map(webhookMessage));
}

/**
 * One status step of a running job: the setup's write slot taken (JobSuperseded when a newer run of the setup was
 * accepted), the step written to the setup through the entity store (as the simulation-service), then recorded on the
 * job, announced (outbox and callback deliveries) and the slot freed in one transaction. The setup write and the
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

  async record(job: Job, profile: SimulationProfile, requested: StatusStep): Promise<Job> {
    await this.slots.claimForJob(job, this.stopping);
    const slot = [{ setupId: job.setupId, holder: job.id }];
    const at = new Date();
    let step = requested;
    try {
      try {
        await this.entities.updateSetup(simulationServiceCaller(job.accountId), job.setupId, statusUpdates(profile, step, at), job.requestId ?? undefined);
      } catch (err) {
        // Results the setup refuses (the profile names a result parameter Setups lack, or one whose type cannot hold
        // the value) would refuse every retry: the run ends as failed, saying why, instead of staying Running.
        if (!step.results || !isRefusal(err)) throw err;
        step = { ...step, status: SIMULATION_STATUS.failed, message: `The results could not be written to the setup: ${refusalText(err)}`, results: undefined };
        await this.entities.updateSetup(simulationServiceCaller(job.accountId), job.setupId, statusUpdates(profile, step, at), job.requestId ?? undefined);
      }
    } catch (err) {
      await this.slots.release(job.accountId, slot);
      throw err;
    }
    let recorded: { sequence: number; deliveries: number };
    try {
      recorded = await this.outbox.transaction(async (client, add) => {
        const next = await this.repository.advance(client, job.id, { status: step.status, studyId: step.studyId, message: step.message, deadLettered: step.deadLettered ?? false });
        await this.repository.releaseWriteSlots(job.accountId, slot, client);
        const headers = job.requestId ? { requestId: job.requestId } : undefined;
        return { sequence: next, deliveries: await announce(client, add, this.announcer.callbacks, [statusEvent(job, step, next, at)], headers) };
      });
    } catch (err) {
      // The release rolled back with the step: freed here, or every request for the setup would wait for the lease.
      await this.slots.release(job.accountId, slot).catch(() => undefined);
      throw err;
    }
    const { sequence, deliveries } = recorded;
    if (deliveries > 0) this.announcer.committed();
    return { ...job, status: step.status, studyId: step.studyId, sequence, deadLettered: step.deadLettered ?? false };
  }
}
