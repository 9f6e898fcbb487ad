import type { Context } from '../auth/context.js';
import { listOrganizationProjects } from '../projects/service.js';
import type { Variable } from '../variables/model.js';
import type { VarsetView } from '../varsets/model.js';
import { pageOfOrganizationVarsets } from '../varsets/service.js';
import { listWorkspaceVariables } from '../workspace-variables/service.js';
import { describeWorkspaces, listOrganizationWorkspaces } from '../workspaces/service.js';
import { everyPage } from '../common/page.js';

/** The target organization as an import compares with its source, read through the services. */
export interface TargetOrganization {
  projectIds: Map<string, string>;
  workspaceIds: Map<string, string>;
  /** Each workspace's tag names, by the workspace's id. */
  workspaceTags: Map<string, string[]>;
  sets: Map<string, VarsetView>;
}

export async function readTarget(ctx: Context, organization: string): Promise<TargetOrganization> {
  const projects = await everyPage((page) =>
    listOrganizationProjects(ctx, organization, { permitted: [], order: 'name' }, page),
  );
  let found: Awaited<ReturnType<typeof listOrganizationWorkspaces>>['organization'] | undefined;
  const workspaces = await everyPage(async (page) => {
    const listed = await listOrganizationWorkspaces(ctx, organization, { sort: 'name' }, page);
    found = listed.organization;
    return listed;
  });
  const { views } = workspaces.length === 0 ? { views: [] } : await describeWorkspaces(ctx, found!, workspaces);
  const sets = await everyPage(async (page) => {
    const { views, total } = await pageOfOrganizationVarsets(ctx, organization, page);
    return { rows: views, total };
  });
  return {
    projectIds: new Map(projects.map((p) => [p.name, p.id])),
    workspaceIds: new Map(workspaces.map((w) => [w.name, w.id])),
    workspaceTags: new Map(views.map((view) => [view.workspace.id, view.extras.tagNames])),
    sets: new Map(sets.map((view) => [view.varset.name, view])),
  };
}

export function workspaceVariables(ctx: Context, workspaceId: string): Promise<Variable[]> {
  return listWorkspaceVariables(ctx, workspaceId);
}
