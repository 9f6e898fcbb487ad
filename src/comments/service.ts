import type { Context } from '../context.js';
import { ensure } from '../auth/policy.js';
import { newId } from '../ids.js';
import { notFound } from '../jsonapi/errors.js';
import { ResourceInput } from '../jsonapi/payload.js';
import type { Page } from '../jsonapi/query.js';
import { recordRunEvent } from '../run-events/store.js';
import { getRun } from '../runs/service.js';
import { findComment, listComments, type Comment } from './store.js';

/** Longest comment body, in characters, after surrounding whitespace is trimmed. */
export const BODY_MAX = 10_000;

export async function getComment(ctx: Context, id: string): Promise<Comment> {
  const found = await findComment(ctx.store.db, id);
  if (!found) throw notFound();
  ensure(ctx.subject, 'run:read', found.target);
  return found.comment;
}

export async function listCommentsOfRun(ctx: Context, runId: string, page: Page) {
  const { run } = await getRun(ctx, runId);
  return listComments(ctx.store.db, run.id, page);
}

/** Comments on a run whatever its status; each one comes with its `commented` run event, in one transaction. */
export async function createComment(ctx: Context, runId: string, body: unknown): Promise<Comment> {
  const { run } = await getRun(ctx, runId, 'comment:create');
  const text = ResourceInput.read(body, 'comments').requiredString('body', { maxLength: BODY_MAX, trim: true });
  return ctx.store.db.transaction().execute(async (trx) => {
    const event = await recordRunEvent(trx, run.id, 'commented', 'Comment added', ctx.subject);
    const comment: Comment = { id: newId('wsc'), run_id: run.id, run_event_id: event.id, body: text, created_at: event.created_at };
    await trx.insertInto('comments').values(comment).execute();
    return comment;
  });
}
