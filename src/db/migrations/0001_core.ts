import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('projects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('projects_organization_name_unique', ['organization_id', 'name'])
    .execute();

  await db.schema
    .createTable('workspaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('workspaces_organization_name_unique', ['organization_id', 'name'])
    .execute();
  await db.schema.createIndex('workspaces_project_idx').on('workspaces').column('project_id').execute();

  await db.schema
    .createTable('varsets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('search_name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('global', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('varsets_organization_name_unique', ['organization_id', 'name'])
    // A set owned by a project applies only where it is assigned: it can never be global.
    .addCheckConstraint('varsets_project_owned_not_global', sql`project_id is null or global = 0`)
    .execute();
  await db.schema.createIndex('varsets_organization_global_idx').on('varsets').columns(['organization_id', 'global']).execute();
  await db.schema.createIndex('varsets_project_idx').on('varsets').column('project_id').execute();

  await db.schema
    .createTable('varset_variables')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('varset_id', 'text', (c) => c.notNull().references('varsets.id').onDelete('cascade'))
    .addColumn('global_organization_id', 'text')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('category', 'text', (c) => c.notNull().check(sql`category in ('terraform', 'env')`))
    .addColumn('hcl', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sensitive', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('version_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('varset_variables_key_unique', ['varset_id', 'key', 'category'])
    .execute();
  // NULLs are distinct in unique indexes on both stores, so only global sets take part.
  await db.schema.createIndex('varset_variables_global_key_unique').on('varset_variables').columns(['global_organization_id', 'key', 'category']).unique().execute();

  await db.schema
    .createTable('varset_workspaces')
    .addColumn('varset_id', 'text', (c) => c.notNull().references('varsets.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('varset_workspaces_pk', ['varset_id', 'workspace_id'])
    .execute();
  await db.schema.createIndex('varset_workspaces_workspace_idx').on('varset_workspaces').column('workspace_id').execute();

  await db.schema
    .createTable('varset_projects')
    .addColumn('varset_id', 'text', (c) => c.notNull().references('varsets.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('varset_projects_pk', ['varset_id', 'project_id'])
    .execute();
  await db.schema.createIndex('varset_projects_project_idx').on('varset_projects').column('project_id').execute();

  await db.schema
    .createTable('tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.references('organizations.id').onDelete('cascade'))
    .addColumn('team_id', 'text')
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expired_at', 'text')
    .execute();
}
