import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * The number of an organization's sets, and of its global sets, kept by the database beside
 * its version (migration 0007): every write that changes them raises that version in the same
 * row. A page of an organization's sets counts them all in its total, a page of a workspace's
 * or project's sets counts the global ones; counting on every request made a page cost more
 * the more sets the organization has. Triggers rather than application code, so that no write
 * path, present or future, can forget them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('organization_versions')
    .addColumn('varset_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('organization_versions')
    .addColumn('global_varset_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update organization_versions set
    varset_count = (select count(*) from varsets where varsets.organization_id = organization_versions.organization_id),
    global_varset_count = (select count(*) from varsets where varsets.organization_id = organization_versions.organization_id and varsets.global = 1)`.execute(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter) await postgresTriggers(db);
  else await sqliteTriggers(db);
}

/** The changes of a set's insert, global flag's update and delete (`global` is 1 or 0). */
const CHANGES = {
  insert: { counts: 'varset_count = varset_count + 1, global_varset_count = global_varset_count + new.global', organization: 'new.organization_id' },
  update: { counts: 'global_varset_count = global_varset_count + new.global - old.global', organization: 'new.organization_id' },
  delete: { counts: 'varset_count = varset_count - 1, global_varset_count = global_varset_count - old.global', organization: 'old.organization_id' },
};
const count = (event: keyof typeof CHANGES) => `update organization_versions set ${CHANGES[event].counts} where organization_id = ${CHANGES[event].organization}`;

async function sqliteTriggers(db: Kysely<any>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`create trigger varsets_insert_count after insert on varsets begin ${count('insert')}; end`);
  await run(`create trigger varsets_update_count after update of global on varsets when old.global <> new.global begin ${count('update')}; end`);
  await run(`create trigger varsets_delete_count after delete on varsets begin ${count('delete')}; end`);
}

/** Row-level triggers, as SQLite's: a set's other updates (its `updated_at` with every variable write) fire none. */
async function postgresTriggers(db: Kysely<any>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`create function varsets_count() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        ${count('insert')};
      elsif tg_op = 'UPDATE' then
        ${count('update')};
      else
        ${count('delete')};
      end if;
      return null;
    end $$`);
  await run(`create trigger varsets_insert_count after insert on varsets for each row execute function varsets_count()`);
  await run(`create trigger varsets_update_count after update of global on varsets for each row when (old.global <> new.global) execute function varsets_count()`);
  await run(`create trigger varsets_delete_count after delete on varsets for each row execute function varsets_count()`);
}
