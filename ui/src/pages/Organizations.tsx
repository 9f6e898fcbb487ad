import { useState } from 'react';
import { Link } from 'react-router';
import { query } from '../api/client';
import { useApi } from '../api/hooks';
import type { Organization } from '../api/types';
import { Pager } from '../components/Pager';
import { Listing } from '../components/Listing';

/** The organizations this token may see. */
export function Organizations() {
  const [page, setPage] = useState(1);
  const list = useApi<Organization[]>(`/organizations${query({ 'page[number]': page, 'page[size]': 50 })}`);
  return (
    <>
      <h1 tabIndex={-1}>Organizations</h1>
      <Listing list={list} what="organizations" empty="This token sees no organization.">
        {(items) => (
          <ul className="cards">
            {items.map((org) => (
              <li key={org.id}>
                <Link to={`/organizations/${encodeURIComponent(org.id)}/varsets`}>{org.attributes.name}</Link>
              </li>
            ))}
          </ul>
        )}
      </Listing>
      <Pager pagination={list.data?.meta?.pagination} onPage={setPage} label="Organizations" />
    </>
  );
}
