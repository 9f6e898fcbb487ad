import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from './connect.js';

/**
 * A text column to order by in Unicode code point order, the same on both stores whatever
 * the database's locale: SQLite compares UTF-8 bytes by default, PostgreSQL needs the "C" collation.
 */
export function byCodePoint(dialect: Dialect, column: string): RawBuilder<string> {
  return dialect === 'postgres' ? sql<string>`${sql.ref(column)} collate "C"` : sql<string>`${sql.ref(column)}`;
}
