import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The audit trail: one row per write, inserted in the write's own transaction. No foreign key
 * to the organization: an organization's deletion is itself an event, and deleting a large
 * trail with it would hold the deletion's transaction for as long as that takes. Events of a
 * deleted organization are answered to nobody (none of its tokens remain, and no name leads
 * to its id) and leave with retention.
 *
 * The primary key `(organization_id, timestamp, id)` gives a trail's pages, newest first, from
 * one range, and an organization's oldest events to retention; on SQLite the table is that
 * key's b-tree itself (WITHOUT ROWID). An event is one b-tree entry and one hour's count, the
 * least a write can add to the trail. Ids are random UUIDs, never looked up.
 *
 * A page also tells how many events there are. Counting a million index entries takes longer
 * than a page may, so triggers keep the number of each organization's events per hour
 * (`audit_event_hours`): a total is the sum of those hours, plus, with `since`, the events of
 * since's own hour from the index. Every write of an organization in the same hour counts into
 * one row: on PostgreSQL the count is deferred to the commit, so that the row is locked only
 * while a transaction commits, after all its other locks, and takes part in no deadlock
 * (as `credentials_version`, migration 0015). SQLite has one writer at a time.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'text', (c) => c.notNull())
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
    .addPrimaryKeyConstraint('audit_events_pk', ['organization_id', 'timestamp', 'id'])
    .$call((table) => (postgres ? table : table.modifyEnd(sql`without rowid`)))
    .execute();

  await db.schema
    .createTable('audit_event_hours')
    .addColumn('organization_id', 'text', (c) => c.notNull())
    /** The first 13 characters of the events' timestamps: `2026-05-30T17`. */
    .addColumn('hour', 'text', (c) => c.notNull())
    .addColumn('events', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('audit_event_hours_pk', ['organization_id', 'hour'])
    .execute();
  // Retention's way to the organizations that have events older than it keeps.
  await db.schema.createIndex('audit_event_hours_hour').on('audit_event_hours').columns(['hour', 'organization_id']).execute();
  if (postgres) await postgresTriggers(db);
  else await sqliteTriggers(db);
}

const HOUR = (row: 'new' | 'old') => `substr(${row}.timestamp, 1, 13)`;
const COUNT_INSERT = `insert into audit_event_hours (organization_id, hour, events) values (new.organization_id, ${HOUR('new')}, 1)
  on conflict (organization_id, hour) do update set events = audit_event_hours.events + 1`;

async function sqliteTriggers(db: Kysely<any>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`create trigger audit_events_insert_count after insert on audit_events begin ${COUNT_INSERT}; end`);
  await run(`create trigger audit_events_delete_count after delete on audit_events begin
    update audit_event_hours set events = events - 1 where organization_id = old.organization_id and hour = ${HOUR('old')}; end`);
}

/** Inserts count at the commit; a pruning statement's deletions are counted once per hour it touched. */
async function postgresTriggers(db: Kysely<any>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`create function audit_events_insert_count() returns trigger language plpgsql as $$
    begin
      ${COUNT_INSERT};
      return null;
    end $$`);
  await run(`create constraint trigger audit_events_insert_count after insert on audit_events
    deferrable initially deferred for each row execute function audit_events_insert_count()`);
  await run(`create function audit_events_delete_count() returns trigger language plpgsql as $$
    begin
      update audit_event_hours set events = audit_event_hours.events - gone.n
        from (select organization_id, substr(timestamp, 1, 13) as hour, count(*) as n from gone_events group by 1, 2) as gone
        where audit_event_hours.organization_id = gone.organization_id and audit_event_hours.hour = gone.hour;
      return null;
    end $$`);
  await run(
    `create trigger audit_events_delete_count after delete on audit_events referencing old table as gone_events for each statement execute function audit_events_delete_count()`,
  );
}
