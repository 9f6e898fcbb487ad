import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useOrganizationChildren, useProject, useVarsetList } from '../api/hooks';
import { related } from '../api/types';
import { VarsetCard } from '../components/Badges';
import { LoadError } from '../components/errors';
import { Pager } from '../components/Pager';
import { useOrganizationInNav } from '../components/frame';
import { Listing } from '../components/Listing';

/** A project: the sets that reach it and its workspaces. */
export function ProjectPage() {
  const id = useParams().id!;
  const document = useProject(id);
  const project = document.data?.data;
  const org = project ? related(project, 'organization')?.id : undefined;
  useOrganizationInNav(org);
  const [setsPage, setSetsPage] = useState(1);
  const [workspacesPage, setWorkspacesPage] = useState(1);
  const sets = useVarsetList('projects', project ? id : null, { number: setsPage, size: 20 });
  const workspaces = useOrganizationChildren(
    org ?? null,
    'workspaces',
    { 'filter[project][id]': id },
    { number: workspacesPage, size: 20 },
  );
  if (document.error) {
    return (
      <>
        <h1 tabIndex={-1}>Project</h1>
        <LoadError error={document.error} what="project" />
      </>
    );
  }
  if (!project) return <h1 tabIndex={-1}>Loading…</h1>;
  return (
    <>
      <p className="crumbs">
        <Link to={`/organizations/${encodeURIComponent(org!)}/projects`}>Projects of {org}</Link>
      </p>
      <h1 tabIndex={-1}>Project {project.attributes.name}</h1>
      {project.attributes.description && <p>{project.attributes.description}</p>}
      <section aria-labelledby="project-sets-title">
        <h2 id="project-sets-title">Variable sets</h2>
        <Listing list={sets} what="variable sets" empty="No set applies to this project.">
          {(items) => (
            <ul className="cards" aria-label="Variable sets of the project">
              {items.map((varset) => (
                <VarsetCard key={varset.id} varset={varset} />
              ))}
            </ul>
          )}
        </Listing>
        <Pager pagination={sets.data?.meta.pagination} onPage={setSetsPage} label="Variable sets" />
      </section>
      <section aria-labelledby="project-workspaces-title">
        <h2 id="project-workspaces-title">Workspaces</h2>
        <Listing list={workspaces} what="workspaces" empty="No workspaces.">
          {(items) => (
            <ul className="cards" aria-label="Workspaces of the project">
              {items.map((workspace) => (
                <li key={workspace.id}>
                  <Link to={`/workspaces/${workspace.id}`}>{workspace.attributes.name}</Link>
                </li>
              ))}
            </ul>
          )}
        </Listing>
        <Pager pagination={workspaces.data?.meta?.pagination} onPage={setWorkspacesPage} label="Workspaces" />
      </section>
    </>
  );
}
