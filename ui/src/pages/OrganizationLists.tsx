import { useState, type SyntheticEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useOrganizationChildren } from '../api/hooks';
import { Pager } from '../components/Pager';
import { Listing } from '../components/Listing';

function NamedList({
  kind,
  title,
  searchParameter,
}: {
  kind: 'projects' | 'workspaces';
  title: string;
  searchParameter: string;
}) {
  const org = useParams().org!;
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const page = Number(params.get('page') ?? '1') || 1;
  const [term, setTerm] = useState(q);
  const list = useOrganizationChildren(org, kind, { [searchParameter]: q }, { number: page, size: 20 });
  const go = (nq: string, p: number) =>
    setParams(new URLSearchParams({ ...(nq ? { q: nq } : {}), ...(p > 1 ? { page: String(p) } : {}) }));
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    go(term, 1);
  };
  return (
    <>
      <h1 tabIndex={-1}>
        {title} of {org}
      </h1>
      <form role="search" className="search" onSubmit={submit}>
        <label htmlFor={`${kind}-search`}>Search {kind} by name</label>
        <input id={`${kind}-search`} type="search" value={term} onChange={(e) => setTerm(e.target.value)} />
        <button type="submit">Search</button>
      </form>
      <Listing list={list} what={kind} empty="None.">
        {(items) => (
          <ul className="cards" aria-label={title}>
            {items.map((r) => (
              <li key={r.id}>
                <Link to={`/${kind}/${r.id}`}>{r.attributes.name}</Link>
                {r.attributes.description && <p className="muted">{r.attributes.description}</p>}
              </li>
            ))}
          </ul>
        )}
      </Listing>
      <Pager pagination={list.data?.meta?.pagination} onPage={(p) => go(q, p)} label={title} />
    </>
  );
}

export const OrganizationWorkspaces = () => (
  <NamedList key="workspaces" kind="workspaces" title="Workspaces" searchParameter="search[name]" />
);
export const OrganizationProjects = () => (
  <NamedList key="projects" kind="projects" title="Projects" searchParameter="q" />
);
