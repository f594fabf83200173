import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { InProcessBus } from '@pitwall/bus';
import { EXCHANGES, SERVICES, SUBSCRIPTION_QUEUES } from '@pitwall/contracts';
import { Egress, EgressConfig, egressSettings } from '@pitwall/egress';
import { createInbox, createOutbox } from '@pitwall/messaging';
import { defineService } from '@pitwall/service-host';
import { intVar, msVar } from '@pitwall/service-kit';
import { CallbackRepository, DEFAULT_CALLBACK_BATCH_ROWS } from './data-access/callback-repository';
import { EntityClient } from './data-access/entity-client';
import { DEFAULT_MAX_STUDY_ID_CHARS } from './data-access/external-simulation-client';
import { SIMULATION_SCHEMA, simulationMigrations } from './data-access/migrations';
import { SealedValueRepository } from './data-access/sealed-value-repository';
import { SimulationRepository } from './data-access/simulation-repository';
import { CallbackDispatcher, DEFAULT_CALLBACK_IN_FLIGHT } from './domain/callback-dispatcher';
import { JOB_ROUTING_PREFIX, type JobMessage } from './domain/request-simulations';
import { runSimulationJob } from './domain/run-simulation-job';
import { AccountShares, DEFAULT_JOB_REPUBLISH_MS, DEFAULT_WORKERS } from './domain/account-shares';
import { DEFAULT_MAX_SIMULATION_CALLBACKS } from './domain/callbacks';
import { DEFAULT_JOB_RETENTION_DAYS, JobRetention, MAX_JOB_RETENTION_DAYS } from './domain/job-retention';
import { parseSecretKey, previousSecretKeys, SECRET_KEY_FORM, SecretBox, secretKey } from './domain/secret-box';
import { SecretRotation } from './domain/secret-rotation';
import { PendingRequestSweep } from './domain/pending-requests';
import { SetupWriteSlots } from './domain/setup-write-slots';
import { SimulationWrites } from './domain/simulation-writes';
import { StatusRecorder } from './domain/status-recorder';
import { simulationCommands } from './entry-points/bus/simulation-commands';

/** Jobs one instance runs at once (the job queue's prefetch, and AccountShares' own count); more instances compete for the same queue. */
export const SIMULATION_WORKERS = DEFAULT_WORKERS;
/** SIMULATION_MAX_JOBS_PER_ACCOUNT's default: half of an instance's workers, so one account never holds them all. */
export const DEFAULT_MAX_JOBS_PER_ACCOUNT = SIMULATION_WORKERS / 2;
/** A key as parseSecretKey takes it, refused with what is wrong with it (`prefix`: which key of a list), never echoed (it is a secret). */
function configuredKey(value: string, ctx: z.RefinementCtx, prefix: string, must: string): Buffer | null {
  const parsed = parseSecretKey(value);
  if ('key' in parsed) return parsed.key;
  ctx.addIssue({ code: 'custom', message: `${prefix}${parsed.problem}: ${must} be ${SECRET_KEY_FORM}` });
  return null;
}
const SecretKey = z
  .string()
  .optional()
  .transform((value, ctx) => (value === undefined ? undefined : (configuredKey(value, ctx, '', 'it must') ?? z.NEVER)));
/** A comma-separated list of such keys, each refused as SIMULATION_SECRET_KEY is, naming its place in the list. */
const PreviousSecretKeys = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const keys = (value ?? '').split(',').map((k) => k.trim()).filter(Boolean);
    return keys.flatMap((key, index) => configuredKey(key, ctx, `key ${index + 1} of ${keys.length} `, 'each must') ?? []);
  });

