import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Notifications of variable-set changes: an organization's configurations (where to send, the
 * token that signs, which changes), the queue of deliveries, and the responses the last
 * attempts got.
 *
 * A delivery is queued by a trigger on `varset_versions`, so in the transaction of every write
 * that makes a version, whatever code path writes it: one row for each enabled configuration
 * of the set's organization whose triggers name the version's action, with the number of
 * workspaces the set reaches after the change (none after a deletion). Deliveries are numbered
 * in the order they were queued; a delivered one is deleted, one that failed for good stays,
 * marked `failed`.
 */
const TRIGGER_OF_ACTION = `case new.action when 'create' then 'varset:created' when 'update' then 'varset:changed'
  when 'delete' then 'varset:deleted' else 'varset:rolled-back' end`;

const WORKSPACES_REACHED = `case
  when new.action = 'delete' then 0
  when exists (select 1 from varsets v where v.id = new.varset_id and v.global = 1)
    then (select count(*) from workspaces w where w.organization_id = new.organization_id)
  else (select count(*) from (
      select vw.workspace_id from varset_workspaces vw where vw.varset_id = new.varset_id
      union
      select w.id from varset_projects vp join workspaces w on w.project_id = vp.project_id where vp.varset_id = new.varset_id
    ) reached)
  end`;

const ENQUEUE = `insert into varset_notification_deliveries
    (configuration_id, version_id, varset_id, number, workspace_count, status, attempts, next_attempt_at, created_at)
  select c.id, new.id, new.varset_id, new.number, ${WORKSPACES_REACHED}, 'pending', 0, new.created_at, new.created_at
  from varset_notification_configurations c
  where c.organization_id = new.organization_id and c.enabled = 1
    and c.triggers like '%"' || ${TRIGGER_OF_ACTION} || '"%'`;

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('varset_notification_configurations')
    // Creation order, given by the database: a list is in it (two made in one millisecond too).
    .addColumn('seq', postgres ? 'bigserial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('destination_type', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    // Sealed as sensitive values are; null: deliveries are not signed.
    .addColumn('token', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull())
    // JSON array of trigger names, each written with its quotes (the trigger matches `"varset:…"`).
    .addColumn('triggers', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('varset_notification_configurations_organization').on('varset_notification_configurations').columns(['organization_id', 'seq']).execute();

  const serial = postgres ? ('bigserial' as const) : ('integer' as const);
  await db.schema
    .createTable('varset_notification_deliveries')
    .addColumn('id', serial, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('configuration_id', 'text', (c) => c.notNull().references('varset_notification_configurations.id').onDelete('cascade'))
    .addColumn('version_id', 'text', (c) => c.notNull().references('varset_versions.id').onDelete('cascade'))
    .addColumn('varset_id', 'text', (c) => c.notNull())
    // The version's number: a set's deliveries to one configuration go in this order.
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('workspace_count', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    // The process sending it, and until when: another takes it over after that.
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('varset_notification_deliveries_due').on('varset_notification_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('varset_notification_deliveries_order').on('varset_notification_deliveries').columns(['configuration_id', 'varset_id', 'number']).execute();
  await db.schema.createIndex('varset_notification_deliveries_version').on('varset_notification_deliveries').column('version_id').execute();

  await db.schema
    .createTable('varset_notification_responses')
    .addColumn('id', serial, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('configuration_id', 'text', (c) => c.notNull().references('varset_notification_configurations.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    // The HTTP status; null when no response came (a timeout, a refused connection).
    .addColumn('code', 'integer')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('headers', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('successful', 'integer', (c) => c.notNull())
    .addColumn('sent_at', 'text', (c) => c.notNull())
    // The change it was about and the attempt; null for a verification.
    .addColumn('varset_id', 'text')
    .addColumn('version_number', 'integer')
    .addColumn('attempt', 'integer')
    .execute();
  await db.schema.createIndex('varset_notification_responses_configuration').on('varset_notification_responses').columns(['configuration_id', 'id']).execute();

  const run = (text: string) => sql.raw(text).execute(db);
  if (postgres) {
    // Most organizations have no configuration: an index probe spares their writes the
    // queueing statement, whose plan costs more to start than the probe to answer.
    await run(`create function enqueue_varset_notifications() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from varset_notification_configurations c where c.organization_id = new.organization_id and c.enabled = 1) then
          ${ENQUEUE};
        end if;
        return null;
      end $$`);
    await run(`create trigger varset_versions_notify after insert on varset_versions for each row execute function enqueue_varset_notifications()`);
  } else {
    await run(`create trigger varset_versions_notify after insert on varset_versions begin ${ENQUEUE}; end`);
  }
}
