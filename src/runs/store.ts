import type { Db } from '../db/transaction.js';
import { compiledOnce } from '../db/compiled-once.js';
import { fetchPage } from '../db/page.js';
import { locationOf, WORKSPACE_LOCATION_COLUMNS, type WorkspaceLocation } from '../common/location.js';
import type { Page } from '../common/page.js';
import { sql, type Expression, type SqlBool } from 'kysely';
import { containsText } from '../db/search.js';
import type { Run, RunEvent, RunFilter, RunStatus } from './model.js';

const RUN_STATUSES: readonly RunStatus[] = ['pending', 'planning', 'planned', 'errored'];

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

const runWithLocation = compiledOnce((db, id: string) =>
  db
    .selectFrom('runs')
    .innerJoin('workspaces', 'workspaces.id', 'runs.workspace_id')
    .select(RUN_COLUMNS)
    .select(WORKSPACE_LOCATION_COLUMNS)
    .where('runs.id', '=', id),
);

/** The run and where it is, or undefined. */
export async function findRun(db: Db, id: string): Promise<{ run: Run; location: WorkspaceLocation } | undefined> {
  const [row] = await runWithLocation(db, id);
  if (!row) return undefined;
  const { organization_id: _o, project_id: _p, ...run } = row;
  return { run: toRun(run), location: locationOf(row) };
}

const NOTHING = sql<boolean>`1 = 0`;
const FINAL_STATUSES: RunStatus[] = ['planned', 'errored'];
const NON_FINAL_STATUSES: RunStatus[] = ['pending', 'planning'];

/** A workspace's runs that pass the filter, newest first. */
export async function listRuns(
  db: Db,
  workspaceId: string,
  filter: RunFilter,
  page: Page,
): Promise<{ rows: Run[]; total: number }> {
  const base = db
    .selectFrom('runs')
    .where('workspace_id', '=', workspaceId)
    .where((eb) => {
      const conditions: Expression<SqlBool>[] = [];
      const statusIn = (statuses: readonly string[]) =>
        statuses.length ? eb('runs.status', 'in', statuses as RunStatus[]) : NOTHING;
      if (filter.statuses)
        conditions.push(
          statusIn(filter.statuses.filter((s): s is RunStatus => (RUN_STATUSES as readonly string[]).includes(s))),
        );
      if (filter.statusGroup)
        conditions.push(
          filter.statusGroup === 'discardable'
            ? NOTHING
            : statusIn(filter.statusGroup === 'final' ? FINAL_STATUSES : NON_FINAL_STATUSES),
        );
      if (filter.sources && !filter.sources.includes('tfe-api')) conditions.push(NOTHING);
      if (filter.operations) {
        const operations = filter.operations.map((operation) =>
          operation === 'destroy'
            ? eb('runs.is_destroy', '=', true)
            : operation === 'plan_only'
              ? eb.and([eb('runs.is_destroy', '=', false), eb('runs.plan_only', '=', true)])
              : operation === 'plan_and_apply'
                ? eb.and([eb('runs.is_destroy', '=', false), eb('runs.plan_only', '=', false)])
                : NOTHING,
        );
        conditions.push(eb.or(operations));
      }
      if (filter.search !== undefined)
        conditions.push(
          eb.or([eb('runs.id', '=', filter.search), containsText(eb.ref('runs.message'), filter.search)]),
        );
      return eb.and(conditions);
    });
  const { rows, total } = await fetchPage(db, base, page, (q) => q.select(RUN_COLUMNS).orderBy('seq', 'desc'));
  return { rows: rows.map(toRun), total };
}

/** The ids of each run's events, oldest first. */
export async function findRunEventIds(db: Db, runIds: readonly string[]): Promise<Map<string, string[]>> {
  const ids = new Map<string, string[]>(runIds.map((id) => [id, []]));
  if (runIds.length === 0) return ids;
  const rows = await db
    .selectFrom('run_events')
    .select(['run_id', 'id'])
    .where('run_id', 'in', [...runIds])
    .orderBy('seq')
    .execute();
  for (const row of rows) ids.get(row.run_id)?.push(row.id);
  return ids;
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
export async function updateRunStatus(
  db: Db,
  id: string,
  from: readonly RunStatus[],
  to: RunStatus,
  timestamps: Partial<Pick<Run, 'planning_at' | 'finished_at'>>,
): Promise<boolean> {
  const result = await db
    .updateTable('runs')
    .set({ status: to, ...timestamps })
    .where('id', '=', id)
    .where('status', 'in', [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

const insertEvent = compiledOnce(
  (
    db,
    id: string,
    runId: string,
    action: RunEvent['action'],
    description: string,
    actorKind: RunEvent['actor_kind'],
    actorId: string | null,
    createdAt: string,
  ) =>
    db.insertInto('run_events').values({
      id,
      run_id: runId,
      action,
      description,
      actor_kind: actorKind,
      actor_id: actorId,
      created_at: createdAt,
    }),
);

export async function insertRunEvent(db: Db, event: RunEvent): Promise<void> {
  await insertEvent(
    db,
    event.id,
    event.run_id,
    event.action,
    event.description,
    event.actor_kind,
    event.actor_id,
    event.created_at,
  );
}
