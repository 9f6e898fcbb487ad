import { useState } from 'react';
import { Link } from 'react-router';
import { useOrganizations } from '../api/hooks';
import { Pager } from '../components/Pager';
import { Listing } from '../components/Listing';

/** The organizations this token may see. */
export function Organizations() {
  const [page, setPage] = useState(1);
  const list = useOrganizations(page);
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
      <Pager pagination={list.data?.meta.pagination} onPage={setPage} label="Organizations" />
    </>
  );
}
