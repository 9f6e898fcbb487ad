import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * A version per organization that the database raises itself, in the writing transaction,
 * whenever a row that variable-set responses show changes: the organization's name, its
 * projects, workspaces, sets, set variables and assignments. The response cache
 * (src/varsets/response-cache.ts) serves a document only while its organization's version is
 * the one it was built at. Triggers rather than application code, so that no write path,
 * present or future, can forget it.
 */
const CHANGES: { table: string; organization: 'organization_id' | 'through varset' }[] = [
  { table: 'projects', organization: 'organization_id' },
  { table: 'workspaces', organization: 'organization_id' },
  { table: 'varsets', organization: 'organization_id' },
  { table: 'varset_variables', organization: 'through varset' },
  { table: 'varset_workspaces', organization: 'through varset' },
  { table: 'varset_projects', organization: 'through varset' },
];
const EVENTS = ['insert', 'update', 'delete'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('organization_versions')
    .addColumn('organization_id', 'text', (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`insert into organization_versions (organization_id, version) select id, 0 from organizations`.execute(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter) await postgresTriggers(db);
  else await sqliteTriggers(db);
}

const bump = (organizationIds: string) => `update organization_versions set version = version + 1 where organization_id in (${organizationIds})`;

async function sqliteTriggers(db: Kysely<any>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`create trigger organizations_insert_version after insert on organizations begin
    insert into organization_versions (organization_id, version) values (new.id, 0);
  end`);
  await run(`create trigger organizations_rename_version after update of name on organizations begin ${bump('new.id')}; end`);
  for (const { table, organization } of CHANGES) {
    for (const event of EVENTS) {
      const row = event === 'delete' ? 'old' : 'new';
      const ids = organization === 'organization_id' ? `${row}.organization_id` : `select organization_id from varsets where id = ${row}.varset_id`;
      await run(`create trigger ${table}_${event}_version after ${event} on ${table} begin ${bump(ids)}; end`);
    }
  }
}

/** Statement-level triggers: one update per statement and organization, however many rows it changed. */
async function postgresTriggers(db: Kysely<any>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`create function organizations_insert_version() returns trigger language plpgsql as $$
    begin
      insert into organization_versions (organization_id, version) select id, 0 from changed_rows;
      return null;
    end $$`);
  await run(`create trigger organizations_insert_version after insert on organizations
    referencing new table as changed_rows for each statement execute function organizations_insert_version()`);
  await run(`create function organizations_rename_version() returns trigger language plpgsql as $$
    begin
      ${bump('select id from changed_rows')};
      return null;
    end $$`);
  await run(`create trigger organizations_rename_version after update on organizations
    referencing new table as changed_rows for each statement execute function organizations_rename_version()`);
  for (const { table, organization } of CHANGES) {
    const ids =
      organization === 'organization_id'
        ? 'select organization_id from changed_rows'
        : 'select varsets.organization_id from varsets join changed_rows on varsets.id = changed_rows.varset_id';
    await run(`create function ${table}_version() returns trigger language plpgsql as $$
      begin
        ${bump(ids)};
        return null;
      end $$`);
    for (const event of EVENTS) {
      const transition = event === 'delete' ? 'old table' : 'new table';
      await run(`create trigger ${table}_${event}_version after ${event} on ${table}
        referencing ${transition} as changed_rows for each statement execute function ${table}_version()`);
    }
  }
}
