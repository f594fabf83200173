import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { SIMULATION_STATUS, simulationServiceCaller, type EntityUpdateManyOutcome, type ParameterUpdate, type SimulationResult } from '@pitwall/contracts';
import { COMMAND_HEADERS, commandOf, KEY_REUSED_TYPE } from '@pitwall/messaging';
import { AppError, OUTCOME_UNKNOWN_SENTENCE, OUTCOME_UNKNOWN_TYPE, toAppError, type Logger } from '@pitwall/service-kit';
import { profileFromNames, profileParametersNaming, type EntityClient, type SimulationProfile } from '../data-access/entity-client';
import { systemText } from '../data-access/external-simulation-client';
import type { Job, PendingRequest, SimulationRepository } from '../data-access/simulation-repository';
import { PeriodicPass } from './coalesced-pass';
import { DEADLINE_MARGIN_MS } from './setup-write-slots';
import { jsonCodec, type SimulationWrites, type WriteRequest } from './simulation-writes';
import { announce, statusEvent, type StatusAnnouncer } from './status-recorder';

export interface SimulationAnswer {
  results: SimulationResult[];
}

export interface PendingDependencies {
  entities: EntityClient;
  repository: SimulationRepository;
  writes: SimulationWrites;
  announcer: StatusAnnouncer;
  /** Publishes waiting jobs within their account's share: called once a request's jobs are queued. */
  shares: { wake(): void };
}

/** Thrown when another took the work over (its owner's hold had lapsed): that one finishes it, and nothing was committed. */
export class PendingTakenOver extends Error {
  constructor(pending: Pick<PendingRequest, 'id'>) {
    super(`The request's recorded work ${pending.id} was taken over by another to finish it`);
  }
}

/** Pending work the sweep takes over at most in one pass. */
const SWEEP_ROWS = 100;
/** Pause between two looks of a repeated command at the work its first request is finishing. */
const PENDING_POLL_MS = 100;

const codec = jsonCodec<SimulationAnswer>();

/**
 * Finishes a Trigger's or Reprocess's recorded work as its owner: each setup's `Requested` written through the entity
 * store (one transaction there, as the simulation-service; a write past `writeDeadline` is rolled back there, so none
 * lands once another may own the work), then one transaction here that removes the work (PendingTakenOver, nothing
 * committed, if another owns it now), commits the jobs of the setups that took the write (each its setup's latest run
 * from here on, waiting for its account's share), frees the setups' write slots, announces each job's first status
 * and records the answer with the command. A second write of `Requested` by a later owner writes the same values. On
 * failure the owner gives the work up at once (nothing it sent can still land): the sweep finishes it.
 */
export async function finishPending(deps: PendingDependencies, pending: PendingRequest, writeDeadline?: number): Promise<SimulationAnswer> {
  const { work } = pending;
  try {
    const profile = profileFromNames(work.profileId, work.profileNames);
    const outcomes = await deps.entities.updateSetups(simulationServiceCaller(pending.accountId), work.items, work.requestId ?? undefined, writeDeadline);
    // A setup deleted since the check, or one the store refuses the write of, gets no job.
    const refusals = new Map<string, string>();
    for (const outcome of outcomes) {
      if (outcome.ok) continue;
      const setupId = outcome.id.toLowerCase();
      refusals.set(setupId, refusalMessage(profile, outcome, work.items.find((item) => item.id === setupId)?.updates ?? []));
    }
    const results = work.results.map(({ jobId, ...result }): SimulationResult => {
      const refusal = jobId === undefined ? undefined : refusals.get(result.setupId);
      return refusal === undefined ? result : { ...result, accepted: false, studyId: null, message: refusal };
    });
    const requested = { status: SIMULATION_STATUS.requested, message: null };
    const jobs: Job[] = work.jobs
      .filter((job) => !refusals.has(job.setupId))
      .map((job) => ({
        id: job.id,
        accountId: pending.accountId,
        profileId: work.profileId,
        setupId: job.setupId,
        kind: work.kind,
        sealedCredentials: pending.sealedCredentials,
        studyId: job.studyId,
        status: SIMULATION_STATUS.requested,
        sequence: 1,
        deadLettered: false,
        requestId: work.requestId,
        profileNames: work.profileNames,
      }));
    const slots = work.jobs.map((job) => ({ setupId: job.setupId, holder: job.id }));
    const at = new Date(work.at);
    let forCallbacks = 0;
    const answer = await deps.writes.once(
      commandRequest(pending),
      pending.accountId,
      codec,
      async (client, add) => {
        if (!(await deps.repository.settlePending(client, pending.id, pending.owner))) throw new PendingTakenOver(pending);
        await deps.repository.insertJobs(client, jobs);
        await deps.repository.makeLatest(client, jobs);
        // The refused setups' slots too (those of the jobs are freed as they become the latest).
        await deps.repository.releaseWriteSlots(pending.accountId, slots, client);
        const events = jobs.map((job) => statusEvent(job, { ...requested, studyId: job.studyId }, 1, at));
        if (events.length) forCallbacks = await announce(client, add, deps.announcer.callbacks, events, work.requestId ? { requestId: work.requestId } : undefined);
        return { results };
      },
      // Past the request's deadline too: the setups already say `Requested`, which its jobs must follow.
      { checkDeadline: false },
    );
    if (forCallbacks > 0) deps.announcer.committed();
    // The jobs wait in the table: the account's share of them is published now, the others as its jobs end.
    if (jobs.length) deps.shares.wake();
    return answer;
  } catch (err) {
    await deps.repository.leavePending(pending.id, pending.owner, DEADLINE_MARGIN_MS).catch(() => undefined);
    throw err;
  }
}

