import type { Context } from '../context.js';
import { ensure } from '../auth/policy.js';
import { notFound } from '../jsonapi/errors.js';
import type { Page } from '../jsonapi/query.js';
import { getRun } from '../runs/service.js';
import { findRunEvent, listRunEvents, type RunEventWithComment } from './store.js';

export async function getRunEvent(ctx: Context, id: string): Promise<RunEventWithComment> {
  const found = await findRunEvent(ctx.store.db, id);
  if (!found) throw notFound();
  ensure(ctx.subject, 'run:read', found.target);
  return { event: found.event, comment: found.comment };
}

export async function listEventsOfRun(ctx: Context, runId: string, page: Page) {
  const { run } = await getRun(ctx, runId);
  return listRunEvents(ctx.store.db, run.id, page);
}
