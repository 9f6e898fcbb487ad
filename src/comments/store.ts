import type { Kysely, Selectable } from 'kysely';
import type { CommentTable, Database } from '../db/schema.js';
import type { Page } from '../jsonapi/query.js';
import { workspaceTarget, type WorkspaceTarget } from '../runs/target.js';
import { fetchPage } from '../db/page.js';

export type Comment = Omit<Selectable<CommentTable>, 'seq'>;

/** The comment and the location its permission checks need, or undefined. */
export async function findComment(db: Kysely<Database>, id: string): Promise<{ comment: Comment; target: WorkspaceTarget } | undefined> {
  const row = await db
    .selectFrom('comments')
    .innerJoin('runs', 'runs.id', 'comments.run_id')
    .innerJoin('workspaces', 'workspaces.id', 'runs.workspace_id')
    .select(['comments.id', 'comments.run_id', 'comments.run_event_id', 'comments.body', 'comments.created_at'])
    .select(['runs.workspace_id', 'workspaces.organization_id', 'workspaces.project_id'])
    .where('comments.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { workspace_id: _w, organization_id: _o, project_id: _p, ...comment } = row;
  return { comment, target: workspaceTarget(row) };
}

/** A run's comments, oldest first. */
export async function listComments(db: Kysely<Database>, runId: string, page: Page): Promise<{ rows: Comment[]; total: number }> {
  const base = db.selectFrom('comments').where('run_id', '=', runId);
  return fetchPage(db, base, page, (q) => q.select(['id', 'run_id', 'run_event_id', 'body', 'created_at']).orderBy('seq'));
}
