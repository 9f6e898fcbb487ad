import type { Db } from '../db/transaction.js';
import { fetchPage } from '../db/page.js';
import { locationOf, type WorkspaceLocation } from '../common/location.js';
import type { Page } from '../jsonapi/query.js';
import type { Run, RunEvent, RunStatus } from './model.js';

/** The SQL of runs and of the events that record what happened to them. */

const RUN_COLUMNS = [
  'runs.id',
  'runs.workspace_id',
  'runs.configuration_version_id',
  'runs.status',
  'runs.message',
  'runs.is_destroy',
  'runs.plan_only',
  'runs.variables',
  'runs.created_at',
  'runs.created_by_token_id',
  'runs.planning_at',
  'runs.finished_at',
] as const;

type RunRow = Omit<Run, 'variables'> & { variables: string };

function toRun(row: RunRow): Run {
  return { ...row, variables: JSON.parse(row.variables) as Run['variables'] };
}

/** The run and where it is, or undefined. */
export async function findRun(db: Db, id: string): Promise<{ run: Run; location: WorkspaceLocation } | undefined> {
  const row = await db
    .selectFrom('runs')
    .innerJoin('workspaces', 'workspaces.id', 'runs.workspace_id')
    .select(RUN_COLUMNS)
    .select(['workspaces.organization_id', 'workspaces.project_id'])
    .where('runs.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { organization_id: _o, project_id: _p, ...run } = row;
  return { run: toRun(run), location: locationOf(row) };
}

/** A workspace's runs, newest first. */
export async function listRuns(db: Db, workspaceId: string, page: Page): Promise<{ rows: Run[]; total: number }> {
  const base = db.selectFrom('runs').where('workspace_id', '=', workspaceId);
  const { rows, total } = await fetchPage(db, base, page, (q) => q.select(RUN_COLUMNS).orderBy('seq', 'desc'));
  return { rows: rows.map(toRun), total };
}

export async function insertRun(db: Db, run: Run): Promise<void> {
  await db
    .insertInto('runs')
    .values({ ...run, variables: JSON.stringify(run.variables) })
    .execute();
}

/**
 * Moves a run from one of the statuses in `from` to `to`, setting the given timestamps; false
 * when the run was no longer in one of them (another request moved it first).
 */
export async function updateRunStatus(db: Db, id: string, from: readonly RunStatus[], to: RunStatus, timestamps: Partial<Pick<Run, 'planning_at' | 'finished_at'>>): Promise<boolean> {
  const result = await db
    .updateTable('runs')
    .set({ status: to, ...timestamps })
    .where('id', '=', id)
    .where('status', 'in', [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}


export async function insertRunEvent(db: Db, event: RunEvent): Promise<void> {
  await db.insertInto('run_events').values(event).execute();
}
