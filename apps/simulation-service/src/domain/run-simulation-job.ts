import { setTimeout as sleep } from 'node:timers/promises';
import { SIMULATION_FINAL_STATUSES, SIMULATION_STATUS, simulationServiceCaller, type SimulationConnection } from '@pitwall/contracts';
import type { Egress } from '@pitwall/egress';
import { DEFAULT_MAX_DELIVERIES } from '@pitwall/bus';
import { isUnavailable } from '@pitwall/service-host';
import { TIMER_MAX_MS, type Logger } from '@pitwall/service-kit';
import { profileFromNames, profileOf, type EntityClient, type SimulationProfile } from '../data-access/entity-client';
import { baseUrlRefusal, ExternalRefusal, ExternalSimulationClient, ExternalUnavailable, systemText } from '../data-access/external-simulation-client';
import type { Job, SimulationRepository } from '../data-access/simulation-repository';
import { DeliveryLost, RunTakenOver, type AccountShares, type RunSlot } from './account-shares';
import { bindingRefusal } from './credential-binding';
import { NOT_CONNECTED } from './request-simulations';
import { SealedUnderAnotherKey, type SecretBox } from './secret-box';
import { JobSuperseded } from './setup-write-slots';
import type { StatusRecorder } from './status-recorder';

export interface WorkerSettings {
  pollIntervalMs: number;
  /** Calls to the external system per step before the job gives up (transient failures only). */
  retryAttempts: number;
  retryBaseDelayMs: number;
  httpTimeoutMs: number;
  /** SIMULATION_MAX_STUDY_ID_CHARS: the longest study id a job keeps, sends and announces. */
  maxStudyIdChars: number;
  /** SIMULATION_MAX_RUN_MS: how long after a worker first ran it a job stops waiting for its study and ends failed. */
  maxRunMs: number;
}

export interface RunDependencies {
  /** Every call to the external system goes through it (address policy, no redirects, bounded answers). */
  egress: Egress;
  entities: EntityClient;
  repository: SimulationRepository;
  recorder: StatusRecorder;
  /** The account's share of the workers: a job runs only once admitted. */
  shares: AccountShares;
  secrets: SecretBox;
  settings: WorkerSettings;
  logger: Logger;
  /** Aborted when the service stops: a running job ends its delivery unacked and resumes after redelivery. */
  stopping: AbortSignal;
}

/** Thrown after a job gave up on the external system: the delivery is refused until the bus dead-letters it. */
export class JobDeadLettered extends Error {}

/** A delivery that reached a stopping instance: requeued as it is, not run. */
class ServiceStopping extends Error {}

const TERMINAL: ReadonlySet<string> = new Set(SIMULATION_FINAL_STATUSES);

/**
 * Deliveries of one job that may end in an unexpected error (a bug, an answer nothing else caught) before the job ends
 * `Simulation failed`: below the bus's delivery limit, so the job ends before its message is dead-lettered.
 */
export const UNEXPECTED_FAILURES_PER_JOB = Math.max(1, DEFAULT_MAX_DELIVERIES - 2);
/** Characters of the message naming the result parameters a completed study's results did not hold. */
const MISSING_RESULTS_CHARS = 1000;
const pause = (ms: number, signal: AbortSignal) => sleep(ms, undefined, { signal });
/** The delivery of a transport whose deliveries are never lost under a running handler (the in-process bus). */
const NEVER = new AbortController().signal;

/**
 * One job, from the queue: token, study created from the setup's parameters (a trigger; a reprocess reuses its study),
 * status polled until it ends, results written back. Each step is written to the setup and announced before the next
 * (StatusRecorder); a redelivered job resumes from its last recorded step. The message is acked when this resolves. A job
 * whose setup has a newer accepted run is superseded: it stops at once (before its next poll or step), writes nothing
 * more, and its study is left to end on the external system unread.
 */