const SimulationServiceConfig = z.object({
  /**
   * AES-256-GCM key that seals the accounts' connections to the external system: 32 bytes in base64 (standard or
   * URL-safe, padded or not); never logged.
   */
  SIMULATION_SECRET_KEY: SecretKey,
  /**
   * Without SIMULATION_SECRET_KEY: the file a key is generated into once and read from afterwards (default
   * `DATA_DIR/simulation-secret-key`). Every instance must read the same key: replicas need SIMULATION_SECRET_KEY.
   */
  SIMULATION_SECRET_KEY_FILE: z.string().min(1).optional(),
  /**
   * Keys values may still be sealed under (comma-separated, each like SIMULATION_SECRET_KEY; default none): they open
   * values, never seal them, and while they are set every instance re-seals the values still under them with the
   * current key (at its start, then every 10 minutes). One equal to the current key is refused.
   */
  SIMULATION_SECRET_KEY_PREVIOUS: PreviousSecretKeys,
  /** The app's writable data directory (the key file's default place). */
  DATA_DIR: z.string().min(1).default('./data'),
  /** Pause between two status reads of a running study. */
  SIMULATION_POLL_INTERVAL_MS: msVar(1000),
  /** Calls to the external system per step while it fails transiently, before the job fails and is dead-lettered. */
  SIMULATION_RETRY_ATTEMPTS: intVar(5),
  /** First backoff between two such calls; it doubles each time. */
  SIMULATION_RETRY_BASE_DELAY_MS: msVar(500),
  /** Time limit of one call to the external system. */
  SIMULATION_HTTP_TIMEOUT_MS: msVar(15000),
  /**
   * How long after a worker first ran it a job waits for its study to end (studies that stay queued or running past it
   * end `Simulation failed`, naming this variable); 24 h by default. 0 is refused (every job would fail at its first poll).
   */
  SIMULATION_MAX_RUN_MS: msVar(24 * 60 * 60 * 1000),
  /** Jobs of one account running at once, all instances together; the others wait without holding a worker. */
  SIMULATION_MAX_JOBS_PER_ACCOUNT: intVar(DEFAULT_MAX_JOBS_PER_ACCOUNT),
  /**
   * How long the message of a job published for its account's share may wait for a worker before it is presumed lost
   * and published again (then after as long again as it has waited, up to an hour between two); meanwhile the job holds
   * its account's place however busy the workers are. At least 1 s.
   */
  SIMULATION_JOB_REPUBLISH_MS: msVar(DEFAULT_JOB_REPUBLISH_MS, { min: 1000 }),
  /**
   * Finished jobs (at a last status, dead-lettered or superseded) last changed more than this many days ago are deleted
   * in the background, hourly on every instance; 0 keeps them for ever. A job queued or running is never deleted.
   */
  SIMULATION_JOB_RETENTION_DAYS: intVar(DEFAULT_JOB_RETENTION_DAYS, { min: 0, max: MAX_JOB_RETENTION_DAYS }),
  /** The longest study id a job takes from the external system or a Reprocess's setup parameter (sent, stored, announced). */
  SIMULATION_MAX_STUDY_ID_CHARS: intVar(DEFAULT_MAX_STUDY_ID_CHARS),
  /** Attempts to deliver one status change to a callback before it is given up and recorded as failed. */
  SIMULATION_CALLBACK_ATTEMPTS: intVar(8),
  /** Wait before a callback's second attempt; it doubles after each failure (up to an hour). */
  SIMULATION_CALLBACK_BASE_DELAY_MS: msVar(10000),
  /** Time limit of one POST to a callback. */
  SIMULATION_CALLBACK_TIMEOUT_MS: msVar(10000),
  /** How often each instance looks for due callback deliveries (besides right after each status change). */
  SIMULATION_CALLBACK_POLL_MS: msVar(1000),
  /** Callback deliveries each instance sends at once (a slot is refilled as each attempt ends). */
  SIMULATION_CALLBACK_IN_FLIGHT: intVar(DEFAULT_CALLBACK_IN_FLIGHT.total),
  /** Of them, at most this many of one account: its backlog or slow receivers never hold another account's deliveries. */
  SIMULATION_CALLBACK_IN_FLIGHT_PER_ACCOUNT: intVar(DEFAULT_CALLBACK_IN_FLIGHT.perAccount),
  /** And at most this many of one callback: a slow receiver never holds the account's other callbacks. */
  SIMULATION_CALLBACK_IN_FLIGHT_PER_CALLBACK: intVar(DEFAULT_CALLBACK_IN_FLIGHT.perCallback),
  /**
   * Callback delivery rows one statement writes (status events recorded with their step, written afterwards as one
   * delivery per callback) or removes (the hourly sweep of ended ones, a deleted callback's) at most, each statement its
   * own transaction: other work goes between them.
   */
  SIMULATION_CALLBACK_BATCH_ROWS: intVar(DEFAULT_CALLBACK_BATCH_ROWS),
  /** Callbacks one account may hold; another registration is a 409 (each status step becomes one delivery, a POST, per callback). */
  MAX_SIMULATION_CALLBACKS: intVar(DEFAULT_MAX_SIMULATION_CALLBACKS),
  /**
   * How long a request or a job may hold a setup's status write slot before another may take it (the holder died):
   * keep it above BUS_TIMEOUT_MS and the time a Trigger of the most setups takes to write their Requested. A worker
   * run holds it no longer than its lease on the job (20 s), so a run killed -9 mid-step frees it with that lease.
   */
  SIMULATION_SETUP_WRITE_LEASE_MS: msVar(120000),
  /**
   * Test-only: a worker's lease on its job (renewed every third of it; a worker killed -9 frees its place after it), so
   * a test can let many leases pass; 0 (the default, in every real deployment) is RUN_LEASE_MS (20 s).
   */
  TEST_RUN_LEASE_MS: msVar(0, { min: 0 }),
  /**
   * Test-only: holds every wake of the waiting jobs this many ms before it looks for them, so a kill -9 test can kill the
   * service with a Trigger's jobs committed waiting, before their first wake, with certainty. 0 in every deployment.
   */
  TEST_HOLD_WAKES_MS: msVar(0, { min: 0 }),
  // Where calls to simulation systems and callbacks may go, and how much of an answer is read (libs/egress).
  ...EgressConfig.shape,
});

