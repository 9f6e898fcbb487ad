import { type Kysely } from 'kysely';

/**
 * One case-insensitive search for every name: projects and workspaces get the `search_name`
 * column sets and teams have, and every table's is written anew with `searchable`, which
 * now folds letters whose upper and lower cases do not map one to one.
 */
const TABLES = ['varsets', 'teams', 'projects', 'workspaces'] as const;

/** The fold as it was when this migration was written; a released migration must not follow later changes of `searchable`. */
const fold = (name: string) => name.toUpperCase().toLowerCase();

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['projects', 'workspaces']) {
    await db.schema
      .alterTable(table)
      .addColumn('search_name', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  }
  for (const table of TABLES) {
    const rows: { id: string; name: string }[] = await db.selectFrom(table).select(['id', 'name']).execute();
    for (const row of rows) {
      const folded = fold(row.name);
      await db.updateTable(table).set({ search_name: folded }).where('id', '=', row.id).execute();
    }
  }
  await db.schema.createIndex('projects_organization_search_idx').on('projects').columns(['organization_id', 'search_name']).execute();
  await db.schema.createIndex('workspaces_organization_search_idx').on('workspaces').columns(['organization_id', 'search_name']).execute();
}
