import { useCallback, type SyntheticEvent } from 'react';
import { Link, useParams } from 'react-router';
import { isNotFound } from '../api/client';
import { useCanManageVarsets, useVarsetList } from '../api/hooks';
import { VarsetCard, varsetCounts } from '../components/Badges';
import { Pager } from '../components/Pager';
import { Listing } from '../components/Listing';
import { useSearchAsYouType, useUrlParameters } from '../components/search';
import {
  arrangement,
  FILTER_LABELS,
  isSortColumn,
  VarsetTable,
  type Filters,
  type Sort,
} from '../components/VarsetTable';

export const PAGE_SIZE = 20;

/** `sort=name` or `sort=-name` (descending) from the URL. */
function sortOf(params: URLSearchParams): Sort | null {
  const value = params.get('sort') ?? '';
  const column = value.replace(/^-/, '');
  return isSortColumn(column) ? { column, descending: value.startsWith('-') } : null;
}

/**
 * An organization's variable sets, a page at a time, searched by name and by the exact key of a
 * variable they define on the server as you type (both kept in the URL: `q` and `key`); as cards,
 * or as a table the server filters and sorts.
 */
export function OrganizationVarsets() {
  const org = useParams().org!;
  const [params, change] = useUrlParameters();
  const q = params.get('q') ?? '';
  const key = params.get('key') ?? '';
  const page = Number(params.get('page') ?? '1') || 1;
  const table = params.get('view') === 'table';
  const sort = sortOf(params);
  const filters: Filters = {
    global: params.has('global'),
    priority: params.has('priority'),
    owned: params.has('owned'),
  };
  const filtered = table && Object.values(filters).some(Boolean);
  const arrange = { ...(table ? arrangement(filters, sort) : {}), ...(key ? { 'filter[var][key]': key } : {}) };
  const list = useVarsetList('organizations', org, {
    q,
    number: page,
    size: PAGE_SIZE,
    ...(Object.keys(arrange).length > 0 ? { arrange } : {}),
  });
  const canCreate = useCanManageVarsets(org);
  const search = useCallback((term: string) => change({ q: term, page: null }), [change]);
  const [term, setTerm] = useSearchAsYouType(q, search);
  const searchKey = useCallback((text: string) => change({ key: text.trim(), page: null }), [change]);
  const [keyTerm, setKeyTerm] = useSearchAsYouType(key, searchKey);
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    change({ q: term, key: keyTerm.trim(), page: null });
  };
  if (isNotFound(list.error)) {
    return (
      <>
        <h1 tabIndex={-1}>No organization {org}</h1>
        <p className="notice">
          There is no organization named “{org}”, or this token may not see it.{' '}
          <Link to="/">The organizations this token sees</Link>
        </p>
      </>
    );
  }
  return (
    <>
      <div className="page-head">
        <h1 tabIndex={-1}>Variable sets of {org}</h1>
        {canCreate && (
          <Link className="button" to={`/organizations/${encodeURIComponent(org)}/varsets/new`}>
            New variable set
          </Link>
        )}
      </div>
      <form role="search" className="search" onSubmit={submit}>
        <label htmlFor="varset-search">Search sets by name</label>
        <input id="varset-search" type="search" value={term} onChange={(e) => setTerm(e.target.value)} />
        <label htmlFor="varset-key-search">Search by key</label>
        <input
          id="varset-key-search"
          type="search"
          value={keyTerm}
          placeholder="DB_PASSWORD"
          spellCheck={false}
          autoCapitalize="off"
          aria-describedby="varset-key-search-hint"
          onChange={(e) => setKeyTerm(e.target.value)}
        />
        <span id="varset-key-search-hint" className="visually-hidden">
          the sets defining a variable of exactly this key, case included
        </span>
        <button type="submit">Search</button>
        <button
          type="button"
          className="view-toggle"
          aria-pressed={table}
          onClick={() => change({ view: table ? null : 'table' })}
        >
          Table view
        </button>
      </form>
      {table && (
        <fieldset className="filters">
          <legend>Show only sets that are</legend>
          {(Object.keys(FILTER_LABELS) as (keyof Filters)[]).map((name) => (
            <label key={name}>
              <input
                type="checkbox"
                checked={filters[name]}
                onChange={(e) => change({ [name]: e.target.checked ? '1' : null, page: null })}
              />{' '}
              {FILTER_LABELS[name]}
            </label>
          ))}
        </fieldset>
      )}
      <Listing list={list} what="variable sets" empty={emptyText(q, key, filtered)}>
        {(items) =>
          table ? (
            <VarsetTable
              sets={items}
              sort={sort}
              onSort={(s) => change({ sort: `${s.descending ? '-' : ''}${s.column}`, page: null })}
            />
          ) : (
            <ul className="cards varsets" aria-label="Variable sets">
              {items.map((varset) => (
                <VarsetCard key={varset.id} varset={varset}>
                  {varset.attributes.description && <p className="muted">{varset.attributes.description}</p>}
                  <p className="counts">{varsetCounts(varset)}</p>
                </VarsetCard>
              ))}
            </ul>
          )
        }
      </Listing>
      <Pager
        pagination={list.data?.meta.pagination}
        onPage={(p) => change({ page: p > 1 ? String(p) : null })}
        label="Variable sets"
      />
    </>
  );
}

/** What an empty list says: why nothing matched, or that there is nothing yet. */
function emptyText(q: string, key: string, filtered: boolean): string {
  const passes = filtered ? ' and passes the filters' : '';
  if (key) return `No set defines the key “${key}”${q ? ` and has a name containing “${q}”` : ''}${passes}.`;
  if (q) return `No set's name contains “${q}”${passes}.`;
  return filtered ? 'No set passes the filters.' : 'No variable sets yet.';
}
