import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useEffectiveVariables } from '../api/hooks';
import type { EffectiveVariable } from '../api/types';
import { count } from './Badges';
import { DynamicCredentialsNote } from './EffectiveVariables';
import { Listing } from './Listing';
import { PrecedenceTable } from './Precedence';
import { RunGetsRow } from './RunGetsRow';
import type { Place } from './SourceWords';

/** More than one source defines it: the winner overrode at least one value. */
const isConflict = (variable: EffectiveVariable): boolean => variable.attributes.overridden.length > 0;

/**
 * "What a run gets": a workspace's effective variables as one compact table, filtered by key
 * and to conflicts in the browser (the API answers the whole list at once, unpaginated). Each
 * row's "Why" opens the level, the API's reason and the values it beat.
 */
export function RunGets({ place }: { place: Place & { workspaceId: string } }) {
  const list = useEffectiveVariables('workspaces', place.workspaceId);
  const [filter, setFilter] = useState('');
  const [conflictsOnly, setConflictsOnly] = useState(false);
  const filterId = useId();
  const all = list.data?.data ?? [];
  const term = filter.trim().toLowerCase();
  const shown = all.filter(
    (variable) =>
      (!conflictsOnly || isConflict(variable)) && (!term || variable.attributes.key.toLowerCase().includes(term)),
  );
  return (
    <section aria-labelledby="run-gets-title" className="run-gets">
      <h2 id="run-gets-title">What a run gets</h2>
      <DynamicCredentialsNote entries={list.data?.meta?.['dynamic-credentials'] ?? []} />
      <Listing list={list} what="effective variables" empty="No variables reach it: a run gets none.">
        {(items) => (
          <>
            <div className="filters run-gets-filters">
              <label htmlFor={filterId}>Filter by key</label>
              <input id={filterId} type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
              <label>
                <input type="checkbox" checked={conflictsOnly} onChange={(e) => setConflictsOnly(e.target.checked)} />{' '}
                Conflicts only ({items.filter(isConflict).length})
              </label>
              <p className="muted" aria-live="polite">
                {shown.length === items.length
                  ? count(items.length, 'variable')
                  : `${shown.length} of ${count(items.length, 'variable')}`}
              </p>
            </div>
            <div className="table-wrap">
              <table className="run-gets-table">
                <caption className="visually-hidden">
                  What a run gets: each variable's value, where it comes from, and why
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Variable</th>
                    <th scope="col">Value</th>
                    <th scope="col">From</th>
                    <th scope="col">
                      <span className="visually-hidden">Why</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {shown.map((variable) => (
                    <RunGetsRow key={variable.id} variable={variable} place={place} />
                  ))}
                  {shown.length === 0 && (
                    <tr>
                      <td colSpan={4} className="muted">
                        No variable matches: {term ? `no key holds “${filter.trim()}”` : ''}
                        {term && conflictsOnly ? ' among ' : ''}
                        {conflictsOnly ? 'the keys more than one source defines' : ''}.
                      </td>
                    </tr>
                  )}
                </tbody>
              </table>
            </div>
            <PrecedenceTable levels={list.data?.meta?.precedence ?? []} />
          </>
        )}
      </Listing>
    </section>
  );
}

/**
 * The workspace's own variables that lose to a set (a priority set's, say), by `category:key`,
 * each with the set that wins: read from the same effective variables as the table above.
 */
export function useOverriddenOwnVariables(id: string): Map<string, ReactNode> {
  const effective = useEffectiveVariables('workspaces', id);
  const overridden = new Map<string, ReactNode>();
  for (const variable of effective.data?.data ?? []) {
    const a = variable.attributes;
    const set = a.source.varset;
    if (set && a.overridden.some((value) => value.source.type === 'workspace')) {
      overridden.set(
        `${a.category}:${a.key}`,
        <>
          set <Link to={`/varsets/${set.id}`}>{set.name}</Link>
          {a.source.type === 'varset' && set.priority ? ' (priority)' : ''}
        </>,
      );
    }
  }
  return overridden;
}
