import type { Context } from '../auth/context.js';
import { listOrganizationProjects } from '../projects/service.js';
import type { Variable } from '../variables/model.js';
import type { VarsetView } from '../varsets/model.js';
import { pageOfOrganizationVarsets } from '../varsets/service.js';
import { listWorkspaceVariables } from '../workspace-variables/service.js';
import { listOrganizationWorkspaces } from '../workspaces/service.js';

/** The target organization as an import compares with its source, read through the services. */
export interface TargetOrganization {
  projectIds: Map<string, string>;
  workspaceIds: Map<string, string>;
  sets: Map<string, VarsetView>;
}

async function everyPage<T>(read: (number: number) => Promise<{ rows: T[]; total: number }>): Promise<T[]> {
  const all: T[] = [];
  for (let number = 1; ; number++) {
    const { rows, total } = await read(number);
    all.push(...rows);
    if (rows.length === 0 || all.length >= total) return all;
  }
}

export async function readTarget(ctx: Context, organization: string): Promise<TargetOrganization> {
  const page = (number: number) => ({ number, size: 100 });
  const projects = await everyPage((n) => listOrganizationProjects(ctx, organization, { permitted: [], order: 'name' }, page(n)));
  const workspaces = await everyPage((n) => listOrganizationWorkspaces(ctx, organization, { sort: 'name' }, page(n)));
  const sets = await everyPage(async (n) => {
    const { views, total } = await pageOfOrganizationVarsets(ctx, organization, page(n));
    return { rows: views, total };
  });
  return {
    projectIds: new Map(projects.map((p) => [p.name, p.id])),
    workspaceIds: new Map(workspaces.map((w) => [w.name, w.id])),
    sets: new Map(sets.map((view) => [view.varset.name, view])),
  };
}

export function workspaceVariables(ctx: Context, workspaceId: string): Promise<Variable[]> {
  return listWorkspaceVariables(ctx, workspaceId);
}
