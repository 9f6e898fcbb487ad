import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { isNotFound } from '../api/client';
import { useDeletedVarsets } from '../api/hooks';
import { related, type VarsetVersion } from '../api/types';
import { setVersions } from '../api/versions';
import { LoadError } from '../components/errors';
import { Pager } from '../components/Pager';
import { RestoreDialog } from '../components/RestoreDialog';
import { useUrlParameters } from '../components/search';
import { When } from '../components/When';

const PAGE_SIZE = 20;

/** The version before a set's deletion (versions are numbered without a gap, newest first: the second). */
async function versionBeforeDeletion(setId: string): Promise<VarsetVersion> {
  const [version] = await setVersions(setId, { number: 2, size: 1 });
  if (!version) throw new Error('This set has no version before its deletion to restore.');
  return version;
}

/**
 * An organization's deleted sets, newest deletion first, for the owners (the organization token
 * and the site administrator too): each with who deleted it and when, a link to its history,
 * and Restore, which restores it as it was just before its deletion through the restore
 * dialog's dry run.
 */
export function DeletedVarsets() {
  const org = useParams().org!;
  const [params, change] = useUrlParameters();
  const page = Number(params.get('page')) || 1;
  const list = useDeletedVarsets(org, { number: page, size: PAGE_SIZE });
  const [restoring, setRestoring] = useState<{ deletion: VarsetVersion; version: VarsetVersion; open: boolean }>();
  const [failed, setFailed] = useState<unknown>();
  const restore = (deletion: VarsetVersion) => {
    setFailed(undefined);
    const setId = related(deletion, 'varset')!.id;
    versionBeforeDeletion(setId).then(
      (version) => setRestoring({ deletion, version, open: true }),
      (error: unknown) => setFailed(error),
    );
  };
  const items = list.data?.data;
  return (
    <>
      <h1 tabIndex={-1}>Deleted sets of {org}</h1>
      <p className="muted">
        Sets deleted and not restored since, newest first. Restoring one makes it again what it was just before its
        deletion, as a new version.
      </p>
      {isNotFound(list.error) ? (
        <p className="notice">
          Only the organization's owners may see its deleted sets, or there is no organization {org}.
        </p>
      ) : list.error ? (
        <LoadError error={list.error} what="deleted sets" />
      ) : !items ? (
        <p>Loading…</p>
      ) : items.length === 0 ? (
        <p className="muted">No deleted set.</p>
      ) : (
        <div className="table-wrap">
          <table aria-label="Deleted sets">
            <thead>
              <tr>
                <th scope="col">Set</th>
                <th scope="col">Deleted</th>
                <th scope="col">By</th>
                <th scope="col">
                  <span className="visually-hidden">Restore</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((deletion) => {
                const a = deletion.attributes;
                const setId = related(deletion, 'varset')!.id;
                return (
                  <tr key={deletion.id}>
                    <th scope="row">
                      <Link to={`/varsets/${encodeURIComponent(setId)}/history`}>{a['varset-name']}</Link>
                    </th>
                    <td>
                      <When at={a['created-at']} />
                    </td>
                    <td>{a.actor.description}</td>
                    <td>
                      <button
                        type="button"
                        className="small"
                        aria-label={`Restore ${a['varset-name']}`}
                        onClick={() => restore(deletion)}
                      >
                        Restore
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {failed !== undefined && <LoadError error={failed} what="version to restore" />}
      <Pager
        pagination={list.data?.meta.pagination}
        onPage={(p) => change({ page: p > 1 ? String(p) : null })}
        label="Deleted sets"
      />
      {restoring && (
        <RestoreDialog
          key={restoring.version.id}
          setId={related(restoring.deletion, 'varset')!.id}
          setName={restoring.deletion.attributes['varset-name']}
          version={restoring.version}
          open={restoring.open}
          known={new Map()}
          onClose={() => setRestoring({ ...restoring, open: false })}
        />
      )}
    </>
  );
}
