/** Ids per statement where a list comes from a request body: far below both stores' limits on bound parameters. */
export const SLICE = 500;

/**
 * Runs `run` on each slice of `items` in turn, so that no statement exceeds the stores' limits
 * on bound parameters however long the list is; the results are concatenated.
 */
// eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- a slice that only writes returns nothing
export async function inSlices<T, R>(items: readonly T[], run: (slice: T[]) => Promise<R[] | void>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += SLICE) {
    const found = await run(items.slice(i, i + SLICE));
    if (found) results.push(...found);
  }
  return results;
}
