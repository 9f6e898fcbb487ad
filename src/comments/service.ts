import type { Context } from '../auth/context.js';
import { ensure } from '../auth/decisions.js';
import { recordAuditEvent } from '../audit/service.js';
import { transaction } from '../db/transaction.js';
import { newId } from '../common/ids.js';
import { NotFound, Invalid } from '../common/errors.js';
import type { Page } from '../common/page.js';
import { getRun, recordRunEvent } from '../runs/service.js';
import { BODY_MAX, type Comment } from './model.js';
import * as store from './store.js';

export type { Comment };

export async function getComment(ctx: Context, id: string): Promise<Comment> {
  const found = await store.findComment(ctx.store.db, id);
  if (!found) throw new NotFound();
  ensure(ctx.subject, 'run:read', found.location);
  return found.comment;
}

export async function listCommentsOfRun(ctx: Context, runId: string, page: Page) {
  const { run } = await getRun(ctx, runId);
  return store.listComments(ctx.store.db, run.id, page);
}

/**
 * Comments on a run whatever its status; each one comes with its `commented` run event, in one
 * transaction. The body is trimmed of surrounding white space, and must then be non-empty and
 * at most BODY_MAX characters.
 */
export async function createComment(ctx: Context, runId: string, body: string | undefined): Promise<Comment> {
  const { run, location } = await getRun(ctx, runId, 'comment:create');
  const text = (body ?? '').trim();
  const field = 'body';
  if (text === '') throw new Invalid(field, "body can't be blank");
  // eslint-disable-next-line @typescript-eslint/no-misused-spread -- the limit counts code points, not UTF-16 units
  if ([...text].length > BODY_MAX) throw new Invalid(field, `body is too long (maximum is ${BODY_MAX} characters)`);
  return transaction(ctx.store, async (trx) => {
    const event = await recordRunEvent(trx, run.id, 'commented', 'Comment added', ctx.subject);
    const comment: Comment = {
      id: newId('wsc'),
      run_id: run.id,
      run_event_id: event.id,
      body: text,
      created_at: event.created_at,
    };
    await store.insertComment(trx, comment);
    recordAuditEvent(trx, ctx, {
      organizationId: location.organizationId,
      type: 'workspace_comment',
      id: comment.id,
      action: 'create',
      meta: { run_id: run.id },
    });
    return comment;
  });
}