export const SIMULATION_JOBS_QUEUE = SUBSCRIPTION_QUEUES.simulationJobs;

/**
 * External simulations: validates and queues Trigger and Reprocess requests, runs the jobs against the external
 * system, writes each status step to the setup through the entity store and announces it on `simulation.status` and
 * to the account's HTTP callbacks (signed per Standard Webhooks, retried with backoff).
 */
/** Where the generated connection key is kept without SIMULATION_SECRET_KEY. */
export function secretKeyFile(config: { SIMULATION_SECRET_KEY_FILE?: string; DATA_DIR: string }): string {
  return config.SIMULATION_SECRET_KEY_FILE ?? join(config.DATA_DIR, 'simulation-secret-key');
}

export const simulationService = defineService({
  name: 'simulation-service',
  config: SimulationServiceConfig,
  database: { schema: SIMULATION_SCHEMA, migrations: simulationMigrations },
  build: async ({ bus, pool, logger, config }) => {
    if (!pool) throw new Error('simulation-service needs its database');
    // Job messages and status events leave through one outbox, with their write: job keys go to the jobs exchange.
    const outbox = createOutbox({
      pool,
      schema: SIMULATION_SCHEMA,
      publish: (routingKey, payload, headers) => bus.publish(routingKey.startsWith(JOB_ROUTING_PREFIX) ? EXCHANGES.simulationJobs : EXCHANGES.simulationStatus, routingKey, payload, headers),
      logger,
      maxMessageBytes: config.BUS_MAX_MESSAGE_BYTES,
    });
    const entities = new EntityClient(bus);
    const repository = new SimulationRepository(pool);
    const callbacks = new CallbackRepository(pool);
    // Old keys only beside a current key every instance shares: one generated here (no SIMULATION_SECRET_KEY, no key
    // file yet: a typo, a container without its volume) would have the sweep re-seal every value under a key no other
    // instance has, and a container's lost with it.
    if (config.SIMULATION_SECRET_KEY_PREVIOUS.length > 0 && !config.SIMULATION_SECRET_KEY && !existsSync(secretKeyFile(config))) {
      throw new Error(
        `Invalid configuration:\n  SIMULATION_SECRET_KEY_PREVIOUS: set without a current key: SIMULATION_SECRET_KEY is not set and its key file ${secretKeyFile(config)} (SIMULATION_SECRET_KEY_FILE) does not exist, so a new key would be generated and every value re-sealed under it. Set SIMULATION_SECRET_KEY, the same on every instance`,
      );
    }
    const currentKey = secretKey(config.SIMULATION_SECRET_KEY, secretKeyFile(config));
    const secrets = new SecretBox(currentKey, previousSecretKeys(currentKey, config.SIMULATION_SECRET_KEY_PREVIOUS));
    const inbox = createInbox({ pool, schema: SIMULATION_SCHEMA, logger });
    const writes = new SimulationWrites(pool, outbox, inbox);
    const egress = new Egress(egressSettings(config));
    const dispatcher = new CallbackDispatcher(
      egress,
      callbacks,
      secrets,
      {
        attempts: Math.max(1, config.SIMULATION_CALLBACK_ATTEMPTS),
        baseDelayMs: config.SIMULATION_CALLBACK_BASE_DELAY_MS,
        maxDelayMs: 60 * 60 * 1000,
        timeoutMs: config.SIMULATION_CALLBACK_TIMEOUT_MS,
        pollIntervalMs: Math.max(10, config.SIMULATION_CALLBACK_POLL_MS),
        inFlight: Math.max(1, config.SIMULATION_CALLBACK_IN_FLIGHT),
        inFlightPerAccount: Math.max(1, config.SIMULATION_CALLBACK_IN_FLIGHT_PER_ACCOUNT),
        inFlightPerCallback: Math.max(1, config.SIMULATION_CALLBACK_IN_FLIGHT_PER_CALLBACK),
        batchRows: config.SIMULATION_CALLBACK_BATCH_ROWS,
      },
      logger,
    );
    const announcer = { callbacks, committed: () => dispatcher.wake() };
    const stopping = new AbortController();
    const writeLeaseMs = Math.max(1000, config.SIMULATION_SETUP_WRITE_LEASE_MS);
    const slots = new SetupWriteSlots(repository, { leaseMs: writeLeaseMs, retryMs: 20 }, logger);
    // Before the bus serves any request: what a restart frees was taken before it (freeRuns).
    const restart = { at: await repository.databaseNow() };
    const recorder = new StatusRecorder(entities, repository, outbox, announcer, slots, stopping.signal);
    const settings = {
      pollIntervalMs: config.SIMULATION_POLL_INTERVAL_MS,
      retryAttempts: Math.max(1, config.SIMULATION_RETRY_ATTEMPTS),
      retryBaseDelayMs: config.SIMULATION_RETRY_BASE_DELAY_MS,
      httpTimeoutMs: config.SIMULATION_HTTP_TIMEOUT_MS,
      maxStudyIdChars: Math.max(1, config.SIMULATION_MAX_STUDY_ID_CHARS),
      maxRunMs: config.SIMULATION_MAX_RUN_MS,
    };
    const shares = new AccountShares(
      repository,
      outbox,
      {
        maxJobsPerAccount: Math.max(1, config.SIMULATION_MAX_JOBS_PER_ACCOUNT),
        wakeIntervalMs: Math.max(1000, config.SIMULATION_POLL_INTERVAL_MS),
        republishMs: config.SIMULATION_JOB_REPUBLISH_MS,
        // A woken job's message lost from the queue is found by the broker's count, not only after republishMs.
        jobQueue: { queuedMessages: () => bus.queuedMessages(SIMULATION_JOBS_QUEUE) },
        ...(config.TEST_RUN_LEASE_MS > 0 ? { leaseMs: config.TEST_RUN_LEASE_MS } : {}),
        ...(config.TEST_HOLD_WAKES_MS > 0 ? { holdWakesMs: config.TEST_HOLD_WAKES_MS } : {}),
      },
      logger,
    );
    // Triggers and Reprocesses cut off between recording their work and committing their jobs: finished by any instance.
    const pendingRequests = new PendingRequestSweep({ entities, repository, writes, announcer, shares }, { leaseMs: writeLeaseMs, intervalMs: Math.max(1000, config.SIMULATION_POLL_INTERVAL_MS) }, logger);
    const retention = new JobRetention(repository, { days: config.SIMULATION_JOB_RETENTION_DAYS }, logger);
    // Beside the work, never awaited: values still sealed under SIMULATION_SECRET_KEY_PREVIOUS re-sealed in batches.
    const rotation = new SecretRotation(new SealedValueRepository(pool), secrets, {}, logger);
    outbox.start();
    inbox.start();
    dispatcher.start();
    retention.start();
    rotation.start();
    return {
      egress,
      entities,
      repository,
      callbacks,
      secrets,
      writes,
      maxCallbacks: config.MAX_SIMULATION_CALLBACKS,
      callbackDeleted: () => dispatcher.deleted(),
      announcer,
      slots,
      restart,
      outbox,
      recorder,
      shares,
      pendingRequests,
      settings,
      stopping: stopping.signal,
      drain: () => stopping.abort(),
      rotation,
      stop: async () => {
        await rotation.stop();
        await retention.stop();
        await dispatcher.stop();
        await pendingRequests.stop();
        await shares.stop();
        await inbox.stop();
        await outbox.stop();
        await egress.close();
      },
    };
  },
  bus: { service: SERVICES.simulation, commands: (parts) => simulationCommands(parts) },
  subscriptions: [
    {
      exchange: EXCHANGES.simulationJobs,
      queue: SIMULATION_JOBS_QUEUE,
      bindingKeys: [`${JOB_ROUTING_PREFIX}#`],
      prefetch: SIMULATION_WORKERS,
      handler: (parts, { logger }) => async (event) => runSimulationJob({ ...parts, logger }, (event.payload as JobMessage).jobId, event.signal),
    },
  ],
  // An in-process bus (npm start) keeps its queues in the process's memory: the jobs queued or running when the
  // process stopped or was killed went with it. Their rows say they are unfinished; their messages go out again, the
  // dead process's worker leases and the setup write slots its runs and requests held freed (and the woken jobs, whose
  // messages died too, wait for them afresh). No job is
  // admitted before it ends (admissions wait for the shares' start), so no run of this process loses its lease to it;
  // waiting jobs are woken only after, so no job is published by both.
  started: async ({ repository, outbox, shares, pendingRequests, restart }, { shared, logger }) => {
    if (shared.bus instanceof InProcessBus) {
      const unfinished = await outbox.transaction(async (client, add) => {
        await repository.freeRuns(client, shares.republishMs, restart);
        const jobs = await repository.unfinishedJobs(JOB_ROUTING_PREFIX, client);
        await add(jobs.map((job) => ({ routingKey: `${JOB_ROUTING_PREFIX}${job.accountId}`, payload: { jobId: job.id } satisfies JobMessage })));
        return jobs.length;
      });
      if (unfinished) logger.info({ jobs: unfinished }, 'unfinished simulation jobs queued again (the in-process bus lost them with the process)');
    }
    shares.start();
    pendingRequests.start();
  },
});
