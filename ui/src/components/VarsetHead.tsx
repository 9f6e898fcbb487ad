import { Link, NavLink } from 'react-router';
import { related, type Varset } from '../api/types';
import { VarsetBadges, varsetCounts } from './Badges';

/** The top of a set's pages: the way back to the organization's sets, its name and badges, what it holds, and its tabs. */
export function VarsetHead({ varset }: { varset: Varset }) {
  const org = related(varset, 'organization')?.id;
  const attributes = varset.attributes;
  return (
    <>
      {org && (
        <p className="crumbs">
          <Link to={`/organizations/${encodeURIComponent(org)}/varsets`}>Variable sets of {org}</Link>
        </p>
      )}
      <div className="page-head">
        <h1 tabIndex={-1}>{attributes.name}</h1>
        <VarsetBadges varset={varset} />
      </div>
      {attributes.description && <p>{attributes.description}</p>}
      <p className="counts">{varsetCounts(varset)}</p>
      <VarsetTabs id={varset.id} />
    </>
  );
}

/** The set's two pages: what it is now, and its history. */
export function VarsetTabs({ id }: { id: string }) {
  return (
    <nav className="tabs" aria-label="Variable set">
      <NavLink to={`/varsets/${id}`} end>
        Overview
      </NavLink>
      <NavLink to={`/varsets/${id}/history`}>History</NavLink>
    </nav>
  );
}