export async function runSimulationJob(deps: RunDependencies, jobId: string, delivery: AbortSignal = NEVER): Promise<void> {
  try {
    await runAdmitted(deps, jobId, delivery);
  } catch (err) {
    if (err instanceof JobSuperseded || err instanceof RunTakenOver || err instanceof DeliveryLost) {
      // A newer Trigger or Reprocess of the setup was accepted, or another delivery of the job runs it now (or will:
      // this one's channel closed, and the broker gives the message again): this run stops polling and writes nothing more.
      deps.logger.info({ jobId }, err.message);
      return;
    }
    if (err instanceof JobDeadLettered || err instanceof ServiceStopping) throw err;
    // A stop: the job is handed back as a fresh message, so stops and deploys never use up its delivery limit.
    if (deps.stopping.aborted) return handBack(deps, jobId, err);
    // Ours and passing (the database, the bus, the entity-service away): the delivery is kept or redelivered.
    if (isUnavailable(err)) throw err;
    await endAfterUnexpectedFailures(deps, jobId, err);
  }
}

/**
 * A job a stopping instance was running, published afresh (through the outbox) and its delivery acked: a requeued
 * delivery would count against the queue's delivery limit (x-delivery-limit), so a long job interrupted by a few
 * deploys would be dead-lettered unfinished after fewer unexpected failures than UNEXPECTED_FAILURES_PER_JOB. When the
 * message cannot be written (the database away), the delivery is requeued as before.
 */
async function handBack(deps: RunDependencies, jobId: string, err: unknown): Promise<void> {
  try {
    const job = await deps.repository.job(jobId);
    if (!job || TERMINAL.has(job.status)) return;
    await deps.shares.requeue(job);
  } catch {
    throw err;
  }
  deps.logger.info({ jobId }, 'the service stops: the running simulation job is published again, to resume from its last recorded step');
}

/** The job, once its account's share of the workers admits it; a job of an account at its share waits (acked, marked). */
async function runAdmitted(deps: RunDependencies, jobId: string, delivery: AbortSignal): Promise<void> {
  // Delivered to an instance that is stopping (before its consumer is cancelled): requeued, not run.
  if (deps.stopping.aborted) throw new ServiceStopping('The simulation-service is stopping; the job is requeued');
  // Its arrival recorded first: a woken job whose delivery is held before its admission is never taken for lost.
  const job = await deps.repository.receive(jobId);
  if (!job) return; // a message whose job was never committed (or is gone): nothing to do
  if (job.deadLettered) throw new JobDeadLettered(`Job ${job.id} gave up on the external system; its message goes to the dead-letter queue`);
  if (TERMINAL.has(job.status)) return; // a redelivery of a finished job
  if (!(await deps.repository.isLatest(job))) throw new JobSuperseded(job);
  // A delivery waits for a worker of this instance until it is lost, or until the service stops (then handed back).
  const slot = await deps.shares.admit(job, AbortSignal.any([deps.stopping, delivery])).catch((err: unknown) => {
    throw delivery.aborted ? new DeliveryLost(job) : err;
  });
  if (slot === 'wait') {
    deps.logger.info({ jobId: job.id, accountId: job.accountId }, 'the account runs as many simulation jobs as its share allows (SIMULATION_MAX_JOBS_PER_ACCOUNT); the job waits');
    return;
  }
  if (slot === 'busy') {
    // A second delivery of a running job (published twice, or redelivered while its first run goes on): acked unrun.
    deps.logger.info({ jobId: job.id }, 'another delivery runs the simulation job; this one is acked (the job is published again should that run die)');
    return;
  }
  try {
    // Read again once admitted: the steps a run that lost its lease recorded before are where this one goes on from.
    const admitted = (await deps.repository.job(job.id)) ?? job;
    if (TERMINAL.has(admitted.status)) return;
    await runJob(deps, admitted, Date.now() + deps.settings.maxRunMs - slot.elapsedMs, slot, delivery);
  } catch (err) {
    // Stopped because another delivery took the lease over (its wait aborted, its claim refused): that one goes on.
    if (slot.lost.aborted && !(err instanceof JobDeadLettered)) throw new RunTakenOver(job);
    // Stopped because this delivery's channel closed: its message is redelivered, and that copy resumes the job once
    // this run's slot is free (a copy that came meanwhile waits, marked, and is woken by the slot's end).
    if (delivery.aborted && !(err instanceof JobDeadLettered)) throw new DeliveryLost(job);
    throw err;
  } finally {
    await slot.end();
  }
}

