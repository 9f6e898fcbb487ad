/** One page of a list: its number from 1 and its size. The API's `page[…]` parameters give it (jsonapi/query.ts). */
export interface Page {
  number: number;
  size: number;
}

/** Every row of a paged read, a page of 100 at a time. */
export async function everyPage<T>(read: (page: Page) => Promise<{ rows: T[]; total: number }>): Promise<T[]> {
  const all: T[] = [];
  for (let number = 1; ; number++) {
    const { rows, total } = await read({ number, size: 100 });
    all.push(...rows);
    if (rows.length === 0 || all.length >= total) return all;
  }
}
