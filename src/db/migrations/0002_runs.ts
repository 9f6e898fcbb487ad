import { type CreateTableBuilder, type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Configuration versions (with their uploaded archives), runs, run events and comments.
 * Everything hangs off a workspace and goes with it (ON DELETE CASCADE all the way down).
 *
 * Each table has a `seq` column filled by the database in insertion order: lists are ordered
 * by it, because two rows created within the same millisecond must still come back in the
 * order they were made. The public `id` stays the opaque prefixed identifier.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const withSeq = <T extends string>(table: CreateTableBuilder<T>) =>
    postgres ? table.addColumn('seq', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity()) : table.addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement());

  await withSeq(db.schema.createTable('configuration_versions'))
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'uploaded', 'errored')`))
    .addColumn('auto_queue_runs', 'integer', (c) => c.notNull())
    .addColumn('speculative', 'integer', (c) => c.notNull())
    .addColumn('provisional', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('error_message', 'text')
    .addColumn('upload_secret_hash', 'text', (c) => c.unique())
    .addColumn('upload_expires_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('uploaded_at', 'text')
    .addColumn('errored_at', 'text')
    .execute();
  await db.schema.createIndex('configuration_versions_workspace_idx').on('configuration_versions').columns(['workspace_id', 'seq']).execute();

  await db.schema
    .createTable('configuration_version_archives')
    .addColumn('configuration_version_id', 'text', (c) => c.primaryKey().references('configuration_versions.id').onDelete('cascade'))
    .addColumn('data', postgres ? 'bytea' : 'blob', (c) => c.notNull())
    .execute();

  await withSeq(db.schema.createTable('runs'))
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('configuration_version_id', 'text', (c) => c.notNull().references('configuration_versions.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('is_destroy', 'integer', (c) => c.notNull())
    .addColumn('plan_only', 'integer', (c) => c.notNull())
    .addColumn('variables', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('runs_workspace_idx').on('runs').columns(['workspace_id', 'seq']).execute();
  await db.schema.createIndex('runs_configuration_version_idx').on('runs').column('configuration_version_id').execute();

  await withSeq(db.schema.createTable('run_events'))
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('actor_kind', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('run_events_run_idx').on('run_events').columns(['run_id', 'seq']).execute();

  await withSeq(db.schema.createTable('comments'))
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('run_event_id', 'text', (c) => c.notNull().unique().references('run_events.id').onDelete('cascade'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('comments_run_idx').on('comments').columns(['run_id', 'seq']).execute();
}