/** The bus request the work's command came in, as the inbox knows it: its command id and hash. */
function commandRequest(pending: PendingRequest): WriteRequest {
  return { headers: pending.command ? { [COMMAND_HEADERS.id]: pending.command.id, [COMMAND_HEADERS.hash]: pending.command.requestHash } : {} };
}

/**
 * The outcome of a request whose work is recorded but which could not finish it (its writes failed, or another took
 * the work over): a 504 saying the outcome is unknown yet. The work is finished by another (the sweep, or a repeat of
 * the command) within seconds, and a repeat with the same Idempotency-Key answers its outcome.
 */
export function unsettled(err: unknown): AppError {
  if (err instanceof AppError && err.type === OUTCOME_UNKNOWN_TYPE) return err;
  const why = err instanceof PendingTakenOver ? 'another took it over' : toAppError(err).message;
  return new AppError(504, `The request was recorded but not finished (${why}): the service finishes it within seconds. ${OUTCOME_UNKNOWN_SENTENCE}`, {
    type: OUTCOME_UNKNOWN_TYPE,
    retryAfterSeconds: 2,
    cause: err,
  });
}

/**
 * The outcome of a request's command seen before: its recorded answer; or, while the work of its first request is
 * recorded and not finished, that work taken over once its owner's hold lapsed (it died, or gave up) and finished as
 * this request (its writes carry this request's deadline), waiting meanwhile; 503 if the owner still holds it at this
 * request's deadline. undefined: the command is new. A different request under the same command id is a 422.
 */
export async function earlierOutcome(deps: PendingDependencies & { holdMs: (deadline?: number) => number }, accountId: string, bus: WriteRequest): Promise<SimulationAnswer | undefined> {
  const until = bus.deadline ?? Date.now() + deps.holdMs();
  for (;;) {
    const outcome = await outcomeOnce(deps, accountId, bus);
    if (outcome !== 'pending') return outcome;
    if (Date.now() > until) throw AppError.busy('This request is being finished by another request of the same Idempotency-Key; retry', 1);
    await sleep(PENDING_POLL_MS * (0.5 + Math.random()));
  }
}

/** One look at the command's outcome (see `earlierOutcome`): 'pending' while another owns its work. */
export async function outcomeOnce(deps: PendingDependencies & { holdMs: (deadline?: number) => number }, accountId: string, bus: WriteRequest): Promise<SimulationAnswer | 'pending' | undefined> {
  const recorded = await deps.writes.recorded(bus, accountId, codec);
  if (recorded) return recorded;
  const command = commandOf(bus.headers as Record<string, string | undefined>, accountId);
  if (!command) return undefined;
  const pending = await deps.repository.pendingOf(accountId, command.id);
  if (!pending) return undefined;
  if (pending.command?.requestHash !== command.requestHash) throw new AppError(422, 'This Idempotency-Key was already used with another request; send a new key for a new request', { type: KEY_REUSED_TYPE });
  if (!pending.lapsed) return 'pending';
  const asked = Date.now();
  const holdMs = deps.holdMs(bus.deadline);
  const owned = await deps.repository.takeOverPending(pending.id, randomUUID(), holdMs);
  if (!owned) return 'pending';
  try {
    return await finishPending(deps, owned, Math.min(bus.deadline ?? Number.POSITIVE_INFINITY, asked + holdMs - DEADLINE_MARGIN_MS));
  } catch (err) {
    throw unsettled(err);
  }
}

