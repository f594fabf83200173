import { setTimeout as sleep } from 'node:timers/promises';
import { SIMULATION_STATUS, simulationServiceCaller, type SimulationConnection } from '@pitwall/contracts';
import type { Egress } from '@pitwall/egress';
import type { Logger } from '@pitwall/service-kit';
import { profileOf, type EntityClient } from '../data-access/entity-client';
import { ExternalRefusal, ExternalSimulationClient, ExternalUnavailable } from '../data-access/external-simulation-client';
import type { Job, SimulationRepository } from '../data-access/simulation-repository';
import { bindingRefusal } from './credential-binding';
import { NOT_CONNECTED } from './request-simulations';
import type { SecretBox } from './secret-box';
import { JobSuperseded } from './setup-write-slots';
import type { StatusRecorder } from './status-recorder';

export interface WorkerSettings {
  pollIntervalMs: number;
  /** Calls to the external system per step before the job gives up (transient failures only). */
  retryAttempts: number;
  retryBaseDelayMs: number;
  httpTimeoutMs: number;
}

export interface RunDependencies {
  /** Every call to the external system goes through it (address policy, no redirects, bounded answers). */
  egress: Egress;
  entities: EntityClient;
  repository: SimulationRepository;
  recorder: StatusRecorder;
  secrets: SecretBox;
  settings: WorkerSettings;
  logger: Logger;
  /** Aborted when the service stops: a running job ends its delivery unacked and resumes after redelivery. */
  stopping: AbortSignal;
}

/** Thrown after a job gave up on the external system: the delivery is refused until the bus dead-letters it. */
export class JobDeadLettered extends Error {}

const TERMINAL: ReadonlySet<string> = new Set([SIMULATION_STATUS.completed, SIMULATION_STATUS.startFailed, SIMULATION_STATUS.failed]);
const pause = (ms: number, signal: AbortSignal) => sleep(ms, undefined, { signal });

/**
 * One job, from the queue: token, study created from the setup's parameters (a trigger; a reprocess reuses its study),
 * status polled until it ends, results written back. Each step is written to the setup and announced before the next
 * (StatusRecorder); a redelivered job resumes from its last recorded step. The message is acked when this resolves. A job
 * whose setup has a newer accepted run is superseded: it stops at once (before its next poll or step), writes nothing
 * more, and its study is left to end on the external system unread.
 */
export async function runSimulationJob(deps: RunDependencies, jobId: string): Promise<void> {
  try {
    await runJob(deps, jobId);
  } catch (err) {
    if (!(err instanceof JobSuperseded)) throw err;
    // A newer Trigger or Reprocess of the setup was accepted: this run stops polling and writes nothing more.
    deps.logger.info({ jobId }, err.message);
  }
}

async function runJob(deps: RunDependencies, jobId: string): Promise<void> {
  let job = await deps.repository.job(jobId);
  if (!job) return; // a message whose job was never committed (or is gone): nothing to do
  if (job.deadLettered) throw new JobDeadLettered(`Job ${job.id} gave up on the external system; its message goes to the dead-letter queue`);
  if (TERMINAL.has(job.status)) return; // a redelivery of a finished job
  const superseded = async (current: Job) => {
    if (!(await deps.repository.isLatest(current))) throw new JobSuperseded(current);
  };
  await superseded(job);
  const service = simulationServiceCaller(job.accountId);
  const profileEntity = await deps.entities.find(service, 'ExternalSimulationProfiles', job.profileId);
  const setup = await deps.entities.find(service, 'Setups', job.setupId);
  if (!profileEntity || !setup) {
    deps.logger.warn({ jobId: job.id }, 'the setup or the profile of a simulation job was deleted; the job ends');
    return;
  }
  const profile = profileOf(profileEntity);
  const record = async (status: string, message: string | null, extra: { results?: Record<string, unknown>; deadLettered?: boolean } = {}) => {
    job = await deps.recorder.record(job as Job, profile, { status, message, studyId: (job as Job).studyId, ...extra });
  };
  const credentials = await credentialsOf(deps, job);
  if (!credentials || !profile.baseUrl) {
    await record(SIMULATION_STATUS.startFailed, credentials ? 'The simulation profile configures no BaseUrl of the external simulation system' : NOT_CONNECTED);
    return;
  }
  // The profile may have been pointed elsewhere since the request: the account's credentials still go only to their origin.
  const binding = credentials.origin === undefined ? null : bindingRefusal(credentials.origin, profile.baseUrl);
  if (binding) {
    await record(job.studyId ? SIMULATION_STATUS.failed : SIMULATION_STATUS.startFailed, binding);
    return;
  }
  const external = new ExternalSimulationClient(deps.egress, profile.baseUrl, credentials.login, deps.settings.httpTimeoutMs);
  const attempt = <T>(what: string, call: () => Promise<T>) => withRetry(deps, job as Job, what, call);
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
    }
    const studyId = job.studyId as string;
    for (;;) {
      await superseded(job);
      const status = await attempt('read the study status', () => external.studyStatus(studyId));
      if (status.state === 'failed') {
        await record(SIMULATION_STATUS.failed, status.message ?? 'The external simulation failed');
        return;
      }
      if (status.state === 'completed') {
        const results = await attempt('fetch the results', () => external.results(studyId));
        await record(SIMULATION_STATUS.completed, null, { results });
        return;
      }
      if (status.state === 'running' && job.status !== SIMULATION_STATUS.running) await record(SIMULATION_STATUS.running, status.message);
      await pause(deps.settings.pollIntervalMs, deps.stopping);
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

/** The Idempotency-Key of a job's study request: derived from the job alone, so every delivery of the job sends the same. */
export function studyRequestKey(job: Pick<Job, 'id'>): string {
  return `pitwall-job-${job.id}`;
}

/** The job's login: the request's own credentials (bound to nothing), or the account's with the origin they are bound to. */
async function credentialsOf(deps: RunDependencies, job: Job): Promise<{ login: SimulationConnection; origin?: string | null } | null> {
  if (job.sealedCredentials) return { login: deps.secrets.open<SimulationConnection>(job.sealedCredentials) };
  const stored = await deps.repository.connection(job.accountId);
  return stored ? { login: deps.secrets.open<SimulationConnection>(stored.sealed), origin: stored.origin } : null;
}

/** A call to the external system, retried with exponential backoff while it fails transiently. */
async function withRetry<T>(deps: RunDependencies, job: Job, what: string, call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof ExternalUnavailable) || attempt >= deps.settings.retryAttempts) throw err;
      const delay = deps.settings.retryBaseDelayMs * 2 ** (attempt - 1);
      deps.logger.warn({ jobId: job.id, attempt, delay, reason: err.message }, `the external system failed to ${what}; retrying`);
      await pause(delay, deps.stopping);
    }
  }
}
