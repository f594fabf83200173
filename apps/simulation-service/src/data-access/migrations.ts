import type { Migration } from '@pitwall/db';
import { outboxMigration } from '@pitwall/messaging';

export const SIMULATION_SCHEMA = 'simulation';

/** The simulation schema: accounts' encrypted connections, the jobs, and the outbox of status events and job messages. */
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
];
