import { sql, type Expression, type Kysely, type RawBuilder } from 'kysely';
import { isPostgres } from './order.js';

/**
 * Rows of a related table as one JSON value of the row that owns them, so that a set comes
 * with its variables and relationships in the statement that reads it. Both stores aggregate
 * JSON; they spell it differently, and PostgreSQL answers it parsed, SQLite as text.
 */

/** A JSON array of `value` over the rows of the enclosing query, in `order` (none: any order, which costs no sort); `[]` when there are none. */
export function jsonArrayOf(
  db: Kysely<any>,
  value: Expression<unknown>,
  order: Expression<unknown>[],
): RawBuilder<unknown> {
  const by = order.length ? sql` order by ${sql.join(order)}` : sql``;
  return isPostgres(db) ? sql`coalesce(json_agg(${value}${by}), '[]'::json)` : sql`json_group_array(${value}${by})`;
}

/** A JSON object of these columns (booleans: PostgreSQL gives true/false, SQLite 1/0). */
export function jsonObjectOf(db: Kysely<any>, fields: Record<string, Expression<unknown>>): RawBuilder<unknown> {
  const pairs = sql.join(Object.entries(fields).map(([name, value]) => sql`${sql.lit(name)}, ${value}`));
  return isPostgres(db) ? sql`json_build_object(${pairs})` : sql`json_object(${pairs})`;
}

/** A value `jsonArrayOf` or `jsonObjectOf` made, as JavaScript. */
export function fromJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}
