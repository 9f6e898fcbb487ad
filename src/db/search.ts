import { sql, type Expression, type RawBuilder } from 'kysely';

/**
 * Case-insensitive search, one rule for every name on both stores. Each searchable table keeps
 * its name folded by `searchable` in a `search_name` column, written by its store, and a search
 * folds its text the same way: the database only compares folded strings, so neither SQLite's
 * ASCII-only `lower()` nor PostgreSQL's locale has a say.
 */

/**
 * A name folded for search: upper-cased then lower-cased, so that letters whose cases do not
 * map one to one meet (`ß` and `SS`, `ς` and `Σ` and `σ`).
 */
export function searchable(text: string): string {
  return text.toUpperCase().toLowerCase();
}

/** `column LIKE '%text%'` on a `search_name` column; LIKE's wildcards in `text` match themselves. */
export function contains(column: Expression<string>, text: string): RawBuilder<boolean> {
  return matches(column, containsPattern(text));
}

/** `column LIKE pattern`, a pattern `containsPattern` made: a statement compiled once takes the pattern as its argument. */
export function matches(column: Expression<string>, pattern: string): RawBuilder<boolean> {
  return sql<boolean>`${column} like ${pattern} escape '\\'`;
}

/** A LIKE pattern matching `text` anywhere in a `search_name` column; use it with `escape '\\'`. */
export function containsPattern(text: string): string {
  return `%${searchable(text).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `column` contains `text` exactly as written, case included: one meaning on both stores, whose LIKE differ on case. */
export function containsText(column: Expression<string>, text: string): RawBuilder<boolean> {
  return sql<boolean>`replace(${column}, ${text}, '') <> ${column}`;
}
