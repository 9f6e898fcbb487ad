import { useState, type FormEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { query } from '../api/client';
import { useApi, useCanManageVarsets } from '../api/hooks';
import type { Varset } from '../api/types';
import { VarsetCard } from '../components/Badges';
import { Pager } from '../components/Pager';
import { Listing } from '../components/Listing';

export const PAGE_SIZE = 20;

/** An organization's variable sets, a page at a time, searched by name on the server. */
export function OrganizationVarsets() {
  const org = useParams().org!;
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const page = Number(params.get('page') ?? '1') || 1;
  const [term, setTerm] = useState(q);
  const list = useApi<Varset[]>(`/organizations/${encodeURIComponent(org)}/varsets${query({ q, 'page[number]': page, 'page[size]': PAGE_SIZE })}`);
  const canCreate = useCanManageVarsets(org);
  const go = (next: { q?: string; page?: number }) => {
    const search = new URLSearchParams();
    const nq = next.q ?? q;
    if (nq) search.set('q', nq);
    if ((next.page ?? 1) > 1) search.set('page', String(next.page));
    setParams(search);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    go({ q: term, page: 1 });
  };
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
      </form>
      <Listing list={list} what="variable sets" empty={q ? `No set's name contains “${q}”.` : 'No variable sets yet.'}>
        {(items) => (
          <ul className="cards varsets" aria-label="Variable sets">
            {items.map((varset) => (
              <VarsetCard key={varset.id} varset={varset}>
                {varset.attributes.description && <p className="muted">{varset.attributes.description}</p>}
                <p className="counts">
                  {count(varset.attributes['var-count'], 'variable')} · {count(varset.attributes['workspace-count'], 'workspace')} ·{' '}
                  {count(varset.attributes['project-count'], 'project')}
                </p>
              </VarsetCard>
            ))}
          </ul>
        )}
      </Listing>
      <Pager pagination={list.data?.meta?.pagination} onPage={(p) => go({ page: p })} label="Variable sets" />
    </>
  );
}

export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
