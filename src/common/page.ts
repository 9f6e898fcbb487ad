/** One page of a list: its number from 1 and its size. The API's `page[…]` parameters give it (jsonapi/query.ts). */
export interface Page {
  number: number;
  size: number;
}
