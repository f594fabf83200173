import { randomUUID } from 'node:crypto';
import { SIMULATION_STATUS, type CallerContext, type EntityJson, type ReprocessSimulationBody, type SimulationResult, type TriggerSimulationBody } from '@pitwall/contracts';
import { checkDeadline, commandOf } from '@pitwall/messaging';
import { AppError } from '@pitwall/service-kit';
import { profileNamesOf, type EntityClient, type SimulationProfile } from '../data-access/entity-client';
import { baseUrlRefusal, studyIdRefusal } from '../data-access/external-simulation-client';
import type { Job, PendingRequest, SimulationRepository } from '../data-access/simulation-repository';
import { bindingRefusal } from './credential-binding';
import { earlierOutcome, finishPending, outcomeOnce, unsettled, type SimulationAnswer } from './pending-requests';
import type { SecretBox } from './secret-box';
import { DEADLINE_MARGIN_MS, type SetupWriteSlots } from './setup-write-slots';
import type { SimulationWrites, WriteRequest } from './simulation-writes';
import { statusUpdates, type StatusAnnouncer } from './status-recorder';

/** Routing keys of job messages start with this; status events are `<accountId>.<profileId>.<setupId>`. */
export const JOB_ROUTING_PREFIX = 'job.';
export interface JobMessage {
  jobId: string;
}

export const NOT_CONNECTED = "The setup's account is not connected to the external simulation system";

export interface RequestDependencies {
  entities: EntityClient;
  repository: SimulationRepository;
  secrets: SecretBox;
  writes: SimulationWrites;
  announcer: StatusAnnouncer;
  slots: SetupWriteSlots;
  /** Publishes waiting jobs within their account's share: called once a request's jobs are queued. */
  shares: { wake(): void };
  /** SIMULATION_MAX_STUDY_ID_CHARS: a Reprocess's study id longer than it is refused. */
  settings: { maxStudyIdChars: number };
}

type Request = { kind: 'trigger'; body: TriggerSimulationBody } | { kind: 'reprocess'; body: ReprocessSimulationBody };

/**
 * Trigger and Reprocess: each setup validated on its own (found and readable, writable by the caller, the account
 * connected unless credentials came with the request, for Reprocess a study ID in the named parameter); the accepted
 * ones get the status `Requested` at once and a job waiting in the table (the job and its first status event are
 * committed together, the event through the outbox); the account's share of its waiting jobs is published to the job
 * queue by AccountShares, oldest first, so one account's backlog never stands in the queue ahead of another account's
 * job. Each job is its setup's latest run from then on, and supersedes an earlier job of the setup (SetupWriteSlots).
 *
 * The `Requested` write is another service's transaction, so the request records its work first (`recordPending`: the
 * writes, the jobs and the answer so far, its setups' slots held for it), then writes and commits it
 * (`finishPending`): a request that dies (or whose writes fail) in between leaves its work to be finished by the next
 * to find it, the sweep of any instance or a repeat of its command, once its hold lapses (its deadline: none of its
 * writes can land later). The setups never stay `Requested` with no job behind them, and the work is done once. The
 * request is one command of the inbox: redelivered or repeated (same Idempotency-Key) after it took effect, it answers
 * the first results and writes nothing.
 */
