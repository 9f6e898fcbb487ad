import { Link } from 'react-router';
import type { Varset } from '../api/types';
import { VarsetBadges } from './Badges';

/** The columns the table sorts by, each with the API's `sort` key for it. */
const COLUMNS = {
  name: { label: 'Name', key: 'name' },
  // Global first, then by how many projects a set is assigned to.
  scope: { label: 'Scope', key: 'scope' },
  variables: { label: 'Variables', key: 'var-count' },
  workspaces: { label: 'Workspaces', key: 'workspace-count' },
  updated: { label: 'Updated', key: 'updated-at' },
} as const;
export type SortColumn = keyof typeof COLUMNS;
export const isSortColumn = (name: string): name is SortColumn => name in COLUMNS;

export interface Sort {
  column: SortColumn;
  descending: boolean;
}

/** What the table keeps: every filter checked must hold. */
export interface Filters {
  global: boolean;
  priority: boolean;
  owned: boolean;
}

export const FILTER_LABELS: Record<keyof Filters, string> = {
  global: 'Global',
  priority: 'Priority',
  owned: 'Owned by a project',
};

const FILTER_PARAMETERS: Record<keyof Filters, string> = {
  global: 'filter[global]',
  priority: 'filter[priority]',
  owned: 'filter[project-owned]',
};

/** The API's parameters for the filters checked and the sort: the server filters and sorts the whole organization. */
export function arrangement(filters: Filters, sort: Sort | null): Record<string, string> {
  const parameters: Record<string, string> = {};
  for (const name of Object.keys(filters) as (keyof Filters)[])
    if (filters[name]) parameters[FILTER_PARAMETERS[name]] = 'true';
  if (sort) parameters.sort = `${sort.descending ? '-' : ''}${COLUMNS[sort.column].key}`;
  return parameters;
}

/** The sets as a compact table; a column's header sorts by it (again: the other way). */
export function VarsetTable({
  sets,
  sort,
  onSort,
}: {
  sets: Varset[];
  sort: Sort | null;
  onSort: (sort: Sort) => void;
}) {
  return (
    <div className="table-wrap">
      <table className="varset-table" aria-label="Variable sets">
        <thead>
          <tr>
            {(Object.keys(COLUMNS) as SortColumn[]).map((column) => {
              const sorted = sort?.column === column;
              return (
                <th
                  key={column}
                  scope="col"
                  aria-sort={sorted ? (sort.descending ? 'descending' : 'ascending') : undefined}
                >
                  <button
                    type="button"
                    className="sort"
                    onClick={() => onSort({ column, descending: sorted && !sort.descending })}
                  >
                    {COLUMNS[column].label}
                    <span aria-hidden="true">{sorted ? (sort.descending ? ' ▼' : ' ▲') : ''}</span>
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {sets.map((varset) => {
            const a = varset.attributes;
            return (
              <tr key={varset.id}>
                <th scope="row">
                  <Link to={`/varsets/${varset.id}`}>{a.name}</Link> <VarsetBadges varset={varset} />
                </th>
                <td>
                  {a.global ? 'Global' : `${a['project-count']} ${a['project-count'] === 1 ? 'project' : 'projects'}`}
                </td>
                <td>{a['var-count']}</td>
                <td>{a.global ? 'all' : a['workspace-count']}</td>
                <td>
                  <time dateTime={a['updated-at']}>{new Date(a['updated-at']).toLocaleString()}</time>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
