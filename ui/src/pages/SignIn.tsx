import { useState, type SyntheticEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ApiError, saveToken } from '../api/client';
import { firstOrganization } from '../api/organizations';

/** Asks for an API token (kept for this browser tab, or for all its tabs when chosen) and checks it against the API. */
export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [keep, setKeep] = useState(false);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const organizations = await firstOrganization(token.trim());
      saveToken(token.trim(), keep);
      // Signing in at the start with a single organization leads straight to its sets; an address typed in keeps its page.
      const only = organizations.meta.pagination['total-count'] === 1 ? organizations.data[0] : undefined;
      // navigate() returns a promise only under a data router, which this app does not use.
      if (pathname === '/' && only)
        void navigate(`/organizations/${encodeURIComponent(only.id)}/varsets`, { replace: true });
      onSignedIn();
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.status === 401
          ? 'varsetd did not accept this token.'
          : `Signing in failed: ${(failure as Error).message}`,
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="sign-in">
      <h1 tabIndex={-1}>Sign in</h1>
      <p>
        Paste an API token: a team token, an organization token or the site administrator’s. It is kept in this browser
        tab only, and forgotten when you sign out or close the tab, unless you choose to keep it for every tab of this
        browser: then it stays until you sign out.
      </p>
      <form onSubmit={(event) => void submit(event)}>
        <div className="field">
          <label htmlFor="token">API token</label>
          <input
            id="token"
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={token}
            onChange={(e) => setToken(e.target.value)}
            required
            {...(error ? { 'aria-invalid': true, 'aria-describedby': 'token-error' } : {})}
          />
          {error && (
            <p className="field-error" id="token-error" role="alert">
              {error}
            </p>
          )}
        </div>
        <div className="field">
          <label>
            <input type="checkbox" checked={keep} onChange={(e) => setKeep(e.target.checked)} /> Keep me signed in on
            this browser, in every tab, until I sign out
          </label>
        </div>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </section>
  );
}
