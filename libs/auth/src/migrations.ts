import type { Migration } from '@pitwall/db';
import { outboxMigration } from '@pitwall/messaging';

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
  // Membership changes leave through this outbox (AuthStore writes them with the change; the gateway publishes them).
  outboxMigration({ schema: AUTH_SCHEMA, version: 2, name: 'membership events outbox' }),
  {
    version: 3,
    name: 'membership versions; every account announces its members once',
    // The sequence orders each account's member snapshots (AccountMembersEvent.version); the INSERT announces the
    // members that existed before the snapshots did, so the entity-service mirrors them as Users from the start.
    sql: `
      CREATE SEQUENCE auth.membership_version;
      INSERT INTO auth.outbox (routing_key, payload)
      SELECT 'account.members', jsonb_build_object(
        'accountId', a.id,
        'version', nextval('auth.membership_version')::text,
        'members', COALESCE((
          SELECT jsonb_agg(jsonb_build_object('userId', u.id, 'name', u.name, 'email', u.email, 'role', m.role) ORDER BY u.id)
          FROM auth.account_memberships m JOIN auth.users u ON u.id = m.user_id WHERE m.account_id = a.id
        ), '[]'::jsonb))
      FROM auth.accounts a
      WHERE EXISTS (SELECT 1 FROM auth.account_memberships m WHERE m.account_id = a.id);
    `,
  },
];
