import type { Migration } from '@pitwall/db';
import { inboxMigration, outboxMigration } from '@pitwall/messaging';

export const ENTITY_SCHEMA = 'entity';
/** The migration dropping `entity.attached_file_blobs`, where attached file bytes were kept before the blob store. */
export const LEGACY_BYTES_DROPPED_VERSION = 50;

/** The entity store is generic: one row per entity whatever its type, so a new registry type needs no migration. */
export const entityMigrations: Migration[] = [
  {
    version: 1,
    name: 'entities and attached files',
    sql: `
      CREATE TABLE entity.entities (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        type text NOT NULL,
        parent_id uuid REFERENCES entity.entities(id) ON DELETE CASCADE,
        parent2_id uuid REFERENCES entity.entities(id) ON DELETE CASCADE,
        position integer NOT NULL DEFAULT 0,
        parameters jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL,
        modified_at timestamptz NOT NULL
      );
      CREATE INDEX entities_children ON entity.entities (parent_id, type, position);
      CREATE INDEX entities_parent2 ON entity.entities (parent2_id, type);
      CREATE INDEX entities_account_type ON entity.entities (account_id, type, position);
      CREATE INDEX entities_assoc_championship ON entity.entities (account_id, type, (parameters->>'ChampionshipId'));
      CREATE INDEX entities_assoc_event ON entity.entities (account_id, type, (parameters->>'EventId'), (parameters->>'CarId'));
      CREATE INDEX entities_assoc_car ON entity.entities (account_id, type, (parameters->>'CarId'));

      CREATE TABLE entity.attached_files (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        entity_id uuid NOT NULL REFERENCES entity.entities(id) ON DELETE CASCADE,
        user_id uuid,
        file_name text NOT NULL,
        custom_file_name text,
        group_name text,
        use_compression boolean NOT NULL DEFAULT false,
        auto_download boolean NOT NULL DEFAULT false,
        state integer NOT NULL DEFAULT 0,
        file_size bigint,
        created_time timestamptz NOT NULL,
        modified_at timestamptz NOT NULL
      );
      CREATE INDEX attached_files_entity ON entity.attached_files (entity_id, group_name, created_time);

      CREATE TABLE entity.attached_file_blobs (
        attached_file_id uuid PRIMARY KEY REFERENCES entity.attached_files(id) ON DELETE CASCADE,
        data bytea NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'account versions',
    // One row per account, bumped by every committed write: the key under which rendered reads are cached.
    sql: `
      CREATE TABLE entity.account_versions (
        account_id uuid PRIMARY KEY,
        version bigint NOT NULL
      );
    `,
  },
  // Entity events written in the transaction of their write, published after it commits and then deleted.
  outboxMigration({ schema: ENTITY_SCHEMA, version: 3, name: 'event outbox' }),
  // Every state-changing command recorded with its reply in the transaction of its write: it takes effect once.
  inboxMigration({ schema: ENTITY_SCHEMA, version: 10, name: 'command inbox' }),
  {
    version: 20,
    name: 'association parameters',
    // `<X>AssociationsToAdd` items may carry ParameterUpdates: kept per association (reference parameter name →
    // the entity it names and the parameters given with it), beside the entity's own parameters.
    sql: `ALTER TABLE entity.entities ADD COLUMN association_parameters jsonb NOT NULL DEFAULT '{}'::jsonb;`,
  },
  {
    version: 30,
    name: 'timing keys',
    // The timing integration addresses entities by index under their parent: a run sheet by its car and run index
    // (`<carId>:<runIndex>` under its session), a lap by its stint lap number, a lap sector or speed trap by its
    // definition id. One key per entity under its parent and type, so a repeated update finds what the first created.
    sql: `
      ALTER TABLE entity.entities ADD COLUMN timing_key text;
      CREATE UNIQUE INDEX entities_timing_key ON entity.entities (parent_id, type, timing_key) WHERE timing_key IS NOT NULL;
    `,
  },
  {
    version: 40,
    name: 'attached file blob keys',
    // An attached file's bytes live in the blob store (content-addressed `sha256/<hex>`), never in PostgreSQL.
    sql: `
      ALTER TABLE entity.attached_files ADD COLUMN blob_key text, ADD COLUMN blob_sha256 text;
      CREATE INDEX attached_files_blob_key ON entity.attached_files (blob_key) WHERE blob_key IS NOT NULL;
    `,
  },
  {
    version: 41,
    name: 'attached file replaces earlier ones',
    // IfSingleOverwriteExisting: the earlier files under the same custom property go when this one becomes available.
    sql: `ALTER TABLE entity.attached_files ADD COLUMN replace_existing boolean NOT NULL DEFAULT false;`,
  },
  {
    version: LEGACY_BYTES_DROPPED_VERSION,
    name: 'attached file bytes leave PostgreSQL',
    // The bytes kept here before the blob store were moved into it before this runs (the service's beforeMigrate,
    // moveLegacyBytes). Should any remain, the migration stops rather than lose them; the table is locked first so
    // an instance still moving its last rows finishes before the count.
    sql: `
      LOCK TABLE entity.attached_file_blobs IN ACCESS EXCLUSIVE MODE;
      DO $$
      BEGIN
        IF EXISTS (SELECT 1 FROM entity.attached_file_blobs) THEN
          RAISE EXCEPTION 'entity.attached_file_blobs still holds attached file bytes: they must move into the blob store first (the entity-service does it at start-up, before its migrations)';
        END IF;
      END $$;
      DROP TABLE entity.attached_file_blobs;
    `,
  },
  {
    version: 70,
    name: 'cache scope versions',
    // A write confined to one run sheet's subtree (a timing update) bumps the run's row here instead of the account's
    // version: cached reads of that run end, reads of other runs stay (store-context.ts, cachedRead).
    sql: `
      CREATE TABLE entity.cache_scope_versions (
        account_id uuid NOT NULL,
        scope_id uuid NOT NULL,
        version bigint NOT NULL,
        PRIMARY KEY (account_id, scope_id)
      );
    `,
  },
  {
    version: 80,
    name: 'member mirror versions',
    // The last membership snapshot (AccountMembersEvent.version) applied to each account's Users entities.
    sql: `CREATE TABLE entity.member_mirror (account_id uuid PRIMARY KEY, version bigint NOT NULL);`,
  },
  {
    version: 90,
    name: 'timing key lookups',
    // A timing batch looks its rows up by (parent, type, timing key) all at once (findByTimingKeysForUpdate). Matched
    // column by column, PostgreSQL takes entities_children (parent_id, type, position) as often as entities_timing_key:
    // both estimate one row, and the smaller index wins the tie. It then reads every run of the session, or every
    // lap of the run, to find one. On one expression only this index has, the lookup is `= ANY` of one array: found
    // row by row, and cheaper to plan. Uniqueness stays with entities_timing_key. The expression must stay
    // exactly that of TIMING_LOOKUP_KEY in timing-row-repository.ts, or PostgreSQL does not use the index.
    sql: `CREATE INDEX entities_timing_lookup ON entity.entities ((parent_id::text || '|' || type || '|' || timing_key)) WHERE timing_key IS NOT NULL;`,
  },
  {
    version: 100,
    name: 'untimed timing levels',
    // A timing update takes over the run sheet, lap, sector or speed trap at its place that was created by the
    // standard POSTs (no timing key) before it creates one (upsertByTimingKey, TimingAdoption). They are found by
    // (parent, type) on an expression only this index has, as in version 90 (entities_children would read every
    // timing-keyed sibling too). The expression and the type list must stay those of UNTIMED_CHILDREN in
    // timing-row-repository.ts, or PostgreSQL does not use the index.
    sql: `CREATE INDEX entities_untimed_children ON entity.entities ((parent_id::text || '|' || type)) WHERE timing_key IS NULL AND type IN ('RunSheets', 'Laps', 'LapSectors', 'LapSpeedTraps');`,
  },
  {
    version: 101,
    name: 'a moved timing level leaves its timing key',
    // A lap's timing key is its StintLapNumber, a sector's or speed trap's its definition (apply-timing-update.ts).
    // When another write (a standard PUT, a collection update) changes that parameter, the row leaves its key: the
    // feed's update for the old place then creates an entity there, and the one for the new place takes this one over
    // as it takes over any entity created by the standard POSTs. Kept, the key would send the feed's updates for the
    // old place to an entity that is no longer there, and make a second entity at the new one. A trigger, so every
    // path that writes parameters is covered; its WHEN is checked without calling the function, and the timing
    // writes never change these parameters (refuseAddressChange), so they never fire it.
    sql: `
      CREATE FUNCTION entity.release_timing_key() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.timing_key := NULL;
        RETURN NEW;
      END
      $$;
      CREATE TRIGGER entities_timing_level_moved BEFORE UPDATE OF parameters ON entity.entities FOR EACH ROW
        WHEN (OLD.timing_key IS NOT NULL AND NEW.timing_key IS NOT DISTINCT FROM OLD.timing_key AND (
          (OLD.type = 'Laps' AND NEW.parameters -> 'StintLapNumber' IS DISTINCT FROM OLD.parameters -> 'StintLapNumber')
          OR (OLD.type = 'LapSectors' AND NEW.parameters -> 'TrackSectorDefinitionId' IS DISTINCT FROM OLD.parameters -> 'TrackSectorDefinitionId')
          OR (OLD.type = 'LapSpeedTraps' AND NEW.parameters -> 'TrackSpeedTrapDefinitionId' IS DISTINCT FROM OLD.parameters -> 'TrackSpeedTrapDefinitionId')))
        EXECUTE FUNCTION entity.release_timing_key();
    `,
  },
  {
    version: 102,
    name: 'attached file finalise lease',
    // A finalise checks the bytes (an LZ4 read-through, an S3 snapshot) before its transaction, which can outlast the
    // bus timeout. While it runs it holds this lease (renewed; lost with its process after the lease's length), so a
    // retry answers 503 instead of checking the same bytes again beside it (finalise-attachment.ts).
    sql: `ALTER TABLE entity.attached_files ADD COLUMN finalising_token uuid, ADD COLUMN finalising_until timestamptz;`,
  },
];
