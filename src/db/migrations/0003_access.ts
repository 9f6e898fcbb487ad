import { type Kysely, sql } from 'kysely';
import { randomAlphanumeric } from '../../ids.js';

/** Teams, their access to workspaces and projects, team and organization tokens, and server settings. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('teams')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('search_name', 'text', (c) => c.notNull())
    .addColumn('is_owners', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('visibility', 'text', (c) =>
      c
        .notNull()
        .defaultTo('secret')
        .check(sql`visibility in ('secret', 'organization')`),
    )
    .addColumn('sso_team_id', 'text')
    .addColumn('allow_member_token_management', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('manage_workspaces', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('manage_projects', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('read_workspaces', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('read_projects', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('other_access', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('teams_organization_name_unique', ['organization_id', 'name'])
    .execute();
  // One owners team per organization.
  await db.schema.createIndex('teams_owners_unique').on('teams').column('organization_id').unique().where(sql.ref('is_owners'), '=', 1).execute();

  await db.schema
    .createTable('team_workspaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('access', 'text', (c) => c.notNull().check(sql`access in ('read', 'plan', 'write', 'admin', 'custom')`))
    .addColumn('runs', 'text', (c) => c.notNull())
    .addColumn('variables', 'text', (c) => c.notNull())
    .addColumn('state_versions', 'text', (c) => c.notNull())
    .addColumn('sentinel_mocks', 'text', (c) => c.notNull())
    .addColumn('workspace_locking', 'integer', (c) => c.notNull())
    .addColumn('run_tasks', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('team_workspaces_team_workspace_unique', ['team_id', 'workspace_id'])
    .execute();
  await db.schema.createIndex('team_workspaces_workspace_idx').on('team_workspaces').column('workspace_id').execute();

  await db.schema
    .createTable('team_projects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('access', 'text', (c) => c.notNull().check(sql`access in ('read', 'write', 'maintain', 'admin', 'custom')`))
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('teams', 'text', (c) => c.notNull())
    .addColumn('variable_sets', 'text', (c) => c.notNull())
    .addColumn('workspace_create', 'integer', (c) => c.notNull())
    .addColumn('workspace_move', 'integer', (c) => c.notNull())
    .addColumn('workspace_locking', 'integer', (c) => c.notNull())
    .addColumn('workspace_delete', 'integer', (c) => c.notNull())
    .addColumn('workspace_runs', 'text', (c) => c.notNull())
    .addColumn('workspace_variables', 'text', (c) => c.notNull())
    .addColumn('workspace_state_versions', 'text', (c) => c.notNull())
    .addColumn('workspace_sentinel_mocks', 'text', (c) => c.notNull())
    .addColumn('workspace_run_tasks', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('team_projects_team_project_unique', ['team_id', 'project_id'])
    .execute();
  await db.schema.createIndex('team_projects_project_idx').on('team_projects').column('project_id').execute();

  // The tokens table gains its foreign key to teams: rebuilt, as SQLite cannot add a constraint to a table.
  await db.schema
    .createTable('access_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('site-admin', 'team', 'organization')`))
    .addColumn('organization_id', 'text', (c) => c.references('organizations.id').onDelete('cascade'))
    .addColumn('team_id', 'text', (c) => c.references('teams.id').onDelete('cascade'))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expired_at', 'text')
    .execute();
  await sql`insert into access_tokens (id, token_hash, kind, organization_id, team_id, description, created_at, expired_at)
            select id, token_hash, kind, organization_id, team_id, description, created_at, expired_at from tokens`.execute(db);
  await db.schema.dropTable('tokens').execute();
  await db.schema.alterTable('access_tokens').renameTo('tokens').execute();
  // HCP Terraform's classic model: one token per team, one per organization (NULLs never collide).
  await db.schema.createIndex('tokens_team_unique').on('tokens').column('team_id').unique().execute();
  await db.schema.createIndex('tokens_organization_unique').on('tokens').column('organization_id').unique().where(sql.ref('kind'), '=', 'organization').execute();

  await db.schema
    .createTable('settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  // Organizations created before teams existed get their owners team.
  const organizations = await db.selectFrom('organizations').select(['id', 'created_at']).execute();
  for (const org of organizations) {
    await db
      .insertInto('teams')
      .values({
        id: `team-${randomAlphanumeric(16)}`,
        organization_id: org.id,
        name: 'owners',
        search_name: 'owners',
        is_owners: 1,
        visibility: 'organization',
        manage_workspaces: 1,
        manage_projects: 1,
        read_workspaces: 1,
        read_projects: 1,
        created_at: org.created_at,
      })
      .execute();
  }
}