export interface PendingSweepSettings {
  /** SIMULATION_SETUP_WRITE_LEASE_MS: how long the sweep holds work it took over (its writes carry that end). */
  leaseMs: number;
  /** How often each instance looks for work whose owner's hold lapsed. */
  intervalMs: number;
}

/**
 * Every instance, every `intervalMs`: the recorded work of Triggers and Reprocesses whose owner's hold lapsed (the
 * process died between recording it and committing its jobs, or its writes failed) taken over and finished, so a setup
 * never stays `Requested` with no job behind it, whether or not the client sends its request again.
 */
export class PendingRequestSweep {
  private readonly pass: PeriodicPass;

  constructor(
    private readonly deps: PendingDependencies,
    private readonly settings: PendingSweepSettings,
    private readonly logger: Logger,
  ) {
    this.pass = new PeriodicPass(
      async () => void (await this.finishLapsed()),
      (err: unknown) => this.logger.warn({ err }, 'cut-off simulation requests could not be looked for; tried again at the next pass'),
      settings.intervalMs,
    );
  }

  start(): void {
    this.pass.start();
  }

  async stop(): Promise<void> {
    await this.pass.stop();
  }

  /** One pass: returns how many were finished. */
  async finishLapsed(): Promise<number> {
    let finished = 0;
    for (const id of await this.deps.repository.lapsedPending(SWEEP_ROWS)) {
      if (this.pass.halted) break;
      const asked = Date.now();
      const pending = await this.deps.repository.takeOverPending(id, randomUUID(), this.settings.leaseMs);
      if (!pending) continue; // another instance, or a repeat of the command, took it
      try {
        const answer = await finishPending(this.deps, pending, asked + this.settings.leaseMs - DEADLINE_MARGIN_MS);
        finished++;
        const accepted = answer.results.filter((r) => r.accepted).length;
        this.logger.info({ pendingId: id, accountId: pending.accountId, accepted, refused: answer.results.length - accepted }, 'a simulation request cut off before it committed its jobs was finished');
      } catch (err) {
        this.logger.warn({ err, pendingId: id, accountId: pending.accountId }, 'a simulation request cut off before it committed its jobs could not be finished yet; tried again in a moment');
      }
    }
    return finished;
  }
}

/**
 * Why the entity store refused the `Requested` write of a setup: gone since the check, or (a 400) a parameter the
 * profile names that Setups do not have or that cannot hold the value, named with the profile parameter naming it.
 */
function refusalMessage(profile: SimulationProfile, outcome: Extract<EntityUpdateManyOutcome, { ok: false }>, updates: readonly ParameterUpdate[]): string {
  if (outcome.status === 404) return 'Setup not found';
  const reasons = Object.entries(outcome.errors ?? {}).flatMap(([path, messages]) => {
    const index = /^ParameterUpdates\[(\d+)\]/.exec(path)?.[1];
    const name = index === undefined ? undefined : updates[Number(index)]?.Name;
    if (name === undefined) return messages;
    const naming = profileParametersNaming(profile, name);
    const subject = naming.length ? `${naming.join(' and ')} ${naming.length > 1 ? 'name' : 'names'}` : 'names';
    return messages.map((message) => `The simulation profile's ${subject} '${name}', which cannot be written to the setup: ${message}`);
  });
  const text = reasons.length ? reasons.join('; ') : `The simulation status could not be written to the setup: ${outcome.detail}`;
  // A profile's parameter name is its user's text, echoed by this message and the store's: a 20,000-character one
  // made each setup's result 40 KB. Cut, as the system's own words are.
  return text.length > MAX_REFUSAL_CHARS ? `${systemText(text, MAX_REFUSAL_CHARS - 1)}…` : text;
}

/** The longest reason a setup's result gives for a refused status write. */
const MAX_REFUSAL_CHARS = 1000;
