import { locationOf, WORKSPACE_LOCATION_COLUMNS, type WorkspaceLocation } from '../common/location.js';
import { fetchPage } from '../db/page.js';
import { compiledOnce } from '../db/compiled-once.js';
import type { Db } from '../db/transaction.js';
import type { Page } from '../common/page.js';
import type { Comment } from './model.js';

const COLUMNS = [
  'comments.id',
  'comments.run_id',
  'comments.run_event_id',
  'comments.body',
  'comments.created_at',
] as const;

/** The comment and where it is, or undefined. */
export async function findComment(
  db: Db,
  id: string,
): Promise<{ comment: Comment; location: WorkspaceLocation } | undefined> {
  const row = await db
    .selectFrom('comments')
    .innerJoin('runs', 'runs.id', 'comments.run_id')
    .innerJoin('workspaces', 'workspaces.id', 'runs.workspace_id')
    .select(COLUMNS)
    .select(['runs.workspace_id', ...WORKSPACE_LOCATION_COLUMNS])
    .where('comments.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { workspace_id: _w, organization_id: _o, project_id: _p, ...comment } = row;
  return { comment, location: locationOf(row) };
}

/** A run's comments, oldest first. */
export async function listComments(db: Db, runId: string, page: Page): Promise<{ rows: Comment[]; total: number }> {
  const base = db.selectFrom('comments').where('run_id', '=', runId);
  return fetchPage(db, base, page, (q) => q.select(COLUMNS).orderBy('seq'));
}

const insert = compiledOnce((db, id: string, runId: string, runEventId: string, body: string, createdAt: string) =>
  db.insertInto('comments').values({ id, run_id: runId, run_event_id: runEventId, body, created_at: createdAt }),
);

export async function insertComment(db: Db, comment: Comment): Promise<void> {
  await insert(db, comment.id, comment.run_id, comment.run_event_id, comment.body, comment.created_at);
}
