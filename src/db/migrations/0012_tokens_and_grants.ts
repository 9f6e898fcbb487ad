import { sql, type Kysely } from 'kysely';

/**
 * Tokens as HCP Terraform answers them: who created each one, when it was last used, and
 * several described tokens per team beside the one `legacy` token the singular endpoints
 * replace. Tokens issued before were legacy tokens, of no known creator. Team access grants
 * keep `policy-overrides`, which only a custom grant gives (false for every grant before).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('tokens')
    .addColumn('legacy', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('tokens').addColumn('created_by_kind', 'text').execute();
  await db.schema.alterTable('tokens').addColumn('created_by_id', 'text').execute();
  await db.schema.alterTable('tokens').addColumn('last_used_at', 'text').execute();

  await db.schema.dropIndex('tokens_team_unique').execute();
  await db.schema.dropIndex('tokens_organization_unique').execute();
  // One legacy token per team and per organization; a team's described tokens differ by description.
  await db.schema.createIndex('tokens_team_legacy_unique').on('tokens').column('team_id').unique().where(sql.ref('legacy'), '=', 1).execute();
  await db.schema.createIndex('tokens_organization_unique').on('tokens').column('organization_id').unique().where(sql.ref('kind'), '=', 'organization').execute();
  await db.schema.createIndex('tokens_team_description_unique').on('tokens').columns(['team_id', 'description']).unique().where(sql.ref('legacy'), '=', 0).execute();

  await db.schema
    .alterTable('team_workspaces')
    .addColumn('policy_overrides', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('team_projects')
    .addColumn('workspace_policy_overrides', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
