import { useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { isNotFound } from '../api/client';
import { useVarset, useVarsetVersions } from '../api/hooks';
import { includedPlaces, related, type VarsetVersion } from '../api/types';
import { LoadError } from '../components/errors';
import { useOrganizationInNav } from '../components/frame';
import { Pager } from '../components/Pager';
import { RestoreDialog } from '../components/RestoreDialog';
import { VarsetHead } from '../components/VarsetHead';
import { VersionChanges, type KnownNames } from '../components/VersionChanges';
import { When } from '../components/When';

const PAGE_SIZE = 20;

function actionWords(version: VarsetVersion): string {
  const { action, 'rolled-back-to': restored } = version.attributes;
  if (action === 'rollback') return `restored version ${restored}`;
  return { create: 'created the set', update: 'changed the set', delete: 'deleted the set' }[action];
}

/**
 * A set's versions, newest first: who, when, what, and what changed. A set that was deleted has
 * a history only its organization's owners may read (the set itself answers 404): they may
 * restore it from any of its versions. `?version=N` opens the page holding version N.
 */
export function VarsetHistory() {
  const id = useParams().id!;
  const [params, setParams] = useSearchParams();
  const page = Number(params.get('page')) || 1;
  const wanted = Number(params.get('version')) || undefined;
  const setDocument = useVarset(id);
  const versions = useVarsetVersions(id, { number: page, size: PAGE_SIZE });
  const varset = setDocument.data?.data;
  const [restoring, setRestoring] = useState<{ version: VarsetVersion; open: boolean } | null>(null);
  const items = versions.data?.data;
  // A deleted set's organization is the one its versions name.
  const named = varset ?? items?.[0];
  const organization = named ? related(named, 'organization')?.id : undefined;
  useOrganizationInNav(organization);

  // Version numbers run without gaps, newest first: the page holding `wanted` follows from the newest.
  useEffect(() => {
    if (!wanted || !items?.length || params.has('page')) return;
    const onPage = Math.floor((items[0]!.attributes.number - wanted) / PAGE_SIZE) + 1;
    if (onPage > 1) setParams({ page: String(onPage), version: String(wanted) }, { replace: true });
  }, [wanted, items, params, setParams]);
  useEffect(() => {
    if (wanted && items?.some((v) => v.attributes.number === wanted))
      document.getElementById(`version-${wanted}`)?.scrollIntoView({ block: 'center' });
  }, [wanted, items]);

  const deleted = isNotFound(setDocument.error);
  if (setDocument.error && !deleted) return <Failed error={setDocument.error} />;
  if (deleted && versions.error) return <Failed error={versions.error} />;
  if (!varset && !(deleted && items)) return <h1 tabIndex={-1}>Loading…</h1>;

  const name = varset?.attributes.name ?? items?.[0]?.attributes['varset-name'] ?? id;
  const canRestore = deleted || varset?.attributes.permissions['can-update'] === true;
  const known: KnownNames = new Map(
    includedPlaces(setDocument.data).map((r) => [`${r.type}/${r.id}`, r.attributes.name]),
  );
  const newest = page === 1 ? items?.[0]?.id : undefined;
  return (
    <>
      {varset ? (
        <VarsetHead varset={varset} />
      ) : (
        <>
          {organization && (
            <p className="crumbs">
              <Link to={`/organizations/${encodeURIComponent(organization)}/varsets`}>
                Variable sets of {organization}
              </Link>
            </p>
          )}
          <h1 tabIndex={-1}>{name} (deleted)</h1>
          <p className="notice">
            This set was deleted. Its history is kept: the organization's owners may restore the set as it was at one of
            its versions.
          </p>
        </>
      )}
      <section aria-labelledby="history-title">
        <h2 id="history-title">History</h2>
        {versions.error ? (
          <LoadError error={versions.error} what="history" />
        ) : !items ? (
          <p>Loading…</p>
        ) : items.length === 0 ? (
          <p className="muted">No write has changed this set since versions were kept.</p>
        ) : (
          <ol className="cards versions" aria-label="Versions">
            {items.map((version) => {
              const a = version.attributes;
              const current = !deleted && version.id === newest;
              return (
                <li
                  key={version.id}
                  id={`version-${a.number}`}
                  aria-label={`Version ${a.number}`}
                  className={a.number === wanted ? 'wanted' : undefined}
                >
                  <div className="card-head">
                    <strong>Version {a.number}</strong>
                    <span className="badge">{actionWords(version)}</span>
                    {current && <span className="badge">current</span>}
                  </div>
                  <p className="counts">
                    by {a.actor.description}, <When at={a['created-at']} />
                  </p>
                  <VersionChanges changes={a.changes} known={known} label={`What version ${a.number} changed`} />
                  {canRestore && !current && a.action !== 'delete' && (
                    <button type="button" className="small" onClick={() => setRestoring({ version, open: true })}>
                      {deleted ? 'Restore this set' : 'Restore this version'}
                    </button>
                  )}
                </li>
              );
            })}
          </ol>
        )}
        <Pager
          pagination={versions.data?.meta.pagination}
          onPage={(n) => setParams({ page: String(n) })}
          label="Versions"
        />
      </section>
      {restoring && (
        <RestoreDialog
          key={restoring.version.id}
          setId={id}
          setName={name}
          version={restoring.version}
          open={restoring.open}
          known={known}
          onClose={() => setRestoring({ ...restoring, open: false })}
        />
      )}
    </>
  );
}

function Failed({ error }: { error: unknown }) {
  return (
    <>
      <h1 tabIndex={-1}>Variable set</h1>
      <LoadError error={error} what="variable set" />
    </>
  );
}
