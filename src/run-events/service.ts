import type { Context } from '../auth/context.js';
import { ensure } from '../auth/decisions.js';
import { NotFound } from '../common/errors.js';
import type { Page } from '../common/page.js';
import { getRun } from '../runs/service.js';
import type { RunEventWithComment } from './model.js';
import * as store from './store.js';

export async function getRunEvent(ctx: Context, id: string): Promise<RunEventWithComment> {
  const found = await store.findRunEvent(ctx.store.db, id);
  if (!found) throw new NotFound();
  ensure(ctx.subject, 'run:read', found.location);
  return { event: found.event, comment: found.comment };
}

export async function listEventsOfRun(ctx: Context, runId: string, page: Page) {
  const { run } = await getRun(ctx, runId);
  return store.listRunEvents(ctx.store.db, run.id, page);
}
