import { sql, type AliasableExpression, type ExpressionBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Page } from '../common/page.js';

/**
 * One page of the rows `base` matches and how many it matches in all. `select` picks the
 * columns and the order of the page. See `pageWithTotal` for the statements it costs.
 */
export async function fetchPage<DB, TB extends keyof DB, O>(
  db: Kysely<DB>,
  base: SelectQueryBuilder<DB, TB, {}>,
  page: Page,
  select: (query: SelectQueryBuilder<DB, TB, {}>) => SelectQueryBuilder<DB, TB, O>,
): Promise<{ rows: O[]; total: number }> {
  return pageWithTotal(
    db,
    limitToPage(select(base), page),
    () => sql<number>`${base.select((eb) => eb.fn.countAll<number>().as('n'))}`,
  );
}

export function limitToPage<Q extends { limit: (n: number) => Q; offset: (n: number) => Q }>(query: Q, page: Page): Q {
  return query.limit(page.size).offset((page.number - 1) * page.size);
}

/**
 * Runs `pageQuery` with `total`, a count that does not depend on the row, as one more column:
 * the database computes it once, and the page with its count costs one statement. A page past
 * the last one has no row to carry the count, and costs a second statement.
 */
export async function pageWithTotal<DB, QDB, TB extends keyof QDB, O>(
  db: Kysely<DB>,
  /** Its tables may be those of `db` widened by joins. */
  pageQuery: SelectQueryBuilder<QDB, TB, O>,
  total: (eb: ExpressionBuilder<DB, never>) => AliasableExpression<number | null>,
): Promise<{ rows: O[]; total: number }> {
  return splitTotal(db, await withTotal(pageQuery, total).execute(), total);
}

/** `pageQuery` with `total` as one more column, for `splitTotal`: what `pageWithTotal` runs, for a caller that runs it itself. */
export function withTotal<DB, QDB, TB extends keyof QDB, O>(
  pageQuery: SelectQueryBuilder<QDB, TB, O>,
  total: (eb: ExpressionBuilder<DB, never>) => AliasableExpression<number | null>,
) {
  return pageQuery.select((eb) => total(eb as unknown as ExpressionBuilder<DB, never>).as(TOTAL));
}

/** The rows of a `withTotal` query and the count they carry; with no row, the count is read on its own. */
export async function splitTotal<DB, O>(
  db: Kysely<DB>,
  counted: O[],
  total: (eb: ExpressionBuilder<DB, never>) => AliasableExpression<number | null>,
): Promise<{ rows: O[]; total: number }> {
  if (counted.length === 0) {
    const row = await db.selectNoFrom((eb) => total(eb).as('n')).executeTakeFirstOrThrow();
    return { rows: [], total: Number((row as { n: number | string }).n) };
  }
  const rows = counted.map((row) => {
    const { [TOTAL]: _, ...rest } = row as Record<string, unknown>;
    return rest as O;
  });
  return { rows, total: Number((counted[0] as Record<string, unknown>)[TOTAL]) };
}

/** The column carrying the count; no table has a column of that name. */
const TOTAL = 'matching_total';
