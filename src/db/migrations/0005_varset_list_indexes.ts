import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Indexes for the lists of variable sets. A project's or workspace's list reads the
 * organization's global sets in name order (code point order: the "C" collation on
 * PostgreSQL), a page at a time, and counts them from the index alone; it replaces the
 * (organization_id, global) index, a prefix of it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const byCodePoint = db.getExecutor().adapter instanceof PostgresAdapter ? sql`name collate "C"` : sql`name`;
  await sql`create index varsets_organization_global_name_idx on varsets (organization_id, global, ${byCodePoint}, id)`.execute(db);
  await db.schema.dropIndex('varsets_organization_global_idx').execute();
}