export async function requestSimulations(deps: RequestDependencies, caller: CallerContext, request: Request, bus: WriteRequest & { requestId?: string }): Promise<SimulationAnswer> {
  const settling = { ...deps, holdMs: (deadline?: number) => deps.slots.requestHoldMs(deadline) };
  const earlier = await earlierOutcome(settling, caller.accountId, bus);
  if (earlier) return earlier;
  const { profile, results } = await validate(deps, caller, request, bus.requestId);
  const accepted = results.flatMap((r) => (r.job ? [r.job] : []));
  if (!accepted.length) return answerOf(results); // nothing to take effect
  // The setups' write slots first: a running job's step in flight lands before this request's Requested, and none after.
  const slots = accepted.map((job) => ({ setupId: job.setupId, holder: job.id }));
  // A repeat of the command while its first request holds the slots (or its recorded work does): the first's outcome.
  const taken = await deps.slots.takeForRequest(caller.accountId, slots, bus.deadline, async () => {
    const outcome = await outcomeOnce(settling, caller.accountId, bus);
    return outcome === 'pending' ? undefined : outcome;
  });
  if ('settled' in taken) return taken.settled;
  let recorded = false;
  try {
    // A repeat that took the slots after the first committed: the first's answer, and no second Requested over its progress.
    const meanwhile = await outcomeOnce(settling, caller.accountId, bus);
    if (meanwhile === 'pending') return await firstOutcome(settling, caller.accountId, bus);
    if (meanwhile) return meanwhile;
    // The setups read again now that this request holds their slots: what an earlier run or request wrote meanwhile.
    // A Reprocess takes its study ids from them (a Trigger that held a slot before it cleared the setup's since the
    // check, and this request goes after it, as if sent after it); a Trigger, the results it clears.
    const held = await deps.entities.findSetups(caller, accepted.map((job) => job.setupId), bus.requestId);
    if (request.kind === 'reprocess') recheckStudyIds(deps, request.body, results, held);
    const current = results.flatMap((r) => (r.job ? [r.job] : []));
    if (!current.length) return answerOf(results); // nothing to take effect
    const at = new Date();
    const requested = { status: SIMULATION_STATUS.requested, message: null };
    // The status is on the setups before any worker can take a job, so `Requested` never overwrites a later step: one
    // entity-service transaction for all of them. A setup deleted since the check is refused there: no job for it.
    // A Trigger's `Requested` clears the study ID and the result parameters that hold a value: the new run has neither
    // yet, and an earlier run's results left beside its status would read as this run's should it fail. A result name
    // with no value is not written (a profile may name one Setups do not have: the store would refuse the setup).
    const cleared = (setupId: string) => (request.kind === 'trigger' ? { results: Object.fromEntries(resultsHeld(held.get(setupId), profile.resultParameters).map((name) => [name, null])) } : {});
    const command = commandOf(bus.headers as Record<string, string | undefined>, caller.accountId);
    const asked = Date.now();
    const holdMs = deps.slots.requestHoldMs(bus.deadline);
    const pending: PendingRequest = {
      id: randomUUID(),
      accountId: caller.accountId,
      command: command ? { id: command.id, requestHash: command.requestHash } : null,
      owner: randomUUID(),
      // Sealed once for the request's jobs: credentials given with it are kept for them only, sealed like a connection.
      sealedCredentials: request.body.credentials ? deps.secrets.seal(request.body.credentials) : null,
      work: {
        kind: request.kind,
        profileId: profile.id,
        profileNames: profileNamesOf(profile),
        at: at.toISOString(),
        // Each job keeps the request id, so its later steps are announced with it too.
        requestId: bus.requestId ?? null,
        results: results.map(({ setupId, accepted: ok, studyId, message, job }) => ({ setupId, accepted: ok, studyId, message, ...(job ? { jobId: job.id } : {}) })),
        items: current.map((job) => ({ id: job.setupId, updates: statusUpdates(profile, { ...requested, studyId: job.studyId, ...cleared(job.setupId) }, at) })),
        jobs: current.map((job) => ({ id: job.id, setupId: job.setupId, studyId: job.studyId })),
      },
    };
    // Past its deadline the client has gone: rather than record work it was not told of, nothing is changed.
    checkDeadline(bus.deadline);
    // The slots of the setups refused on the second read go now; the others are held for the work until it is finished.
    const kept = new Set(current.map((job) => job.id));
    await deps.slots.release(caller.accountId, slots.filter((slot) => !kept.has(slot.holder)));
    const outcome = await deps.repository.recordPending(pending, slots.filter((slot) => kept.has(slot.holder)), holdMs);
    // Its slots lapsed (the request ran past its deadline, its client gone): nothing was written.
    if (outcome === 'slots-lost') throw AppError.busy("The setups' simulation status is being written by another request; retry", 1);
    // Another request of the command recorded its work first: its outcome.
    if (outcome === 'duplicate') return await firstOutcome(settling, caller.accountId, bus);
    recorded = true;
    try {
      return await finishPending(deps, pending, Math.min(bus.deadline ?? Number.POSITIVE_INFINITY, asked + holdMs - DEADLINE_MARGIN_MS));
    } catch (err) {
      throw unsettled(err);
    }
  } finally {
    // Slots of a request that took no effect: freed (recorded work holds its own until it is finished).
    if (!recorded) await deps.slots.release(caller.accountId, slots);
  }
}

/** The outcome of the command's first request, which recorded its work before this one could. */
async function firstOutcome(deps: Parameters<typeof earlierOutcome>[0], accountId: string, bus: WriteRequest): Promise<SimulationAnswer> {
  const outcome = await earlierOutcome(deps, accountId, bus);
  if (!outcome) throw AppError.busy("The setups' simulation status is being written by another request; retry", 1);
  return outcome;
}

const answerOf = (results: readonly SimulationResult[]): SimulationAnswer => ({ results: results.map(({ setupId, accepted, studyId, message }) => ({ setupId, accepted, studyId, message })) });

