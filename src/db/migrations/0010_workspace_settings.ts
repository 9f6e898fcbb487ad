import { type Kysely, sql } from 'kysely';

/**
 * Everything a workspace keeps beyond its name: the settings HCP Terraform gives every
 * workspace (with its defaults), its lock, its tags (names shared across the organization),
 * the key/value tag bindings of workspaces and projects, and the workspaces allowed to read
 * another's remote state.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const flags: [string, 0 | 1][] = [
    ['allow_destroy_plan', 1],
    ['auto_apply', 0],
    ['auto_apply_run_trigger', 0],
    ['assessments_enabled', 0],
    ['file_triggers_enabled', 1],
    ['global_remote_state', 0],
    ['project_remote_state', 0],
    ['queue_all_runs', 0],
    ['speculative_enabled', 1],
    ['structured_run_output_enabled', 1],
    ['inherits_project_auto_destroy', 1],
    ['hyok_enabled', 0],
  ];
  for (const [column, fallback] of flags) {
    await db.schema
      .alterTable('workspaces')
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(fallback))
      .execute();
  }
  const texts: [string, string | null][] = [
    ['auto_destroy_at', null],
    ['auto_destroy_activity_duration', null],
    ['source_name', null],
    ['source_url', null],
    ['terraform_version', 'latest'],
    ['trigger_prefixes', '[]'],
    ['trigger_patterns', '[]'],
    ['working_directory', ''],
    // null: the organization's default execution mode applies.
    ['execution_mode', null],
    // Who holds the lock: a team, or a token standing for a user ('teams' or 'users'), and its id.
    ['locked_by_type', null],
    ['locked_by_id', null],
    ['lock_reason', null],
  ];
  for (const [column, fallback] of texts) {
    await db.schema
      .alterTable('workspaces')
      .addColumn(column, 'text', (c) => (fallback === null ? c : c.notNull().defaultTo(fallback)))
      .execute();
  }

  await db.schema
    .createTable('tags')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('tags_name_unique', ['organization_id', 'name'])
    .execute();

  await db.schema
    .createTable('workspace_tags')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('tag_id', 'text', (c) => c.notNull().references('tags.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('workspace_tags_pk', ['workspace_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('workspace_tags_tag').on('workspace_tags').column('tag_id').execute();

  // A binding belongs to exactly one workspace or one project.
  await db.schema
    .createTable('tag_bindings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.references('workspaces.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    // Order among the bindings of its owner: the order they were given in.
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addCheckConstraint('tag_bindings_one_owner', sql`(workspace_id is null) <> (project_id is null)`)
    .addUniqueConstraint('tag_bindings_workspace_key', ['workspace_id', 'key'])
    .addUniqueConstraint('tag_bindings_project_key', ['project_id', 'key'])
    .execute();
  await db.schema.createIndex('tag_bindings_key').on('tag_bindings').columns(['organization_id', 'key', 'value']).execute();

  await db.schema
    .createTable('remote_state_consumers')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('consumer_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('remote_state_consumers_pk', ['workspace_id', 'consumer_id'])
    .execute();
  await db.schema.createIndex('remote_state_consumers_consumer').on('remote_state_consumers').column('consumer_id').execute();
}
