import { type Kysely, sql } from 'kysely';

/**
 * Variables of a workspace, and the effective variables of each run: the resolution made
 * when the run was created, one row per value (the winner of each variable and the values it
 * overrode), so later edits cannot change it and key rotation re-encrypts its sealed values.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('workspace_variables')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('category', 'text', (c) => c.notNull().check(sql`category in ('terraform', 'env')`))
    .addColumn('hcl', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sensitive', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('version_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('workspace_variables_key_unique', ['workspace_id', 'key', 'category'])
    .execute();

  // Sets and variables named here may be gone later: the row keeps what they were, without foreign keys.
  await db.schema
    .createTable('run_effective_values')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('rank', 'integer', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull().check(sql`category in ('terraform', 'env')`))
    .addColumn('precedence', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('workspace', 'run', 'varset')`))
    .addColumn('varset_id', 'text')
    .addColumn('varset_name', 'text')
    .addColumn('varset_scope', 'text')
    .addColumn('varset_owner', 'text')
    .addColumn('varset_priority', 'integer')
    .addColumn('variable_id', 'text')
    .addColumn('version_id', 'text')
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('hcl', 'integer', (c) => c.notNull())
    .addColumn('sensitive', 'integer', (c) => c.notNull())
    .addUniqueConstraint('run_effective_values_place_unique', ['run_id', 'position', 'rank'])
    .execute();
}