/**
 * The last line of defence: a job whose deliveries keep failing with an unexpected error ends `Simulation failed`
 * (recorded, so no restart queues it again) instead of being redelivered until its message is dead-lettered with the
 * job left unfinished. Before that, the error is thrown and the delivery retried.
 */
async function endAfterUnexpectedFailures(deps: RunDependencies, jobId: string, err: unknown): Promise<void> {
  const failures = await deps.repository.countFailure(jobId);
  deps.logger.error({ err, jobId, failures }, 'a simulation job failed with an unexpected error');
  if (failures < UNEXPECTED_FAILURES_PER_JOB) throw err;
  const job = await deps.repository.job(jobId);
  if (!job || TERMINAL.has(job.status)) return;
  const step = {
    status: SIMULATION_STATUS.failed,
    message: `The simulation job failed ${failures} times with an unexpected error and was ended (job ${job.id} in the simulation-service's log)`,
    studyId: job.studyId,
  };
  try {
    const profileEntity = await deps.entities.find(simulationServiceCaller(job.accountId), 'ExternalSimulationProfiles', job.profileId);
    // A deleted profile's names, as the request wrote `Requested` under them (a job older than them has none).
    const profile = profileEntity ? profileOf(profileEntity) : keptProfile(job);
    if (profile) {
      await deps.recorder.record(job, profile, step);
      return;
    }
  } catch (recordErr) {
    if (recordErr instanceof JobSuperseded) return;
    if (deps.stopping.aborted || isUnavailable(recordErr)) throw recordErr;
    deps.logger.error({ err: recordErr, jobId }, "the last status of a failing simulation job could not be written to its setup; it is recorded on the job and announced");
  }
  await deps.recorder.abandon(job, step);
}

