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
 * An organization's variable sets, a page at a time, searched by name on the server as you
 * type; as cards, or as a table the server filters and sorts.
 */
export function OrganizationVarsets() {
  const org = useParams().org!;
  const [params, change] = useUrlParameters();
  const q = params.get('q') ?? '';
  const page = Number(params.get('page') ?? '1') || 1;
  const table = params.get('view') === 'table';
  const sort = sortOf(params);
  const filters: Filters = {
    global: params.has('global'),
    priority: params.has('priority'),
    owned: params.has('owned'),
  };
  const filtered = table && Object.values(filters).some(Boolean);
  const list = useVarsetList('organizations', org, {
    q,
    number: page,
    size: PAGE_SIZE,
    ...(table ? { arrange: arrangement(filters, sort) } : {}),
  });
  const canCreate = useCanManageVarsets(org);
  const search = useCallback((term: string) => change({ q: term, page: null }), [change]);
  const [term, setTerm] = useSearchAsYouType(q, search);
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    if (term !== q) search(term);
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
      <Listing
        list={list}
        what="variable sets"
        empty={
          q
            ? `No set's name contains “${q}”${filtered ? ' and passes the filters' : ''}.`
            : filtered
              ? 'No set passes the filters.'
              : 'No variable sets yet.'
        }
      >
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
