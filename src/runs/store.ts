import type { Kysely, Selectable } from 'kysely';
import type { Database, RunTable } from '../db/schema.js';
import type { Page } from '../jsonapi/query.js';
import { workspaceTarget, type WorkspaceTarget } from './target.js';
import { fetchPage } from '../db/page.js';

export type Run = Omit<Selectable<RunTable>, 'seq'>;

/** The run and the location its permission checks need, or undefined. */
export async function findRun(db: Kysely<Database>, id: string): Promise<{ run: Run; target: WorkspaceTarget } | undefined> {
  const row = await db
    .selectFrom('runs')
    .innerJoin('workspaces', 'workspaces.id', 'runs.workspace_id')
    .select(['runs.id', 'runs.workspace_id', 'runs.configuration_version_id', 'runs.status', 'runs.message', 'runs.is_destroy', 'runs.plan_only', 'runs.variables', 'runs.created_at'])
    .select(['workspaces.organization_id', 'workspaces.project_id'])
    .where('runs.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { organization_id: _o, project_id: _p, ...run } = row;
  return { run, target: workspaceTarget(row) };
}

/** A workspace's runs, newest first. */
export async function listRuns(db: Kysely<Database>, workspaceId: string, page: Page): Promise<{ rows: Run[]; total: number }> {
  const base = db.selectFrom('runs').where('workspace_id', '=', workspaceId);
  return fetchPage(db, base, page, (q) => q.selectAll().orderBy('seq', 'desc'));
}
