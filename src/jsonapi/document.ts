import type { Page } from '../common/page.js';
import type { Query } from './query.js';

export { API_PREFIX } from '../common/api-prefix.js';
export const MEDIA_TYPE = 'application/vnd.api+json';

export interface ResourceIdentifier {
  id: string;
  type: string;
}

export interface Resource extends ResourceIdentifier {
  attributes?: Record<string, unknown>;
  relationships?: Record<string, unknown>;
  links?: Record<string, string>;
}

export interface Pagination {
  'current-page': number;
  'page-size': number;
  'prev-page': number | null;
  'next-page': number | null;
  'total-pages': number;
  'total-count': number;
}

export interface ListDocument<R extends Resource = Resource> {
  data: R[];
  included?: Resource[];
  links: { self: string; first: string; prev: string | null; next: string | null; last: string };
  meta: { pagination: Pagination };
}

/** `{ data: { id, type } }` for a to-one relationship, or `{ data: null }`. */
export function toOne(type: string, id: string | null): { data: ResourceIdentifier | null } {
  return { data: id === null ? null : { id, type } };
}

/**
 * A paginated list document. `path` is the request path without query; the links keep
 * every other query parameter of the request and set `page[number]`/`page[size]`.
 */
export function listDocument<R extends Resource>(
  path: string,
  query: Query,
  page: Page,
  totalCount: number,
  data: R[],
  included?: Resource[],
): ListDocument<R> {
  const totalPages = Math.max(1, Math.ceil(totalCount / page.size));
  const link = (n: number) => pageLink(path, query, n, page.size);
  const prev = page.number > 1 ? Math.min(page.number - 1, totalPages) : null;
  const next = page.number < totalPages ? page.number + 1 : null;
  return {
    data,
    ...(included ? { included } : {}),
    links: {
      self: link(page.number),
      first: link(1),
      prev: prev === null ? null : link(prev),
      next: next === null ? null : link(next),
      last: link(totalPages),
    },
    meta: {
      pagination: {
        'current-page': page.number,
        'page-size': page.size,
        'prev-page': prev,
        'next-page': next,
        'total-pages': totalPages,
        'total-count': totalCount,
      },
    },
  };
}

function pageLink(path: string, query: Query, number: number, size: number): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (key === 'page[number]' || key === 'page[size]' || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
  }
  params.set('page[number]', String(number));
  params.set('page[size]', String(size));
  return `${path}?${params.toString()}`;
}

/** Included resources without duplicates, in first-seen order. */
export function uniqueResources(resources: Resource[]): Resource[] {
  const seen = new Set<string>();
  return resources.filter((r) => {
    const key = `${r.type}/${r.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
