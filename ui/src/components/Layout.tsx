import { useEffect, useState, useSyncExternalStore } from 'react';
import { Link, NavLink, Outlet, useLocation, useMatch } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useCanReadAuditTrail } from '../api/audit';
import { useCanRestoreDeletedSets, useCurrentToken } from '../api/hooks';
import { forgetToken, onSignedOut, storedToken } from '../api/client';
import { SignIn } from '../pages/SignIn';
import { FrameProvider, StatusMessage, useOrganizationOfPage } from './frame';

function useToken(): string | null {
  return useSyncExternalStore((changed) => {
    const stop = onSignedOut(changed);
    window.addEventListener('storage', changed);
    return () => {
      stop();
      window.removeEventListener('storage', changed);
    };
  }, storedToken);
}

/** The frame of every page: skip link, banner with the organization's sections, main, sign-out, footer. */
export function Layout() {
  return (
    <FrameProvider>
      <Frame />
    </FrameProvider>
  );
}

function Frame() {
  const token = useToken();
  const [, refresh] = useState(0);
  const client = useQueryClient();
  const location = useLocation();
  const inOrganization = useMatch('/organizations/:org/*');
  // On a set's, workspace's, project's or run's page, the organization it belongs to.
  const pageOrganization = useOrganizationOfPage();
  const org = inOrganization?.params.org ?? (location.pathname === '/' ? undefined : (pageOrganization ?? undefined));
  const signedOut = token === null;
  const readsTrail = useCanReadAuditTrail(signedOut ? undefined : (org ?? undefined));
  const restoresSets = useCanRestoreDeletedSets(signedOut ? undefined : (org ?? undefined));

  // After navigating, the new page's heading takes focus, so a screen reader announces it; a page
  // that shows "Loading…" first replaces its heading, which takes focus again until the user acts.
  useEffect(() => {
    const main = document.getElementById('main');
    const focusHeading = () => document.querySelector<HTMLElement>('main h1')?.focus();
    focusHeading();
    if (!main) return undefined;
    const observer = new MutationObserver(() => {
      if (document.activeElement === document.body) focusHeading();
    });
    observer.observe(main, { childList: true, subtree: true });
    const stop = () => observer.disconnect();
    window.addEventListener('keydown', stop, { once: true });
    window.addEventListener('pointerdown', stop, { once: true });
    const timer = setTimeout(stop, 10_000);
    return () => {
      stop();
      clearTimeout(timer);
      window.removeEventListener('keydown', stop);
      window.removeEventListener('pointerdown', stop);
    };
  }, [location.pathname, signedOut]);

  useEffect(() => {
    if (signedOut) client.clear();
  }, [signedOut, client]);

  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="banner">
        <Link to="/" className="brand">
          varsetd
        </Link>
        {!signedOut && org && (
          <nav aria-label="Organization">
            <span className="nav-organization">
              <span className="visually-hidden">Organization </span>
              {org}
            </span>
            <NavLink to={`/organizations/${encodeURIComponent(org)}/varsets`}>Variable sets</NavLink>
            <NavLink to={`/organizations/${encodeURIComponent(org)}/projects`}>Projects</NavLink>
            <NavLink to={`/organizations/${encodeURIComponent(org)}/workspaces`}>Workspaces</NavLink>
            {readsTrail && <NavLink to={`/organizations/${encodeURIComponent(org)}/audit-trail`}>Audit trail</NavLink>}
            {restoresSets && (
              <NavLink to={`/organizations/${encodeURIComponent(org)}/deleted-varsets`}>Deleted sets</NavLink>
            )}
            <NavLink to={`/organizations/${encodeURIComponent(org)}/import-export`}>Import and export</NavLink>
          </nav>
        )}
        {!signedOut && <SignedInAs />}
        {!signedOut && (
          <button type="button" className="sign-out" onClick={() => forgetToken()}>
            Sign out
          </button>
        )}
      </header>
      <main id="main">
        <StatusMessage />
        {signedOut ? <SignIn onSignedIn={() => refresh((n) => n + 1)} /> : <Outlet />}
      </main>
      <footer className="site-footer">
        {/* A page varsetd serves itself, outside the UI's routes: a full page load. */}
        <a href="/api/docs">API reference</a>
      </footer>
    </>
  );
}

const KIND_WORDS = {
  team: 'Team token',
  organization: 'Organization token',
  'site-admin': 'Site administrator',
} as const;

/** Who the token stands for: its kind, and its team or organization in the words of the audit trail. */
function SignedInAs() {
  const current = useCurrentToken().data?.data.attributes;
  if (!current) return null;
  const organization = current['organization-name'];
  return (
    <p className="signed-in-as" aria-label="Signed in as">
      <span className="badge">{KIND_WORDS[current.kind]}</span> {current.description}
      {organization && current.kind === 'team' ? ` of ${organization}` : ''}
    </p>
  );
}
