import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useProject, useVarsetList, useWorkspace, useWorkspaceRuns } from '../api/hooks';
import { related, relatedIds, type Varset } from '../api/types';
import { ProjectName, VarsetCard } from '../components/Badges';
import { RunGets, useOverriddenOwnVariables } from '../components/RunGets';
import { LoadError } from '../components/errors';
import { Pager } from '../components/Pager';
import { VariableEditor } from '../components/VariableEditor';
import { useOrganizationInNav } from '../components/frame';
import { Listing } from '../components/Listing';

/** A workspace: what a run of it gets first, then its own variables, the sets that reach it and how, its runs. */
export function WorkspacePage() {
  const id = useParams().id!;
  const document = useWorkspace(id);
  const workspace = document.data?.data;
  const org = workspace ? related(workspace, 'organization')?.id : undefined;
  useOrganizationInNav(org);
  const projectId = workspace ? related(workspace, 'project')?.id : undefined;
  const project = useProject(projectId ?? null);
  const projectName = project.data?.data.attributes.name;
  const canWrite = workspace?.attributes.permissions['can-update-variable'] === true;
  const overriddenBy = useOverriddenOwnVariables(id);
  if (document.error) {
    return (
      <>
        <h1 tabIndex={-1}>Workspace</h1>
        <LoadError error={document.error} what="workspace" />
      </>
    );
  }
  if (!workspace) return <h1 tabIndex={-1}>Loading…</h1>;
  return (
    <>
      <p className="crumbs">
        <Link to={`/organizations/${encodeURIComponent(org!)}/workspaces`}>Workspaces of {org}</Link>
        {projectId && (
          <>
            {' · '}project <ProjectName id={projectId} />
          </>
        )}
      </p>
      <h1 tabIndex={-1}>Workspace {workspace.attributes.name}</h1>
      <RunGets place={{ workspaceId: id, projectId, projectName }} />
      <VariableEditor
        owner={{ kind: 'workspaces', id }}
        canWrite={canWrite}
        title="Workspace variables"
        addOnDemand
        overriddenBy={overriddenBy}
      />
      <WorkspaceVarsets id={id} projectId={projectId} projectName={projectName} />
      <WorkspaceRuns id={id} />
    </>
  );
}

/** The sets that reach the workspace, and each way they do. */
function WorkspaceVarsets({
  id,
  projectId,
  projectName,
}: {
  id: string;
  projectId: string | undefined;
  projectName: string | undefined;
}) {
  const [page, setPage] = useState(1);
  const list = useVarsetList('workspaces', id, { number: page, size: 20 });
  const ways = (varset: Varset): string[] => {
    const found: string[] = [];
    if (varset.attributes.global) found.push('global');
    if (projectId && relatedIds(varset, 'projects').includes(projectId))
      found.push(projectName ? `through its project '${projectName}'` : 'through its project');
    if (relatedIds(varset, 'workspaces').includes(id)) found.push('directly');
    return found;
  };
  return (
    <section aria-labelledby="ws-sets-title">
      <h2 id="ws-sets-title">Variable sets that apply</h2>
      <Listing list={list} what="variable sets" empty="No set applies to this workspace.">
        {(items) => (
          <ul className="cards" aria-label="Variable sets that apply">
            {items.map((varset) => (
              <VarsetCard key={varset.id} varset={varset}>
                <p className="counts">Applies {ways(varset).join(', ') || 'through its project'}</p>
              </VarsetCard>
            ))}
          </ul>
        )}
      </Listing>
      <Pager pagination={list.data?.meta.pagination} onPage={setPage} label="Variable sets" />
    </section>
  );
}

function WorkspaceRuns({ id }: { id: string }) {
  const [page, setPage] = useState(1);
  const list = useWorkspaceRuns(id, page);
  return (
    <section aria-labelledby="runs-title">
      <h2 id="runs-title">Runs</h2>
      <Listing list={list} what="runs" empty="No runs.">
        {(items) => (
          <ul className="cards" aria-label="Runs">
            {items.map((run) => (
              <li key={run.id}>
                <Link to={`/runs/${run.id}`}>{run.attributes.message}</Link>{' '}
                <span className="badge">{run.attributes.status}</span>{' '}
                <span className="muted">{new Date(run.attributes['created-at']).toLocaleString()}</span>
              </li>
            ))}
          </ul>
        )}
      </Listing>
      <Pager pagination={list.data?.meta.pagination} onPage={setPage} label="Runs" />
    </section>
  );
}
