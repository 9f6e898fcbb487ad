import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { Pagination } from '../api/types';
import { LoadError } from './errors';

/** Whether a page was asked for beyond a list's last one (`?page=99` of 15), which is empty but for that. */
export const pastTheEnd = (pagination: Pagination | undefined): boolean =>
  pagination !== undefined && pagination['current-page'] > Math.max(pagination['total-pages'], 1);

/**
 * A listed read in its four states: its error, loading, what an empty page says, or its items.
 * An empty page past the last one says that instead (its Pager offers the last page).
 */
export function Listing<T>({
  list,
  what,
  empty,
  children,
}: {
  list: UseQueryResult<{ data: T[]; meta?: object }>;
  what: string;
  empty: ReactNode;
  children: (items: T[]) => ReactNode;
}) {
  if (list.error) return <LoadError error={list.error} what={what} />;
  if (!list.data) return <p>Loading…</p>;
  const { meta } = list.data;
  const pagination = meta && 'pagination' in meta ? (meta.pagination as Pagination) : undefined;
  if (list.data.data.length === 0)
    return (
      <p className="muted">{pastTheEnd(pagination) ? `No ${what} on this page: it is past the last one.` : empty}</p>
    );
  return children(list.data.data);
}