async function runJob(deps: RunDependencies, admitted: Job, runUntil: number, slot: RunSlot, delivery: AbortSignal): Promise<void> {
  let job = admitted;
  // The run stops waiting when the service stops, when another delivery took the job over, or when its own was lost.
  const run = { runner: slot.runner, signal: AbortSignal.any([deps.stopping, slot.lost, delivery]) };
  const superseded = async (current: Job) => {
    if (!(await deps.repository.isLatest(current))) throw new JobSuperseded(current);
  };
  const service = simulationServiceCaller(job.accountId);
  const profileEntity = await deps.entities.find(service, 'ExternalSimulationProfiles', job.profileId);
  const setup = await deps.entities.find(service, 'Setups', job.setupId);
  if (!setup) {
    // Nothing to write the status to: the job ends on its row and its events.
    deps.logger.warn({ jobId: job.id }, 'the setup of a simulation job was deleted; the job ends');
    await deps.recorder.abandon(job, { status: SIMULATION_STATUS.failed, message: 'The setup was deleted while the simulation ran', studyId: job.studyId }, slot.runner);
    return;
  }
  if (!profileEntity) {
    // The job ends failed on its setup, under the names its request wrote `Requested` under (taking the setup's write
    // slot like any step: a newer run of the setup supersedes it). A job kept without them (queued before they were
    // kept) has no names to write under: it ends on its row and its events only.
    deps.logger.warn({ jobId: job.id, profileId: job.profileId }, 'the simulation profile of a simulation job was deleted; the job ends');
    const failed = { status: SIMULATION_STATUS.failed, message: `The simulation profile ${job.profileId} was deleted while the simulation ran`, studyId: job.studyId };
    const kept = keptProfile(job);
    if (kept) await deps.recorder.record(job, kept, failed, run);
    else await deps.recorder.abandon(job, failed, slot.runner);
    return;
  }
  const profile = profileOf(profileEntity);
  const record = async (status: string, message: string | null, extra: { results?: Record<string, unknown>; deadLettered?: boolean } = {}) => {
    job = await deps.recorder.record(job as Job, profile, { status, message, studyId: (job as Job).studyId, ...extra }, run);
  };
  const credentials = await credentialsOf(deps, job);
  if (typeof credentials === 'string') {
    await record(job.studyId ? SIMULATION_STATUS.failed : SIMULATION_STATUS.startFailed, credentials);
    return;
  }
  if (!credentials || !profile.baseUrl) {
    await record(SIMULATION_STATUS.startFailed, credentials ? 'The simulation profile configures no BaseUrl of the external simulation system' : NOT_CONNECTED);
    return;
  }
  // The profile may have been changed since the request: a BaseUrl that is no http(s) URL is never called.
  const badBaseUrl = baseUrlRefusal(profile.baseUrl);
  if (badBaseUrl) {
    await record(job.studyId ? SIMULATION_STATUS.failed : SIMULATION_STATUS.startFailed, badBaseUrl);
    return;
  }
  // The profile may have been pointed elsewhere since the request: the account's credentials still go only to their origin.
  const binding = credentials.origin === undefined ? null : bindingRefusal(credentials.origin, profile.baseUrl);
  if (binding) {
    await record(job.studyId ? SIMULATION_STATUS.failed : SIMULATION_STATUS.startFailed, binding);
    return;
  }
  const external = new ExternalSimulationClient(deps.egress, profile.baseUrl, credentials.login, deps.settings.httpTimeoutMs, deps.settings.maxStudyIdChars);
  const attempt = <T>(what: string, call: () => Promise<T>) => withRetry(deps, job as Job, what, call, run.signal);
  try {
    if (job.kind === 'trigger' && !job.studyId) {
      let studyId: string;
      try {
        // The job's own key: a job redelivered after the service died between this create and the record below
        // repeats the create with the same key and is answered the study it created (one study per job).
        studyId = await attempt('create the study', () => external.createStudy(String(setup.Parameters['Name'] ?? setup.Id), setup.Parameters, studyRequestKey(job as Job)));
      } catch (err) {
        if (!(err instanceof ExternalRefusal)) throw err;
        await record(SIMULATION_STATUS.startFailed, err.message);
        return;
      }
      job = { ...job, studyId };
      await record(SIMULATION_STATUS.started, null);
      if (TERMINAL.has(job.status)) return; // the setup refused the step: the run ended failed
    }
    const studyId = job.studyId as string;
    for (;;) {
      run.signal.throwIfAborted();
      await superseded(job);
      if (Date.now() > runUntil) {
        await record(SIMULATION_STATUS.failed, `The study did not end within ${deps.settings.maxRunMs} ms of the job's start (SIMULATION_MAX_RUN_MS); it is no longer followed`);
        return;
      }
      const status = await attempt('read the study status', () => external.studyStatus(studyId));
      if (status.state === 'failed') {
        await record(SIMULATION_STATUS.failed, status.message ?? 'The external simulation failed');
        return;
      }
      if (status.state === 'completed') {
        const fetched = await attempt('fetch the results', () => external.results(studyId, profile.resultParameters));
        // A name the study's results do not hold is named, so a reader knows the setup holds no value of this run for
        // it, and not written (a Trigger's Requested emptied it already; writing it empty would have the store refuse
        // the whole step when the profile names a parameter Setups do not have).
        const missing = [...new Set(profile.resultParameters.filter((name) => !Object.hasOwn(fetched, name)))];
        const results = Object.fromEntries(profile.resultParameters.filter((name) => Object.hasOwn(fetched, name)).map((name) => [name, fetched[name]]));
        await record(SIMULATION_STATUS.completed, missing.length ? systemText(`The results held no ${missing.join(', ')}`, MISSING_RESULTS_CHARS) : null, { results });
        return;
      }
      if (status.state === 'running' && job.status !== SIMULATION_STATUS.running) {
        await record(SIMULATION_STATUS.running, status.message);
        if (TERMINAL.has(job.status)) return; // the setup refused the step: the run ended failed
      }
      await pause(deps.settings.pollIntervalMs, run.signal);
    }
  } catch (err) {
    if (err instanceof ExternalRefusal) {
      await record(SIMULATION_STATUS.failed, err.message);
      return;
    }
    if (!(err instanceof ExternalUnavailable)) throw err; // ours (the bus, the database): the delivery is retried
    // The external system kept failing: a final failed status, then the message goes to the dead-letter queue.
    await record(SIMULATION_STATUS.failed, err.message, { deadLettered: true });
    throw new JobDeadLettered(`Job ${job.id} gave up after ${deps.settings.retryAttempts} attempts: ${err.message}`);
  }
}

