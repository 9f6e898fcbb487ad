import { useState } from 'react';
import { Link } from 'react-router';
import { query } from '../api/client';
import { useApi } from '../api/hooks';
import type { Organization } from '../api/types';
import { LoadError } from '../components/errors';
import { Pager } from '../components/Pager';

/** The organizations this token may see. */
export function Organizations() {
  const [page, setPage] = useState(1);
  const list = useApi<Organization[]>(`/organizations${query({ 'page[number]': page, 'page[size]': 50 })}`);
  return (
    <>
      <h1 tabIndex={-1}>Organizations</h1>
      {list.error ? (
        <LoadError error={list.error} what="organizations" />
      ) : list.isPending ? (
        <p>Loading…</p>
      ) : list.data.data.length === 0 ? (
        <p className="muted">This token sees no organization.</p>
      ) : (
        <ul className="cards">
          {list.data.data.map((org) => (
            <li key={org.id}>
              <Link to={`/organizations/${encodeURIComponent(org.id)}/varsets`}>{org.attributes.name}</Link>
            </li>
          ))}
        </ul>
      )}
      <Pager pagination={list.data?.meta?.pagination} onPage={setPage} label="Organizations" />
    </>
  );
}
