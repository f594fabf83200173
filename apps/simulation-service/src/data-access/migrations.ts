import type { Migration } from '@pitwall/db';
import { inboxMigration, outboxMigration } from '@pitwall/messaging';

export const SIMULATION_SCHEMA = 'simulation';

/**
 * The simulation schema: accounts' encrypted connections, the jobs, the outbox of status events and job messages, the
 * HTTP callbacks with their deliveries, the inbox of commands, and each setup's latest run.
 */
export const simulationMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'connections and jobs',
    sql: `
      CREATE TABLE simulation.connections (
        account_id uuid PRIMARY KEY,
        sealed bytea NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE simulation.jobs (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        profile_id uuid NOT NULL,
        setup_id uuid NOT NULL,
        kind text NOT NULL CHECK (kind IN ('trigger', 'reprocess')),
        sealed_credentials bytea,
        study_id text,
        state text NOT NULL,
        sequence integer NOT NULL DEFAULT 0,
        dead_lettered boolean NOT NULL DEFAULT false,
        message text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX jobs_setup ON simulation.jobs (account_id, setup_id, created_at);
    `,
  },
  outboxMigration({ schema: SIMULATION_SCHEMA, version: 2 }),
  {
    version: 3,
    name: 'callbacks and their deliveries',
    sql: `
      CREATE TABLE simulation.callbacks (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        url text NOT NULL,
        description text,
        sealed_secret bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX callbacks_account ON simulation.callbacks (account_id, created_at);
      CREATE TABLE simulation.callback_deliveries (
        id uuid PRIMARY KEY,
        callback_id uuid NOT NULL REFERENCES simulation.callbacks (id) ON DELETE CASCADE,
        webhook_id text NOT NULL,
        setup_id uuid NOT NULL,
        status text NOT NULL,
        body text NOT NULL,
        state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_attempt_at timestamptz,
        last_status_code integer,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX callback_deliveries_due ON simulation.callback_deliveries (next_attempt_at) WHERE state = 'pending';
      CREATE INDEX callback_deliveries_callback ON simulation.callback_deliveries (callback_id, state);
    `,
  },
  inboxMigration({ schema: SIMULATION_SCHEMA, version: 4 }),
  {
    version: 5,
    name: 'the latest run of each setup and its write slot',
    // job_id: the setup's latest accepted job, the only one that writes its status; writer: who is writing the setup's
    // status now (a job, or a request writing its job's Requested), until writer_until, so writes never interleave.
    sql: `
      CREATE TABLE simulation.setup_runs (
        account_id uuid NOT NULL,
        setup_id uuid NOT NULL,
        job_id uuid,
        writer uuid,
        writer_until timestamptz,
        PRIMARY KEY (account_id, setup_id)
      );
      INSERT INTO simulation.setup_runs (account_id, setup_id, job_id)
        SELECT DISTINCT ON (account_id, setup_id) account_id, setup_id, id FROM simulation.jobs ORDER BY account_id, setup_id, created_at DESC, id;
    `,
  },
  {
    version: 6,
    name: 'connections bound to an origin; callback URLs without credentials',
    // origin: the scheme://host:port the admin set the connection's credentials for; NULL (connections set before) sends
    // them nowhere until an admin sets the connection again. Callbacks registered before registrations refused
    // user:pass@ keep their URL without it: the list shows URLs as stored.
    sql: `
      ALTER TABLE simulation.connections ADD COLUMN origin text;
      UPDATE simulation.callbacks SET url = regexp_replace(url, '^([A-Za-z][A-Za-z0-9+.-]*://)[^/?#\\\\]*@', '\\1')
        WHERE url ~ '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#\\\\]*@';
    `,
  },
  {
    version: 7,
    name: "the request id of a job's Trigger or Reprocess",
    // Every status event of the job carries it; jobs accepted before have none.
    sql: `ALTER TABLE simulation.jobs ADD COLUMN request_id text;`,
  },
  {
    version: 8,
    name: "each callback's due deliveries in order",
    // A claim takes a few of each callback's due deliveries (fair across accounts and callbacks): one index probe each.
    sql: `CREATE INDEX callback_deliveries_callback_due ON simulation.callback_deliveries (callback_id, next_attempt_at, created_at) WHERE state = 'pending';`,
  },
  {
    version: 9,
    name: "jobs' runs: their start, their worker's lease, their account's share, their unexpected failures",
    // started_at: when a worker first ran the job (SIMULATION_MAX_RUN_MS counts from it); runner and runner_until: the
    // delivery running it and its lease (renewed while it runs; a dead worker's lapses), counted against the account's
    // SIMULATION_MAX_JOBS_PER_ACCOUNT; waiting: acked while its account was at its share, to be published again once
    // it is not; failures: deliveries that ended in an unexpected error (the job ends failed after a few).
    sql: `
      ALTER TABLE simulation.jobs ADD COLUMN started_at timestamptz;
      ALTER TABLE simulation.jobs ADD COLUMN runner uuid;
      ALTER TABLE simulation.jobs ADD COLUMN runner_until timestamptz;
      ALTER TABLE simulation.jobs ADD COLUMN waiting boolean NOT NULL DEFAULT false;
      ALTER TABLE simulation.jobs ADD COLUMN failures integer NOT NULL DEFAULT 0;
      CREATE INDEX jobs_running ON simulation.jobs (account_id) WHERE runner_until IS NOT NULL;
      CREATE INDEX jobs_waiting ON simulation.jobs (account_id, created_at) WHERE waiting;
    `,
  },
  {
    version: 10,
    name: "woken jobs hold their account's slot until a worker takes them",
    // woken_until: a waiting job published again holds the slot it was woken for until a delivery of it is admitted
    // (or this lapses): wakes and fresh deliveries meanwhile count it, instead of publishing or admitting another job
    // for the same slot, to be marked waiting again at once.
    sql: `
      ALTER TABLE simulation.jobs ADD COLUMN woken_until timestamptz;
      CREATE INDEX jobs_woken ON simulation.jobs (account_id) WHERE woken_until IS NOT NULL;
    `,
  },
  {
    version: 11,
    name: "each callback's deliveries counted as they change state; deleted callbacks purged in batches",
    // delivered, pending, failed: the callback's delivery rows by state, kept by a statement trigger in the statement
    // that inserts, updates or deletes them (so the list reads three columns, never the rows: 2.2 million rows took
    // it past 20 s). Each statement locks the callbacks it counts for in id order, so two never deadlock on them.
    // deleted_at: a deleted callback is hidden at once (listed, counted, delivered to no more) and its deliveries are
    // removed in batches afterwards, then its row (a cascade over 100,000 rows held the DELETE for seconds).
    // callback_deliveries_failures: a callback's latest failures by an index walk of 20 rows; callback_deliveries_ended:
    // the sweep of ended deliveries in batches, oldest first, without reading the pending ones.
    sql: `
      ALTER TABLE simulation.callbacks
        ADD COLUMN delivered bigint NOT NULL DEFAULT 0,
        ADD COLUMN pending bigint NOT NULL DEFAULT 0,
        ADD COLUMN failed bigint NOT NULL DEFAULT 0,
        ADD COLUMN deleted_at timestamptz;
      UPDATE simulation.callbacks c SET delivered = n.delivered, pending = n.pending, failed = n.failed
        FROM (SELECT callback_id, count(*) FILTER (WHERE state = 'delivered') AS delivered, count(*) FILTER (WHERE state = 'pending') AS pending,
                     count(*) FILTER (WHERE state = 'failed') AS failed
                FROM simulation.callback_deliveries GROUP BY callback_id) n
       WHERE c.id = n.callback_id;
      CREATE INDEX callbacks_deleted ON simulation.callbacks (deleted_at) WHERE deleted_at IS NOT NULL;
      CREATE INDEX callback_deliveries_failures ON simulation.callback_deliveries (callback_id, last_attempt_at DESC) WHERE last_error IS NOT NULL AND state <> 'delivered';
      CREATE INDEX callback_deliveries_ended ON simulation.callback_deliveries (last_attempt_at) WHERE state <> 'pending';
      CREATE FUNCTION simulation.count_callback_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        moved record;
      BEGIN
        IF TG_OP = 'INSERT' THEN
          FOR moved IN
            SELECT callback_id, count(*) FILTER (WHERE state = 'delivered') AS delivered, count(*) FILTER (WHERE state = 'pending') AS pending,
                   count(*) FILTER (WHERE state = 'failed') AS failed
              FROM new_rows GROUP BY callback_id ORDER BY callback_id
          LOOP
            UPDATE simulation.callbacks SET delivered = delivered + moved.delivered, pending = pending + moved.pending, failed = failed + moved.failed WHERE id = moved.callback_id;
          END LOOP;
        ELSIF TG_OP = 'DELETE' THEN
          FOR moved IN
            SELECT callback_id, count(*) FILTER (WHERE state = 'delivered') AS delivered, count(*) FILTER (WHERE state = 'pending') AS pending,
                   count(*) FILTER (WHERE state = 'failed') AS failed
              FROM old_rows GROUP BY callback_id ORDER BY callback_id
          LOOP
            UPDATE simulation.callbacks SET delivered = delivered - moved.delivered, pending = pending - moved.pending, failed = failed - moved.failed WHERE id = moved.callback_id;
          END LOOP;
        ELSE
          -- Only rows whose state changed: a claim's lease (next_attempt_at) touches no callback.
          FOR moved IN
            SELECT n.callback_id, sum((n.state = 'delivered')::int - (o.state = 'delivered')::int) AS delivered,
                   sum((n.state = 'pending')::int - (o.state = 'pending')::int) AS pending, sum((n.state = 'failed')::int - (o.state = 'failed')::int) AS failed
              FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.state <> o.state GROUP BY n.callback_id ORDER BY n.callback_id
          LOOP
            UPDATE simulation.callbacks SET delivered = delivered + moved.delivered, pending = pending + moved.pending, failed = failed + moved.failed WHERE id = moved.callback_id;
          END LOOP;
        END IF;
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER callback_deliveries_counted_insert AFTER INSERT ON simulation.callback_deliveries
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION simulation.count_callback_deliveries();
      CREATE TRIGGER callback_deliveries_counted_update AFTER UPDATE ON simulation.callback_deliveries
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION simulation.count_callback_deliveries();
      CREATE TRIGGER callback_deliveries_counted_delete AFTER DELETE ON simulation.callback_deliveries
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION simulation.count_callback_deliveries();
    `,
  },
  {
    version: 12,
    name: "status events written as their callbacks' deliveries after the step, in bounded batches",
    // callback_events: a status event of an account with callbacks, written in the step's transaction (one row per event,
    // not one per callback: a Trigger of 5,000 setups with 20 callbacks wrote 100,000 delivery rows in its transaction)
    // and turned into one delivery per callback afterwards, a bounded batch a transaction, the row removed in it.
    // events_from: a callback gets the events numbered after its registration (one sequence numbers both), as it got
    // the steps committed after it when deliveries were written with the step.
    sql: `
      CREATE SEQUENCE simulation.callback_events_seq;
      CREATE TABLE simulation.callback_events (
        id bigint PRIMARY KEY DEFAULT nextval('simulation.callback_events_seq'),
        account_id uuid NOT NULL,
        webhook_id text NOT NULL,
        setup_id uuid NOT NULL,
        status text NOT NULL,
        body text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX callback_events_account ON simulation.callback_events (account_id, id);
      ALTER TABLE simulation.callbacks ADD COLUMN events_from bigint NOT NULL DEFAULT nextval('simulation.callback_events_seq');
    `,
  },
  {
    version: 13,
    name: 'accepted jobs wait in the table; each account has its share of them published, oldest first',
    // A Trigger's jobs are inserted waiting and published by the wake within their account's share (one shared FIFO
    // queue of every job message let one account's 110,000 queued messages hold another account's job for minutes).
    // The wake reads, per account with waiting jobs, only as many as it has room for: in (created_at, id) order, one
    // Trigger's jobs sharing their created_at. An account's slots are counted on ranges of the running and woken jobs'
    // indexes (by their lease or reservation), which the planner prefers to the account's every job with or without
    // statistics (the embedded database never gathers them). Jobs that can never run wait no more: superseded by a
    // newer run of their setup (a Trigger clears them from now on), at a last status or dead-lettered.
    sql: `
      DROP INDEX simulation.jobs_waiting;
      CREATE INDEX jobs_waiting ON simulation.jobs (account_id, created_at, id) WHERE waiting;
      DROP INDEX simulation.jobs_running;
      CREATE INDEX jobs_running ON simulation.jobs (account_id, runner_until) WHERE runner_until IS NOT NULL;
      DROP INDEX simulation.jobs_woken;
      CREATE INDEX jobs_woken ON simulation.jobs (account_id, woken_until) WHERE woken_until IS NOT NULL;
      UPDATE simulation.jobs j SET waiting = false, woken_until = NULL
       WHERE (j.waiting OR j.woken_until IS NOT NULL)
         AND (j.dead_lettered OR j.state IN ('Processing completed', 'Simulation failed', 'Simulation start failed')
              OR EXISTS (SELECT 1 FROM simulation.setup_runs r WHERE r.account_id = j.account_id AND r.setup_id = j.setup_id AND r.job_id <> j.id));
    `,
  },
  {
    version: 14,
    name: "a woken job holds its account's slot until a worker takes it; its message is published again only if it may be lost",
    // A woken job's hold lapsed after 20 s: behind other accounts' hours-long studies its message was still queued, and
    // every wake published that many more of the account's jobs (a share every 20 s). Now it holds its slot until a
    // delivery of it is admitted, and woken_until is when its message is presumed lost and published again
    // (SIMULATION_JOB_REPUBLISH_MS, then as long again as it has waited since woken_at). The jobs woken before this
    // version start that wait now, at the default 10 minutes: their messages may well be queued still. jobs_woken_due
    // finds the woken jobs past their deadline (a woken job is never waiting: the predicate keeps the index from
    // serving an account's count of its woken jobs, which reads jobs_woken by the account instead).
    sql: `
      ALTER TABLE simulation.jobs ADD COLUMN woken_at timestamptz;
      UPDATE simulation.jobs SET woken_at = now(), woken_until = now() + interval '10 minutes' WHERE woken_until IS NOT NULL;
      CREATE INDEX jobs_woken_due ON simulation.jobs (woken_until) WHERE woken_until IS NOT NULL AND NOT waiting;
    `,
  },
  {
    version: 15,
    name: 'finished jobs purged after SIMULATION_JOB_RETENTION_DAYS, oldest first',
    // The purge walks the jobs last changed before its cutoff in (updated_at, id) order, a bounded page a statement, and
    // deletes those that ended (or were superseded) among them: it reads only the jobs older than the cutoff, never the
    // table, and the few old ones it must keep (a backlog still waiting) are read once a pass, not once a batch.
    sql: `CREATE INDEX IF NOT EXISTS jobs_updated ON simulation.jobs (updated_at, id);`,
  },
  {
    version: 16,
    name: "when a delivery of each job last reached a worker: a woken job's lost message is found without waiting SIMULATION_JOB_REPUBLISH_MS",
    // received_at: set by every delivery of the job as a worker takes it, before its admission. A woken job that no
    // delivery reached since it was woken (received_at before woken_at), whose message left the outbox, while the job
    // queue holds no message ready, had its message lost: it is published again at once rather than after
    // SIMULATION_JOB_REPUBLISH_MS. A delivery held before its admission (an account's admissions serialised, a start
    // not done) counts as received, so it is never taken for lost.
    sql: `ALTER TABLE simulation.jobs ADD COLUMN received_at timestamptz;`,
  },
  {
    version: 17,
    name: "the setup parameter names each job's request wrote Requested under: a job whose profile is deleted still ends on its setup",
    // profile_names: the profile's StatusParameterName, StatusMessageParameterName, StudyIdParameterName,
    // StatusUpdateTimeParameterName and ResultParameterNames as the request read them (no BaseUrl, no credentials). A
    // job whose profile was deleted before it ran writes its last status (Simulation failed) under them; one of the jobs
    // queued before this version (null) ends on its row and events only, as before.
    sql: `ALTER TABLE simulation.jobs ADD COLUMN profile_names jsonb;`,
  },
  {
    version: 18,
    name: "a Trigger's or Reprocess's jobs recorded before it writes Requested, finished by another should it die",
    // request: what finishing it needs (the Requested writes, its jobs, its answer so far); owner: who finishes it now,
    // until owner_until (a request, till its deadline; another that took it over, for its lease). command_id and
    // request_hash: the inbox's, so a repeat of the command finds it. writer_since: when a slot's writer took it (a
    // restart under npm start frees the slots taken before it, whatever their lease).
    sql: `
      CREATE TABLE simulation.pending_requests (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        command_id text,
        request_hash text,
        owner uuid NOT NULL,
        owner_until timestamptz NOT NULL,
        sealed_credentials bytea,
        request jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX pending_requests_command ON simulation.pending_requests (account_id, command_id);
      CREATE INDEX pending_requests_owner_until ON simulation.pending_requests (owner_until);
      ALTER TABLE simulation.setup_runs ADD COLUMN writer_since timestamptz;
    `,
  },
];
