import type { Kysely } from 'kysely';

/**
 * The audit trail: one row per write, inserted in the write's own transaction. No foreign key
 * to the organization: an organization's deletion is itself an event, and deleting a large
 * trail with it would hold the deletion's transaction for as long as that takes. Events of a
 * deleted organization are answered to nobody (none of its tokens remain, and no name leads
 * to its id) and leave with retention.
 *
 * `(organization_id, timestamp, id)` gives a trail's pages, newest first, and its counts from
 * one index range; `timestamp` alone lets retention find the oldest events of every
 * organization at once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'text', (c) => c.notNull())
    .addColumn('auth_type', 'text', (c) => c.notNull())
    .addColumn('accessor_id', 'text', (c) => c.notNull())
    .addColumn('auth_description', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text')
    .addColumn('resource_id', 'text', (c) => c.notNull())
    .addColumn('resource_type', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('meta', 'text')
    .execute();
  await db.schema.createIndex('audit_events_trail_idx').on('audit_events').columns(['organization_id', 'timestamp', 'id']).execute();
  await db.schema.createIndex('audit_events_timestamp_idx').on('audit_events').column('timestamp').execute();
}
