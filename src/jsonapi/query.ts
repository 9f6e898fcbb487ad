import type { Page } from '../common/page.js';
import { badQueryParameter } from './errors.js';

export type Query = Record<string, string | string[] | undefined>;

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

/** One value of a query parameter; a parameter given twice is a 400 rather than a guess. */
export function single(query: Query, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw badQueryParameter(name, `${name} may be given only once`);
  return value;
}

/** `page[number]` (default 1) and `page[size]` (default 20, at most 100, unless the endpoint says otherwise). */
export function parsePage(
  query: Query,
  sizes: { default: number; max: number } = { default: DEFAULT_PAGE_SIZE, max: MAX_PAGE_SIZE },
): Page {
  return {
    number: positiveInteger(query, 'page[number]', 1, Number.MAX_SAFE_INTEGER),
    size: positiveInteger(query, 'page[size]', sizes.default, sizes.max),
  };
}

function positiveInteger(query: Query, name: string, fallback: number, max: number): number {
  const raw = single(query, name);
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    throw badQueryParameter(name, `${name} must be an integer from 1 to ${max}`);
  }
  return Number(raw);
}

/**
 * The `include` parameter as a set of allowed names. An empty value means no include
 * (go-tfe sends `include=` with list options); an unknown name is a 400.
 */
export function parseInclude<T extends string>(query: Query, allowed: readonly T[]): Set<T> {
  const raw = single(query, 'include');
  const names = new Set<T>();
  if (!raw) return names;
  for (const name of raw
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '')) {
    if (!(allowed as readonly string[]).includes(name)) {
      // go-tfe recognises a refused include by the words "include parameter".
      const supported = allowed.length ? `it supports ${allowed.join(', ')}` : 'nothing can be included here';
      throw badQueryParameter('include', `${name} is not a valid include parameter of this endpoint; ${supported}`);
    }
    names.add(name as T);
  }
  return names;
}

/** The `q` search string, or undefined when absent or empty. */
export function parseSearch(query: Query, name = 'q'): string | undefined {
  const raw = single(query, name);
  return raw === undefined || raw === '' ? undefined : raw;
}
