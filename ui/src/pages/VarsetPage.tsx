import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { answerWithRequestId, api } from '../api/client';
import { isNotFound } from '../api/client';
import { useCanRestoreDeletedSets, useVarset, useVarsetVersions } from '../api/hooks';
import { varsetChanged } from '../api/invalidate';
import { queryKeys } from '../api/queryKeys';
import { includedPlaces, related, relatedIds } from '../api/types';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { FormError, LoadError } from '../components/errors';
import { VariableEditor } from '../components/VariableEditor';
import { undoFor } from '../components/Undo';
import { VarsetHead } from '../components/VarsetHead';
import { useAnnounce, useOrganizationInNav, useOrganizationOfPage } from '../components/frame';

// The grid is loaded when first opened, outside the first load's budget.
const VariableGrid = lazy(() => import('../components/VariableGrid'));

/** A set: what it is, where it applies, its variables. */
export function VarsetPage() {
  const id = useParams().id!;
  const navigate = useNavigate();
  const client = useQueryClient();
  const document = useVarset(id);
  const varset = document.data?.data;
  const org = varset ? related(varset, 'organization')?.id : undefined;
  // The server decides deleting a set as it decides changing it: `can-update` answers both.
  const canWrite = varset?.attributes.permissions['can-update'] === true;
  useOrganizationInNav(org);
  const canRestore = useCanRestoreDeletedSets(org);
  const announce = useAnnounce();
  const [confirming, setConfirming] = useState(false);
  const [grid, setGrid] = useState(false);
  const remove = useMutation({
    mutationFn: async () => {
      const { requestId } = await answerWithRequestId(api.DELETE('/api/v2/varsets/{id}', { params: { path: { id } } }));
      // Only the owners may restore a deleted set: Undo is theirs alone.
      return canRestore ? undoFor(id, requestId, true) : undefined;
    },
    onSuccess: async (undo) => {
      setConfirming(false);
      client.removeQueries({ queryKey: queryKeys.varsets.detail(id) });
      await varsetChanged(client, id);
      const list = `/organizations/${encodeURIComponent(org!)}/varsets`;
      const name = varset!.attributes.name;
      announce(
        canRestore ? `Set ${name} deleted` : `Set ${name} deleted: only the organization's owners can restore it`,
        list,
        undo,
      );
      void navigate(list); // a promise only under a data router, which this app does not use
    },
  });
  if (isNotFound(document.error)) return <NoSet id={id} />;
  if (document.error) {
    return (
      <>
        <h1 tabIndex={-1}>Variable set</h1>
        <LoadError error={document.error} what="variable set" />
      </>
    );
  }
  if (!varset) return <h1 tabIndex={-1}>Loading…</h1>;
  const included = new Map(includedPlaces(document.data).map((r) => [`${r.type}/${r.id}`, r.attributes.name]));
  const attributes = varset.attributes;
  return (
    <>
      <VarsetHead varset={varset} />
      {canWrite && (
        <div className="actions">
          <Link className="button" to={`/varsets/${id}/edit`}>
            Edit set
          </Link>
          <button type="button" className="danger" onClick={() => setConfirming(true)}>
            Delete set
          </button>
        </div>
      )}
      <section aria-labelledby="applies-title">
        <h2 id="applies-title">Where it applies</h2>
        {attributes.global ? (
          <p>Every workspace of the organization (global).</p>
        ) : (
          <>
            <AppliedList title="Projects" kind="projects" ids={relatedIds(varset, 'projects')} names={included} />
            <AppliedList title="Workspaces" kind="workspaces" ids={relatedIds(varset, 'workspaces')} names={included} />
          </>
        )}
      </section>
      {grid ? (
        <section aria-labelledby="grid-title" className="variables">
          <h2 id="grid-title">Variables</h2>
          <Suspense fallback={<p>Loading the grid…</p>}>
            <VariableGrid varsetId={id} onClose={() => setGrid(false)} />
          </Suspense>
        </section>
      ) : (
        <>
          {canWrite && (
            <button type="button" onClick={() => setGrid(true)}>
              Edit as grid
            </button>
          )}
          <VariableEditor owner={{ kind: 'varsets', id }} canWrite={canWrite} title="Variables" />
        </>
      )}
      <ConfirmDialog
        open={confirming}
        title={`Delete ${attributes.name}?`}
        confirmLabel="Delete set"
        busy={remove.isPending}
        onCancel={() => (setConfirming(false), remove.reset())}
        onConfirm={() => remove.mutate()}
      >
        <p>{whatDeletingStops(attributes['var-count'])} Runs already created keep the values they were given.</p>
        {canRestore ? (
          <p>The organization's owners can restore it from its history.</p>
        ) : (
          <p className="warning">
            <strong>This token cannot undo it:</strong> only the organization's owners can restore a deleted set.
          </p>
        )}
        <FormError error={remove.error} fields={[]} />
      </ConfirmDialog>
    </>
  );
}

/**
 * A set that answers 404: deleted, or never readable by this token. Where the caller may restore
 * deleted sets (or the organization is not known yet), the set's history is asked for: a deleted
 * set's names its organization, and holds Restore.
 */
function NoSet({ id }: { id: string }) {
  const shownOrganization = useOrganizationOfPage() ?? undefined;
  const mayRestore = useCanRestoreDeletedSets(shownOrganization);
  const versions = useVarsetVersions(id, { number: 1, size: 1 }, shownOrganization === undefined || mayRestore);
  const newest = versions.data?.data[0];
  useOrganizationInNav(newest ? related(newest, 'organization')?.id : undefined);
  if (!newest) {
    return (
      <>
        <h1 tabIndex={-1}>Variable set</h1>
        <p className="notice">No variable set here, or this token may not see it.</p>
      </>
    );
  }
  return (
    <>
      <h1 tabIndex={-1}>{newest.attributes['varset-name']} (deleted)</h1>
      <p className="notice">
        This set was deleted. <Link to={`/varsets/${id}/history`}>Its history</Link> is kept, where it can be restored
        as it was at one of its versions.
      </p>
    </>
  );
}

function whatDeletingStops(variables: number): string {
  if (variables === 0) return 'It holds no variables, so no workspace loses a value.';
  if (variables === 1) return 'Its one variable stops applying to every workspace it reaches.';
  return `Its ${variables} variables stop applying to every workspace it reaches.`;
}

function AppliedList({
  title,
  kind,
  ids,
  names,
}: {
  title: string;
  kind: 'projects' | 'workspaces';
  ids: string[];
  names: Map<string, string>;
}) {
  return (
    <>
      <h3>{title}</h3>
      {ids.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <ul>
          {ids.map((i) => (
            <li key={i}>
              {names.has(`${kind}/${i}`) ? (
                <Link to={`/${kind}/${i}`}>{names.get(`${kind}/${i}`)}</Link>
              ) : (
                <span className="muted">a {kind === 'projects' ? 'project' : 'workspace'} you cannot see</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
