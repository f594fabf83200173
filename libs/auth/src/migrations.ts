import type { Migration } from '@pitwall/db';

/** The gateway owns this schema; nothing else writes to it. */
export const AUTH_SCHEMA = 'auth';

export const authMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts, users, memberships, api keys',
    sql: `
      CREATE TABLE auth.accounts (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE auth.users (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        email text UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE auth.account_memberships (
        account_id uuid NOT NULL REFERENCES auth.accounts (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('reader', 'editor', 'admin')),
        PRIMARY KEY (account_id, user_id)
      );
      CREATE INDEX account_memberships_user_idx ON auth.account_memberships (user_id);
      CREATE TABLE auth.api_keys (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
        key_hash bytea NOT NULL UNIQUE,
        label text,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      );
      CREATE INDEX api_keys_user_idx ON auth.api_keys (user_id);
    `,
  },
];
