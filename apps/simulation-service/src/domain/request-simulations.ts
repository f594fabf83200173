import { randomUUID } from 'node:crypto';
import { SIMULATION_STATUS, simulationServiceCaller, type CallerContext, type EntityJson, type EntityUpdateManyOutcome, type ParameterUpdate, type ReprocessSimulationBody, type SimulationConnection, type SimulationResult, type TriggerSimulationBody } from '@pitwall/contracts';
import { profileNamesOf, profileParametersNaming, type EntityClient, type SimulationProfile } from '../data-access/entity-client';
import { baseUrlRefusal, studyIdRefusal, systemText } from '../data-access/external-simulation-client';
import type { Job, SimulationRepository } from '../data-access/simulation-repository';
import { bindingRefusal } from './credential-binding';
import type { SecretBox } from './secret-box';
import type { SetupWriteSlots } from './setup-write-slots';
import { jsonCodec, type SimulationWrites, type WriteRequest } from './simulation-writes';
import { announce, statusEvent, statusUpdates, type StatusAnnouncer } from './status-recorder';

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
 * job. Each job is its setup's latest run from then on, and supersedes an earlier job of the setup (SetupWriteSlots). The request is one command of the inbox: redelivered or repeated
 * (same Idempotency-Key) after it took effect, it answers the first results and writes nothing.
 */
export async function requestSimulations(deps: RequestDependencies, caller: CallerContext, request: Request, bus: WriteRequest & { requestId?: string }): Promise<{ results: SimulationResult[] }> {
  const codec = jsonCodec<{ results: SimulationResult[] }>();
  const earlier = await deps.writes.recorded(bus, caller.accountId, codec);
  if (earlier) return earlier;
  const { profile, results } = await validate(deps, caller, request, bus.requestId);
  const requested = { status: SIMULATION_STATUS.requested, message: null };
  const accepted = results.flatMap((r) => (r.job ? [r.job] : []));
  if (!accepted.length) return answerOf(results); // nothing to take effect
  // The setups' write slots first: a running job's step in flight lands before this request's Requested, and none after.
  const slots = accepted.map((job) => ({ setupId: job.setupId, holder: job.id }));
  await deps.slots.takeForRequest(caller.accountId, slots, bus.deadline);
  try {
    // A repeat that waited for the slots of the first: the first's answer, and no second Requested over its progress.
    const meanwhile = await deps.writes.recorded(bus, caller.accountId, codec);
    if (meanwhile) return meanwhile;
    // The setups read again now that this request holds their slots: what an earlier run or request wrote meanwhile.
    // A Reprocess takes its study ids from them (a Trigger that held a slot before it cleared the setup's since the
    // check, and this request goes after it, as if sent after it); a Trigger, the results it clears.
    const held = await deps.entities.findSetups(caller, accepted.map((job) => job.setupId), bus.requestId);
    if (request.kind === 'reprocess') recheckStudyIds(deps, request.body, results, held);
    const current = results.flatMap((r) => (r.job ? [r.job] : []));
    if (!current.length) return answerOf(results); // nothing to take effect
    const at = new Date();
    // The status is on the setups before any worker can take a job, so `Requested` never overwrites a later step: one
    // entity-service transaction for all of them. A setup deleted since the check is refused there: no job for it.
    // A Trigger's `Requested` clears the study ID and the result parameters that hold a value: the new run has neither
    // yet, and an earlier run's results left beside its status would read as this run's should it fail. A result name
    // with no value is not written (a profile may name one Setups do not have: the store would refuse the setup).
    const cleared = (setupId: string) => (request.kind === 'trigger' ? { results: Object.fromEntries(resultsHeld(held.get(setupId), profile.resultParameters).map((name) => [name, null])) } : {});
    const items = current.map((job) => ({ id: job.setupId, updates: statusUpdates(profile, { ...requested, studyId: job.studyId, ...cleared(job.setupId) }, at) }));
    const outcomes = await deps.entities.updateSetups(simulationServiceCaller(caller.accountId), items, bus.requestId);
    const refusals = new Map<string, string>();
    for (const outcome of outcomes) if (!outcome.ok) refusals.set(outcome.id.toLowerCase(), refusalMessage(profile, outcome, items.find((item) => item.id === outcome.id.toLowerCase())?.updates ?? []));
    // A refused setup gets no job, so no study ID is applied to it either.
    for (const result of results) {
      const refusal = refusals.get(result.setupId);
      if (refusal !== undefined) Object.assign(result, { accepted: false, studyId: null, message: refusal, job: undefined });
    }
    // Each job keeps the request id, so its later steps are announced with it too.
    const jobs = results.flatMap((r) => (r.job ? [{ ...r.job, requestId: bus.requestId ?? null }] : []));
    const answer = answerOf(results);
    if (!jobs.length) return answer; // nothing to take effect
    const headers = bus.requestId ? { requestId: bus.requestId } : undefined;
    // The jobs (each its setup's latest run from here on, waiting for its account's share), their first status events
    // and the command commit together.
    let forCallbacks = 0;
    const recorded = await deps.writes.once(
      bus,
      caller.accountId,
      codec,
      async (client, add) => {
        await deps.repository.insertJobs(client, jobs);
        await deps.repository.makeLatest(client, jobs);
        forCallbacks = await announce(client, add, deps.announcer.callbacks, jobs.map((job) => statusEvent(job, { ...requested, studyId: job.studyId }, 1, at)), headers);
        return answer;
      },
      { checkDeadline: false },
    );
    if (forCallbacks > 0) deps.announcer.committed();
    // The jobs wait in the table: the account's share of them is published now, the others as its jobs end.
    deps.shares.wake();
    return recorded;
  } finally {
    // Slots of refused setups, or of a request that failed: freed (those of accepted jobs were freed with the commit).
    await deps.slots.release(caller.accountId, slots);
  }
}

const answerOf = (results: readonly SimulationResult[]): { results: SimulationResult[] } => ({ results: results.map(({ setupId, accepted, studyId, message }) => ({ setupId, accepted, studyId, message })) });

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
    return { setupId, accepted: true, studyId: request.kind === 'reprocess' ? studyId : null, message: null, job: newJob(caller.accountId, profile, setupId, request.kind, studyId, body.credentials ?? undefined, deps.secrets) };
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

function newJob(accountId: string, profile: SimulationProfile, setupId: string, kind: 'trigger' | 'reprocess', studyId: string | null, credentials: Partial<SimulationConnection> | undefined, secrets: SecretBox): Job {
  return {
    id: randomUUID(),
    accountId,
    profileId: profile.id,
    setupId,
    kind,
    // Credentials given with the request are kept for its jobs only, sealed like a connection.
    sealedCredentials: credentials ? secrets.seal(credentials) : null,
    studyId,
    status: SIMULATION_STATUS.requested,
    sequence: 1,
    deadLettered: false,
    // The names `Requested` is written under: the job's last status goes under them should the profile be deleted.
    profileNames: profileNamesOf(profile),
  };
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
