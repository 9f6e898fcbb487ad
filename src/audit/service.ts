import { randomUUID } from 'node:crypto';
import type { Context } from '../auth/context.js';
import { ensure } from '../auth/decisions.js';
import type { Store, Trx } from '../db/transaction.js';
import { NotFound, InvalidFilter } from '../common/errors.js';
import { now } from '../common/ids.js';
import { type AuditActor, type AuditEvent, type AuditRecord, type TrailQuery } from './model.js';
import * as store from './store.js';

export type { AuditActor, AuditRecord };

/** The token and request of an authenticated call, as the trail names them; or the command line and its user. */
export function actorOf(ctx: Pick<Context, 'subject' | 'requestId'>): AuditActor {
  const commandLine = ctx.subject.commandLine;
  if (commandLine)
    return { type: 'CommandLine', accessorId: commandLine.user, description: ctx.subject.description, requestId: null };
  return { accessorId: ctx.subject.tokenId, description: ctx.subject.description, requestId: ctx.requestId };
}

/**
 * Records a write in its organization's audit trail. Called inside the write's own
 * transaction, which sends the event before it commits (`appendAtCommit`), so the event
 * exists exactly when the write committed. A write whose caller said why (`Context.cause`: an
 * import names its source) has it in the event's `meta.cause`, whatever it wrote.
 */
export function recordAuditEvent(
  trx: Trx,
  by: Pick<Context, 'subject' | 'requestId' | 'cause'> | AuditActor,
  record: AuditRecord,
): void {
  const actor = 'subject' in by ? actorOf(by) : by;
  const cause = 'subject' in by ? by.cause : undefined;
  const meta = cause === undefined ? (record.meta ?? null) : { ...record.meta, cause };
  const event: AuditEvent = {
    id: randomUUID(),
    organizationId: record.organizationId,
    timestamp: now(),
    auth: { type: actor.type ?? 'Client', accessorId: actor.accessorId, description: actor.description },
    requestId: actor.requestId,
    resource: { id: record.id, type: record.type, action: record.action, meta },
  };
  store.insertAuditEvent(trx, event);
}

/**
 * A page of an organization's trail, newest first. The organization's token reads its own
 * organization's; the site administrator names the organization (`organizationName`). A team
 * token never reads one (the 404 of the 404 rule), nor any token another organization's.
 */
export async function readAuditTrail(
  ctx: Context,
  organizationName: string | undefined,
  query: TrailQuery,
): Promise<{ events: AuditEvent[]; total: number }> {
  const organizationId = await trailOrganization(ctx, organizationName);
  ensure(ctx.subject, 'audit-trail:read', { organizationId });
  const { rows, total } = await store.listAuditEvents(ctx.store.db, organizationId, query);
  return { events: rows, total };
}

async function trailOrganization(ctx: Context, organizationName: string | undefined): Promise<string> {
  const subject = ctx.subject;
  if (organizationName === undefined) {
    if (subject.kind === 'site-admin') {
      throw new InvalidFilter(
        'organization.name',
        "is required with the site administrator's token: name the organization whose audit trail to read",
      );
    }
    return subject.organizationId;
  }
  const id = await store.findOrganizationId(ctx.store.db, organizationName);
  if (id === undefined) throw new NotFound();
  return id;
}

/** How many events one pruning statement deletes at most: short enough never to hold up a request for long. */
export const PRUNE_BATCH = 1000;

/**
 * Deletes every event older than `retentionDays` before `at`, organization by organization,
 * `batch` at a time, each batch a statement of its own with a turn of the event loop in
 * between, so requests keep being answered while a large backlog goes. Returns how many it deleted.
 */
export async function pruneAuditEvents(
  database: Store,
  retentionDays: number,
  at = Date.now(),
  batch = PRUNE_BATCH,
): Promise<number> {
  if (retentionDays <= 0) return 0;
  const before = new Date(at - retentionDays * 86_400_000).toISOString();
  let deleted = 0;
  for (const organizationId of await store.findOrganizationsWithEventsBefore(database.db, before)) {
    for (;;) {
      const n = await store.deleteEventsBefore(database.db, organizationId, before, batch);
      deleted += n;
      await new Promise((resolve) => setImmediate(resolve));
      if (n < batch) break;
    }
  }
  await store.deleteEmptyHours(database.db);
  return deleted;
}
