import type { SelectQueryBuilder } from 'kysely';
import type { Page } from '../jsonapi/query.js';

/**
 * One page of the rows `base` matches and how many it matches in all: two queries, whatever
 * the page size. `select` picks the columns and the order of the page.
 */
export async function fetchPage<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, {}>,
  page: Page,
  select: (query: SelectQueryBuilder<DB, TB, {}>) => SelectQueryBuilder<DB, TB, O>,
): Promise<{ rows: O[]; total: number }> {
  const [rows, count] = await Promise.all([
    select(base)
      .limit(page.size)
      .offset((page.number - 1) * page.size)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as O[], total: Number((count as { total: number | string }).total) };
}
