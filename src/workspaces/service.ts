import type { Context } from '../context.js';
import { ensure, workspaceListScope, type Action } from '../auth/policy.js';
import { transaction, withOrganizationLocked, type Trx } from '../db/transaction.js';
import { newId, now } from '../ids.js';
import { blankAttribute, nameTaken, notFound } from '../jsonapi/errors.js';
import type { Page } from '../jsonapi/query.js';
import type { Organization } from '../organizations/model.js';
import { getOrganization } from '../organizations/service.js';
import type { Workspace, WorkspaceChanges, WorkspaceLocator } from './model.js';
import * as store from './store.js';
import { locationOfWorkspace } from '../common/location.js';

export interface WorkspaceWithOrganization {
  workspace: Workspace;
  organization: Organization;
}

/** A workspace (by id, or by organization and name) if the subject may do `action` on it; otherwise the 404 of a missing one. */
export async function getWorkspace(ctx: Context, where: WorkspaceLocator, action: Action = 'workspace:read'): Promise<WorkspaceWithOrganization> {
  const found = await store.findWorkspaceWithOrganization(ctx.store.db, where);
  if (!found) throw notFound();
  const { workspace } = found;
  ensure(ctx.subject, action, locationOfWorkspace(workspace));
  return found;
}

export async function listOrganizationWorkspaces(ctx: Context, organizationName: string, filter: Omit<store.WorkspaceFilter, 'visible'>, page: Page) {
  const organization = await getOrganization(ctx, organizationName);
  // A team lists the workspaces it can read.
  const visible = workspaceListScope(ctx.subject, organization.id);
  if (visible === 'none') throw notFound();
  return { organization, ...(await store.listWorkspaces(ctx.store.db, organization.id, { ...filter, visible }, page)) };
}

/** The project a request names, or the organization's default one; one that is missing or in another organization is a 404. */
async function projectOf(trx: Trx, organization: Organization, projectId: string | undefined): Promise<string> {
  if (projectId === undefined) {
    const defaultProject = await store.defaultProjectId(trx, organization.id);
    if (defaultProject === undefined) throw notFound();
    return defaultProject;
  }
  if (!(await store.organizationHasProject(trx, organization.id, projectId))) throw notFound();
  return projectId;
}

export async function createWorkspace(ctx: Context, organizationName: string, changes: WorkspaceChanges): Promise<WorkspaceWithOrganization> {
  const organization = await getOrganization(ctx, organizationName);
  const workspace = await transaction(ctx.store, async (trx) => {
    const projectId = await projectOf(trx, organization, changes.projectId);
    ensure(ctx.subject, 'workspaces:create', { organizationId: organization.id, projectId });
    if (changes.name === undefined) throw blankAttribute('name');
    if (await store.workspaceNameTaken(trx, organization.id, changes.name)) throw nameTaken();
    const timestamp = now();
    const created: Workspace = {
      id: newId('ws'),
      organization_id: organization.id,
      project_id: projectId,
      name: changes.name,
      description: changes.description ?? '',
      created_at: timestamp,
      updated_at: timestamp,
    };
    await store.insertWorkspace(trx, created);
    return created;
  });
  return { workspace, organization };
}

/** Changes a workspace; one moved to another project leaves the sets its old project owns. */
export async function updateWorkspace(ctx: Context, where: WorkspaceLocator, changes: WorkspaceChanges): Promise<WorkspaceWithOrganization> {
  const found = await getWorkspace(ctx, where, 'workspace:update');
  const { organization } = found;
  const workspace = await withOrganizationLocked(ctx.store, organization.id, async (trx) => {
    const projectId = changes.projectId === undefined ? found.workspace.project_id : await projectOf(trx, organization, changes.projectId);
    if (projectId !== found.workspace.project_id) ensure(ctx.subject, 'workspace:move', { organizationId: organization.id, projectId });
    const updated: Workspace = {
      ...found.workspace,
      name: changes.name ?? found.workspace.name,
      description: changes.description ?? found.workspace.description,
      project_id: projectId,
      updated_at: now(),
    };
    if (updated.name !== found.workspace.name && (await store.workspaceNameTaken(trx, organization.id, updated.name))) throw nameTaken();
    await store.updateWorkspace(trx, updated);
    await store.leaveOtherProjectsSets(trx, updated);
    return updated;
  });
  return { workspace, organization };
}

/** Deletes a workspace and everything that belongs to it (assignments, runs, comments…), whatever is attached. */
export async function deleteWorkspace(ctx: Context, where: WorkspaceLocator): Promise<void> {
  const { workspace } = await getWorkspace(ctx, where, 'workspace:delete');
  await withOrganizationLocked(ctx.store, workspace.organization_id, (trx) => store.deleteWorkspace(trx, workspace.id));
}
