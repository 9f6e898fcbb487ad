import { sql } from 'kysely';
import { appendAtCommit, type Db, type Trx } from '../db/transaction.js';
import { limitToPage, pageWithTotal } from '../db/page.js';
import { boundOnce } from '../db/compiled-once.js';
import { contains } from '../db/search.js';
import { fromJson } from '../db/json.js';
import type { AuditAuthType, AuditEvent, AuditMeta, TrailQuery } from './model.js';

/** The audit trail's SQL: events are inserted, paged newest first, and pruned by age. */

export function insertAuditEvent(trx: Trx, event: AuditEvent): void {
  const { id, organizationId, timestamp, auth, requestId, resource } = event;
  const meta = resource.meta === null ? null : JSON.stringify(resource.meta);
  appendAtCommit(
    trx,
    INSERT_EVENT(
      trx,
      id,
      organizationId,
      timestamp,
      auth.type,
      auth.accessorId,
      auth.description,
      requestId,
      resource.id,
      resource.type,
      resource.action,
      meta,
    ),
  );
}

/** Every write sends it: built and compiled once. */
const INSERT_EVENT = boundOnce(
  (
    db,
    id: string,
    organizationId: string,
    timestamp: string,
    authType: string,
    accessorId: string,
    description: string,
    requestId: string | null,
    resourceId: string,
    resourceType: string,
    action: string,
    meta: string | null,
  ) =>
    db.insertInto('audit_events').values({
      id,
      organization_id: organizationId,
      timestamp,
      auth_type: authType,
      accessor_id: accessorId,
      auth_description: description,
      request_id: requestId,
      resource_id: resourceId,
      resource_type: resourceType,
      action,
      meta,
    }),
);

/** The id of the organization named `name`, if there is one. */
export async function findOrganizationId(db: Db, name: string): Promise<string | undefined> {
  const row = await db.selectFrom('organizations').select('id').where('name', '=', name).executeTakeFirst();
  return row?.id;
}

/** One page of an organization's events at or after `since`, newest first, and how many there are in all (one statement). */
export async function listAuditEvents(
  db: Db,
  organizationId: string,
  query: TrailQuery,
): Promise<{ rows: AuditEvent[]; total: number }> {
  const matching = (from: Pick<Db, 'selectFrom'>) => {
    let events = from.selectFrom('audit_events').where('organization_id', '=', organizationId);
    if (query.since !== undefined) events = events.where('timestamp', '>=', query.since);
    const { type, action, who } = query.filters ?? {};
    if (type !== undefined) events = events.where('resource_type', '=', type);
    if (action !== undefined) events = events.where('action', '=', action);
    if (who !== undefined) events = events.where(contains(sql`lower(${sql.ref('auth_description')})`, who));
    return events;
  };
  const filtered = query.filters !== undefined && Object.keys(query.filters).length > 0;
  const page = limitToPage(matching(db).selectAll().orderBy('timestamp', 'desc').orderBy('id', 'desc'), query.page);
  // The hours the triggers count hold every event: a filtered trail is counted by its rows.
  const total = () =>
    filtered
      ? sql<number>`(${matching(db).select((eb) => eb.fn.countAll<number>().as('n'))})`
      : countOf(organizationId, query.since);
  const { rows, total: count } = await pageWithTotal(db, page, total);
  return {
    total: count,
    rows: rows.map((row) => ({
      id: row.id,
      organizationId: row.organization_id,
      timestamp: row.timestamp,
      auth: { type: row.auth_type as AuditAuthType, accessorId: row.accessor_id, description: row.auth_description },
      requestId: row.request_id,
      resource: {
        id: row.resource_id,
        type: row.resource_type,
        action: row.action,
        meta: row.meta === null ? null : fromJson<AuditMeta>(row.meta),
      },
    })),
  };
}

/**
 * How many events the organization has at or after `since`: the hours the triggers counted
 * after since's hour, and the events of since's own hour from the trail's index.
 */
function countOf(organizationId: string, since: string | undefined) {
  const hours = sql`select coalesce(sum(events), 0) from audit_event_hours where organization_id = ${organizationId}`;
  if (since === undefined) return sql<number>`(${hours})`;
  const hour = since.slice(0, 13);
  const nextHour = new Date(Date.parse(`${hour}:00:00.000Z`) + 3_600_000).toISOString();
  return sql<number>`((${hours} and hour > ${hour}) + (select count(*) from audit_events where organization_id = ${organizationId} and timestamp >= ${since} and timestamp < ${nextHour}))`;
}

/** The organizations that have events older than `before`, by the hours counted (the hour of `before` included). */
export async function findOrganizationsWithEventsBefore(db: Db, before: string): Promise<string[]> {
  const rows = await db
    .selectFrom('audit_event_hours')
    .select('organization_id')
    .distinct()
    .where('hour', '<=', before.slice(0, 13))
    .where('events', '>', 0)
    .execute();
  return rows.map((row) => row.organization_id);
}

/** Deletes at most `limit` of the organization's events older than `before`, the oldest first; returns how many it deleted. */
export async function deleteEventsBefore(
  db: Db,
  organizationId: string,
  before: string,
  limit: number,
): Promise<number> {
  const result = await db
    .deleteFrom('audit_events')
    .where('organization_id', '=', organizationId)
    .where((eb) =>
      eb(
        eb.refTuple('timestamp', 'id'),
        'in',
        eb
          .selectFrom('audit_events as oldest')
          .select(['oldest.timestamp', 'oldest.id'])
          .where('oldest.organization_id', '=', organizationId)
          .where('oldest.timestamp', '<', before)
          .orderBy('oldest.timestamp')
          .orderBy('oldest.id')
          .limit(limit)
          .$asTuple('timestamp', 'id'),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Forgets the hours whose events are all gone. */
export async function deleteEmptyHours(db: Db): Promise<void> {
  await db.deleteFrom('audit_event_hours').where('events', '<=', 0).execute();
}
