import { Link } from 'react-router';
import { related, type Varset } from '../api/types';
import { VarsetBadges } from './Badges';

/** The columns the table sorts by, each with the value it sorts on. */
const COLUMNS = {
  name: { label: 'Name', value: (v: Varset) => v.attributes.name },
  // Global first, then by how many projects a set is assigned to.
  scope: { label: 'Scope', value: (v: Varset) => (v.attributes.global ? -1 : v.attributes['project-count']) },
  variables: { label: 'Variables', value: (v: Varset) => v.attributes['var-count'] },
  workspaces: { label: 'Workspaces', value: (v: Varset) => v.attributes['workspace-count'] },
  updated: { label: 'Updated', value: (v: Varset) => v.attributes['updated-at'] },
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

export const FILTER_LABELS: Record<keyof Filters, string> = { global: 'Global', priority: 'Priority', owned: 'Owned by a project' };

const ownedByProject = (v: Varset) => related(v, 'parent')?.type === 'projects';

/** The page's sets that pass the filters, in the order asked for (the API's when none is). */
export function arrange(sets: Varset[], filters: Filters, sort: Sort | null): Varset[] {
  const kept = sets.filter((v) => (!filters.global || v.attributes.global) && (!filters.priority || v.attributes.priority) && (!filters.owned || ownedByProject(v)));
  if (!sort) return kept;
  const value = COLUMNS[sort.column].value;
  const direction = sort.descending ? -1 : 1;
  return kept.sort((a, b) => {
    const x = value(a);
    const y = value(b);
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return order * direction || a.attributes.name.localeCompare(b.attributes.name);
  });
}

/** The sets as a compact table; a column's header sorts by it (again: the other way). */
export function VarsetTable({ sets, sort, onSort }: { sets: Varset[]; sort: Sort | null; onSort: (sort: Sort) => void }) {
  return (
    <div className="table-wrap">
      <table className="varset-table" aria-label="Variable sets">
        <thead>
          <tr>
            {(Object.keys(COLUMNS) as SortColumn[]).map((column) => {
              const sorted = sort?.column === column;
              return (
                <th key={column} scope="col" aria-sort={sorted ? (sort.descending ? 'descending' : 'ascending') : undefined}>
                  <button type="button" className="sort" onClick={() => onSort({ column, descending: sorted && !sort.descending })}>
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
                <td>{a.global ? 'Global' : `${a['project-count']} ${a['project-count'] === 1 ? 'project' : 'projects'}`}</td>
                <td>{a['var-count']}</td>
                <td>{a['workspace-count']}</td>
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
