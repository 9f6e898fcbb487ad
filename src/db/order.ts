import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

/**
 * A text column to order by in Unicode code point order, the same on both stores whatever
 * the database's locale: SQLite compares UTF-8 bytes by default, PostgreSQL needs the "C"
 * collation. `db` (the database or a transaction) tells which store it is.
 */
export function byCodePoint(db: Kysely<any>, column: string): RawBuilder<string> {
  return isPostgres(db) ? sql<string>`${sql.ref(column)} collate "C"` : sql<string>`${sql.ref(column)}`;
}

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
