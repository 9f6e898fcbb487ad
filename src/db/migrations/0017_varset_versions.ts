import type { Kysely } from 'kysely';

/**
 * The versions of variable sets: one row for every write that changed a set, numbered per set,
 * with who made it and what it changed. A set's versions outlive the set (no foreign key to
 * `varsets`), so that a deleted set can be read back and restored; they go with their
 * organization. `sealed` keeps the sensitive values a version replaced or removed, sealed as
 * variables' values are, for a rollback to put back. A run's values name the version of the
 * set each came from.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('varset_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('varset_id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('project_id', 'text')
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('rolled_back_to', 'integer')
    .addColumn('varset_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('actor_token_id', 'text', (c) => c.notNull())
    .addColumn('actor_kind', 'text', (c) => c.notNull())
    .addColumn('actor_team_id', 'text')
    .addColumn('actor_description', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('changes', 'text', (c) => c.notNull())
    .addColumn('sealed', 'text')
    .execute();
  // Newest first, by set: a set's history, its last number and the versions after one.
  await db.schema.createIndex('varset_versions_number').on('varset_versions').columns(['varset_id', 'number']).unique().execute();
  // The version of its set each value of a run came from (null: the set had none yet).
  await db.schema.alterTable('run_effective_values').addColumn('varset_version', 'integer').execute();
  await db.schema.createIndex('varset_versions_organization').on('varset_versions').columns(['organization_id', 'varset_id']).execute();
}
