import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * A sensitive variable can need a value: an import brings it over without one (HCP Terraform
 * never gives a sensitive value out), and it needs one until a value is written. The flag is
 * kept on both variable tables; every existing variable has its value.
 *
 * An expand migration: servers of the release before it serve on beside it (a rolling
 * upgrade). They know nothing of the flag, so one of them writing a value to a variable that
 * needs one would leave it flagged. A trigger on each table clears the flag when an update
 * writes a new value as a new version of the variable: every write of a variable through the
 * API, of either release, gives it a new `version_id` and stores its value again (sealed anew
 * when a value is given, the same sealed value otherwise). Key rotation re-seals a value under
 * the same `version_id`, so the flag stays. This build's own writes clear the flag themselves
 * (`applyVariableChanges`) and never keep it set with a new value: the trigger changes none of
 * them. Inserts take the default, 0, as the older release's must.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    await db.schema
      .alterTable(table)
      .addColumn('value_needed', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  if (db.getExecutor().adapter instanceof PostgresAdapter) await postgresTriggers(db);
  else await sqliteTriggers(db);
}

const TABLES = ['varset_variables', 'workspace_variables'] as const;

/** An update that wrote a new value, as a new version, to a variable that needed one and still says so. */
const VALUE_WRITTEN =
  'old.value_needed = 1 and new.value_needed = 1 and new.value <> old.value and new.version_id <> old.version_id';

async function sqliteTriggers(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    await sql
      .raw(
        `create trigger ${table}_value_written after update of value on ${table} when ${VALUE_WRITTEN}
        begin update ${table} set value_needed = 0 where id = new.id; end`,
      )
      .execute(db);
  }
}

/** A row-level trigger before the update: the row is written once, with the flag cleared. */
async function postgresTriggers(db: Kysely<any>): Promise<void> {
  await sql`create function variable_value_written() returns trigger language plpgsql as $$
    begin
      new.value_needed := 0;
      return new;
    end $$`.execute(db);
  for (const table of TABLES) {
    await sql
      .raw(
        `create trigger ${table}_value_written before update of value on ${table}
        for each row when (${VALUE_WRITTEN}) execute function variable_value_written()`,
      )
      .execute(db);
  }
}