async function validate(deps: RequestDependencies, caller: CallerContext, request: Request, requestId?: string): Promise<{ profile: SimulationProfile; results: (SimulationResult & { job?: Job })[] }> {
  const { body } = request;
  const profile = await deps.entities.profile(caller, body.externalProfileId, requestId);
  // Credentials that come with the request are the caller's to send; the account's are bound to the admin's origin.
  const stored = body.credentials != null ? null : await deps.repository.connection(caller.accountId);
  const connected = body.credentials != null || stored !== null;
  // A BaseUrl that is not an absolute http(s) URL is refused before the origin check (which it could not pass either).
  const badBaseUrl = profile.baseUrl ? baseUrlRefusal(profile.baseUrl) : null;
  const binding = stored && profile.baseUrl && !badBaseUrl ? bindingRefusal(stored.origin, profile.baseUrl) : null;
  const seen = new Set<string>();
  const ids = [...new Set(body.setupIds.map((id) => id.toLowerCase()))];
  const setups = await deps.entities.findSetups(caller, ids, requestId);
  const results = body.setupIds.map((rawId): SimulationResult & { job?: Job } => {
    const setupId = rawId.toLowerCase();
    const reject = (message: string, studyId: string | null = null): SimulationResult => ({ setupId, accepted: false, studyId, message });
    if (seen.has(setupId)) return reject('The setup is listed more than once in this request');
    seen.add(setupId);
    const setup = setups.get(setupId);
    if (!setup) return reject('Setup not found');
    // Over HTTP a reader never gets here (the gateway answers its write a 403); a bus caller of simulation.trigger or
    // simulation.reprocess with a reader's context does, and this service does not rely on its callers to filter.
    if (caller.role === 'reader') return reject('Your role in this account is reader: it may read the setup, not write its simulation status');
    if (!connected) return reject(NOT_CONNECTED);
    if (!profile.baseUrl) return reject('The simulation profile configures no BaseUrl of the external simulation system');
    if (badBaseUrl) return reject(badBaseUrl);
    if (binding) return reject(binding);
    let studyId: string | null = null;
    if (request.kind === 'reprocess') {
      const found = studyIdOf(setup, request.body.parameterNameForStudyId, deps.settings.maxStudyIdChars);
      if ('refusal' in found) return reject(found.refusal);
      studyId = found.studyId;
    }
    return { setupId, accepted: true, studyId: request.kind === 'reprocess' ? studyId : null, message: null, job: newJob(caller.accountId, profile, setupId, request.kind, studyId) };
  });
  return { profile, results };
}

/** A Reprocess's study id from the setup's parameter, or why the setup is refused. */
function studyIdOf(setup: EntityJson, parameterName: string, maxChars: number): { studyId: string } | { refusal: string } {
  const studyId = parameterText(setup, parameterName);
  if (!studyId) return { refusal: `The setup has no study ID in its parameter ${parameterName}` };
  const refusal = studyIdRefusal(studyId, maxChars);
  if (refusal) return { refusal: `The setup's parameter ${parameterName} holds no study ID the simulation system can be asked about: ${refusal}` };
  return { studyId };
}

/**
 * The accepted setups of a Reprocess read again under their write slots: the study id each is reprocessed with is
 * the one its parameter holds now (a Trigger accepted in between cleared it: the setup is refused, saying it has no
 * study ID; a run's step since wrote another: that one). Each setup on its own: the others stay accepted.
 */
function recheckStudyIds(deps: RequestDependencies, body: ReprocessSimulationBody, results: (SimulationResult & { job?: Job })[], setups: ReadonlyMap<string, EntityJson>): void {
  const pending = results.filter((r) => r.job);
  for (const result of pending) {
    const setup = setups.get(result.setupId);
    const found = setup ? studyIdOf(setup, body.parameterNameForStudyId, deps.settings.maxStudyIdChars) : { refusal: 'Setup not found' };
    if ('refusal' in found) Object.assign(result, { accepted: false, studyId: null, message: found.refusal, job: undefined });
    else if (found.studyId !== result.studyId) Object.assign(result, { studyId: found.studyId, job: { ...result.job, studyId: found.studyId } });
  }
}

/** A job to be: its credentials, if the request brought any, are sealed once for all of the request's jobs. */
function newJob(accountId: string, profile: SimulationProfile, setupId: string, kind: 'trigger' | 'reprocess', studyId: string | null): Job {
  return {
    id: randomUUID(),
    accountId,
    profileId: profile.id,
    setupId,
    kind,
    sealedCredentials: null,
    studyId,
    status: SIMULATION_STATUS.requested,
    sequence: 1,
    deadLettered: false,
    // The names `Requested` is written under: the job's last status goes under them should the profile be deleted.
    profileNames: profileNamesOf(profile),
  };
}

/** The result names among `names` that hold a value on the setup (names compare case-insensitively). */
function resultsHeld(setup: EntityJson | undefined, names: readonly string[]): string[] {
  if (!setup) return [];
  return names.filter((name) => {
    const value = parameterValue(setup, name);
    return value !== undefined && value !== null && value !== '';
  });
}

/** A setup's parameter's value (names compare case-insensitively); undefined when the setup has no such parameter. */
function parameterValue(setup: EntityJson, name: string): unknown {
  const key = Object.keys(setup.Parameters).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : setup.Parameters[key];
}

/** A setup's parameter as non-empty text (names compare case-insensitively), or null. */
function parameterText(setup: EntityJson, name: string): string | null {
  const value = parameterValue(setup, name);
  if (value === undefined || value === null) return null;
  const text = String(value).trim();
  return text === '' ? null : text;
}
