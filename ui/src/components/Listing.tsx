import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { LoadError } from './errors';

/** A listed read in its four states: its error, loading, what an empty page says, or its items. */
export function Listing<T>({ list, what, empty, children }: { list: UseQueryResult<{ data: T[] }>; what: string; empty: ReactNode; children: (items: T[]) => ReactNode }) {
  if (list.error) return <LoadError error={list.error} what={what} />;
  if (!list.data) return <p>Loading…</p>;
  if (list.data.data.length === 0) return <p className="muted">{empty}</p>;
  return children(list.data.data);
}
