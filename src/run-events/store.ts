import { locationOf, WORKSPACE_LOCATION_COLUMNS, type WorkspaceLocation } from '../common/location.js';
import type { Comment } from '../comments/model.js';
import { sql } from 'kysely';
import { limitToPage, pageWithTotal } from '../db/page.js';
import type { Db } from '../db/transaction.js';
import type { Page } from '../common/page.js';
import type { RunEvent } from '../runs/model.js';
import type { RunEventWithComment } from './model.js';

/** Run events with their comment, in one query. */
function eventsWithComments(db: Db) {
  return db
    .selectFrom('run_events')
    .leftJoin('comments', 'comments.run_event_id', 'run_events.id')
    .select([
      'run_events.id',
      'run_events.run_id',
      'run_events.action',
      'run_events.description',
      'run_events.actor_kind',
      'run_events.actor_id',
      'run_events.created_at',
    ])
    .select([
      'comments.id as comment_id',
      'comments.body as comment_body',
      'comments.created_at as comment_created_at',
    ]);
}

type EventRow = RunEvent & {
  comment_id: string | null;
  comment_body: string | null;
  comment_created_at: string | null;
};

function withComment({ comment_id, comment_body, comment_created_at, ...event }: EventRow): RunEventWithComment {
  const comment: Comment | null =
    comment_id === null
      ? null
      : {
          id: comment_id,
          run_id: event.run_id,
          run_event_id: event.id,
          body: comment_body!,
          created_at: comment_created_at!,
        };
  return { event, comment };
}

/** The event (with its comment) and where it is, or undefined. */
export async function findRunEvent(
  db: Db,
  id: string,
): Promise<(RunEventWithComment & { location: WorkspaceLocation }) | undefined> {
  const row = await eventsWithComments(db)
    .innerJoin('runs', 'runs.id', 'run_events.run_id')
    .innerJoin('workspaces', 'workspaces.id', 'runs.workspace_id')
    .select(['runs.workspace_id', ...WORKSPACE_LOCATION_COLUMNS])
    .where('run_events.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { workspace_id: _w, organization_id: _o, project_id: _p, ...rest } = row;
  return { ...withComment(rest), location: locationOf(row) };
}

/** A run's events, oldest first: one statement that carries the count (see `pageWithTotal`). */
export async function listRunEvents(
  db: Db,
  runId: string,
  page: Page,
): Promise<{ rows: RunEventWithComment[]; total: number }> {
  const count = db
    .selectFrom('run_events')
    .where('run_id', '=', runId)
    .select((eb) => eb.fn.countAll<number>().as('n'));
  const { rows, total } = await pageWithTotal(
    db,
    limitToPage(eventsWithComments(db).where('run_events.run_id', '=', runId).orderBy('run_events.seq'), page),
    () => sql<number>`${count}`,
  );
  return { rows: rows.map(withComment), total };
}
