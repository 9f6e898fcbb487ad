import type { Kysely } from 'kysely';

/**
 * A sensitive variable can need a value: an import brings it over without one (HCP Terraform
 * never gives a sensitive value out), and it needs one until a value is written. The flag is
 * kept on both variable tables; every existing variable has its value.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['varset_variables', 'workspace_variables']) {
    await db.schema
      .alterTable(table)
      .addColumn('value_needed', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
}