/** A job's deleted profile as the setup parameter names its request wrote under (null: a job kept without them). */
function keptProfile(job: Job): SimulationProfile | null {
  return job.profileNames ? profileFromNames(job.profileId, job.profileNames) : null;
}

/** The Idempotency-Key of a job's study request: derived from the job alone, so every delivery of the job sends the same. */
export function studyRequestKey(job: Pick<Job, 'id'>): string {
  return `pitwall-job-${job.id}`;
}

// The job's last status when its credentials are sealed under no configured key, as the account sees it: what to do,
// never the service's settings (the log names the keys tried).
export const CONNECTION_UNOPENABLE = "The account's connection to the external simulation system can no longer be used: an admin must set it again (PUT /ExternalSimulations/Connection)";
export const REQUEST_CREDENTIALS_UNOPENABLE = 'The credentials given with the simulation request can no longer be used: send the request again';

/**
 * The job's login: the request's own credentials (bound to nothing), or the account's with the origin they are bound
 * to; the refusal to record when they are sealed under no configured key (logged with the keys tried).
 */
async function credentialsOf(deps: RunDependencies, job: Job): Promise<{ login: SimulationConnection; origin?: string | null } | string | null> {
  if (job.sealedCredentials) return opened(deps, job, job.sealedCredentials, "the request's credentials", REQUEST_CREDENTIALS_UNOPENABLE);
  const stored = await deps.repository.connection(job.accountId);
  if (!stored) return null;
  const login = opened(deps, job, stored.sealed, "the account's connection", CONNECTION_UNOPENABLE);
  return typeof login === 'string' ? login : { ...login, origin: stored.origin };
}

function opened(deps: RunDependencies, job: Job, sealed: Buffer, what: string, refusal: string): { login: SimulationConnection } | string {
  try {
    return { login: deps.secrets.open<SimulationConnection>(sealed) };
  } catch (err) {
    if (!(err instanceof SealedUnderAnotherKey)) throw err;
    deps.logger.warn({ jobId: job.id, accountId: job.accountId }, `the credentials of a simulation job (${what}) are ${err.message}; the job ends`);
    return refusal;
  }
}

/** A call to the external system, retried with exponential backoff while it fails transiently. */
async function withRetry<T>(deps: RunDependencies, job: Job, what: string, call: () => Promise<T>, signal: AbortSignal): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof ExternalUnavailable) || attempt >= deps.settings.retryAttempts) throw err;
      // Doubling, no longer than a timer keeps (past it the pause would end at once).
      const delay = Math.min(TIMER_MAX_MS, deps.settings.retryBaseDelayMs * 2 ** (attempt - 1));
      deps.logger.warn({ jobId: job.id, attempt, delay, reason: err.message }, `the external system failed to ${what}; retrying`);
      await pause(delay, signal);
    }
  }
}
