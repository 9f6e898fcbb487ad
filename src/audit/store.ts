import type { Db, Trx } from '../db/transaction.js';
import { fetchPage } from '../db/page.js';
import type { AuditEvent, TrailQuery } from './model.js';

/** The audit trail's SQL: events are inserted, paged newest first, and pruned by age. */

export async function insertAuditEvent(trx: Trx, event: AuditEvent): Promise<void> {
  await trx
    .insertInto('audit_events')
    .values({
      id: event.id,
      organization_id: event.organizationId,
      timestamp: event.timestamp,
      auth_type: event.auth.type,
      accessor_id: event.auth.accessorId,
      auth_description: event.auth.description,
      request_id: event.requestId,
      resource_id: event.resource.id,
      resource_type: event.resource.type,
      action: event.resource.action,
      meta: event.resource.meta === null ? null : JSON.stringify(event.resource.meta),
    })
    .execute();
}

/** The id of the organization named `name`, if there is one. */
export async function findOrganizationId(db: Db, name: string): Promise<string | undefined> {
  const row = await db.selectFrom('organizations').select('id').where('name', '=', name).executeTakeFirst();
  return row?.id;
}

/** One page of an organization's events at or after `since`, newest first, and how many there are in all. */
export async function listAuditEvents(db: Db, organizationId: string, query: TrailQuery): Promise<{ rows: AuditEvent[]; total: number }> {
  let base = db.selectFrom('audit_events').where('organization_id', '=', organizationId);
  if (query.since !== undefined) base = base.where('timestamp', '>=', query.since);
  const { rows, total } = await fetchPage(db, base, query.page, (q) => q.selectAll().orderBy('timestamp', 'desc').orderBy('id', 'desc'));
  return {
    total,
    rows: rows.map((row) => ({
      id: row.id,
      organizationId: row.organization_id,
      timestamp: row.timestamp,
      auth: { type: row.auth_type, accessorId: row.accessor_id, description: row.auth_description },
      requestId: row.request_id,
      resource: { id: row.resource_id, type: row.resource_type, action: row.action, meta: row.meta === null ? null : JSON.parse(row.meta) },
    })),
  };
}

/** Deletes at most `limit` of the events older than `before`, the oldest first; returns how many it deleted. */
export async function deleteEventsBefore(db: Db, before: string, limit: number): Promise<number> {
  const oldest = db.selectFrom('audit_events').select('id').where('timestamp', '<', before).orderBy('timestamp').limit(limit);
  const result = await db.deleteFrom('audit_events').where('id', 'in', oldest).executeTakeFirst();
  return Number(result.numDeletedRows);
}
