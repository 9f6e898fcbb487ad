import type { Kysely, Selectable } from 'kysely';
import type { ConfigurationVersionTable, Database } from '../db/schema.js';
import type { Page } from '../jsonapi/query.js';
import { workspaceTarget, type WorkspaceTarget } from '../runs/target.js';
import { fetchPage } from '../db/page.js';

export type ConfigurationVersion = Omit<Selectable<ConfigurationVersionTable>, 'seq'>;

/** A workspace's configuration versions, newest first. */
export async function listConfigurationVersions(db: Kysely<Database>, workspaceId: string, page: Page): Promise<{ rows: ConfigurationVersion[]; total: number }> {
  const base = db.selectFrom('configuration_versions').where('workspace_id', '=', workspaceId);
  return fetchPage(db, base, page, (q) => q.selectAll().orderBy('seq', 'desc'));
}

/** The configuration version and the location its permission checks need, or undefined. */
export async function findConfigurationVersion(db: Kysely<Database>, id: string): Promise<{ cv: ConfigurationVersion; target: WorkspaceTarget } | undefined> {
  const row = await db
    .selectFrom('configuration_versions')
    .innerJoin('workspaces', 'workspaces.id', 'configuration_versions.workspace_id')
    .selectAll('configuration_versions')
    .select(['workspaces.organization_id', 'workspaces.project_id'])
    .where('configuration_versions.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { organization_id: _o, project_id: _p, seq: _s, ...cv } = row;
  return { cv, target: workspaceTarget(row) };
}
