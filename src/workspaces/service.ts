import type { Context } from '../context.js';
import { ensure, workspaceListScope, type Action } from '../auth/policy.js';
import { isUniqueViolation } from '../db/connect.js';
import { searchable } from '../db/search.js';
import { withOrganizationLocked } from '../db/transaction.js';
import { newId, now } from '../ids.js';
import { notFound } from '../jsonapi/errors.js';
import type { NameRules, ResourceInput } from '../jsonapi/payload.js';
import type { Page } from '../jsonapi/query.js';
import { getOrganization } from '../organizations/service.js';
import { type Organization, ORGANIZATION_COLUMNS, splitOrganization } from '../organizations/store.js';
import { listWorkspaces, type Workspace, type WorkspaceFilter } from './store.js';

const NAME_RULES: NameRules = { maxLength: 90, pattern: /^[A-Za-z0-9_-]+$/, allowed: 'letters, numbers, "-" and "_"' };
const DESCRIPTION_MAX = 512;

export interface WorkspaceWithOrganization {
  workspace: Workspace;
  organization: Organization;
}

/** A workspace (by id, or by organization and name) if the subject may do `action` on it; otherwise the 404 of a missing one. */
export async function getWorkspace(
  ctx: Context,
  where: { id: string } | { organizationName: string; name: string },
  action: Action = 'workspace:read',
): Promise<WorkspaceWithOrganization> {
  let query = ctx.store.db
    .selectFrom('workspaces')
    .innerJoin('organizations', 'organizations.id', 'workspaces.organization_id')
    .selectAll('workspaces')
    .select(ORGANIZATION_COLUMNS);
  query = 'id' in where ? query.where('workspaces.id', '=', where.id) : query.where('organizations.name', '=', where.organizationName).where('workspaces.name', '=', where.name);
  const row = await query.executeTakeFirst();
  if (!row) throw notFound();
  const { row: workspace, organization } = splitOrganization(row);
  ensure(ctx.subject, action, { organizationId: workspace.organization_id, projectId: workspace.project_id, workspaceId: workspace.id });
  return { workspace, organization };
}

export async function listOrganizationWorkspaces(ctx: Context, organizationName: string, filter: Omit<WorkspaceFilter, 'visible'>, page: Page) {
  const organization = await getOrganization(ctx, organizationName);
  // A team lists the workspaces it can read.
  const visible = workspaceListScope(ctx.subject, organization.id);
  if (visible === 'none') throw notFound();
  return { organization, ...(await listWorkspaces(ctx.store.db, organization.id, { ...filter, visible }, page)) };
}

/** The project a workspace body names; one that is missing or in another organization is a 404. */
async function readProjectId(ctx: Context, organization: Organization, input: ResourceInput): Promise<string | undefined> {
  const projectId = input.identifier('project', 'projects');
  if (projectId === undefined) return undefined;
  const project = await ctx.store.db
    .selectFrom('projects')
    .select('id')
    .where('id', '=', projectId)
    .where('organization_id', '=', organization.id)
    .executeTakeFirst();
  if (!project) throw notFound();
  return project.id;
}

export async function createWorkspace(ctx: Context, organizationName: string, input: ResourceInput): Promise<WorkspaceWithOrganization> {
  const organization = await getOrganization(ctx, organizationName);
  const projectId =
    (await readProjectId(ctx, organization, input)) ??
    (await ctx.store.db.selectFrom('projects').select('id').where('organization_id', '=', organization.id).where('is_default', '=', true).executeTakeFirstOrThrow()).id;
  ensure(ctx.subject, 'workspaces:create', { organizationId: organization.id, projectId });
  const name = input.name(true, NAME_RULES)!;
  const description = input.string('description', { maxLength: DESCRIPTION_MAX }) ?? '';
  const timestamp = now();
  const workspace: Workspace = { id: newId('ws'), organization_id: organization.id, project_id: projectId, name, description, created_at: timestamp, updated_at: timestamp };
  try {
    await ctx.store.db.insertInto('workspaces').values({ ...workspace, search_name: searchable(workspace.name) }).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw input.nameTaken();
    throw error;
  }
  return { workspace, organization };
}

export async function updateWorkspace(
  ctx: Context,
  where: { id: string } | { organizationName: string; name: string },
  input: ResourceInput,
): Promise<WorkspaceWithOrganization> {
  const found = await getWorkspace(ctx, where, 'workspace:update');
  const name = input.name(false, NAME_RULES);
  const description = input.string('description', { maxLength: DESCRIPTION_MAX });
  const projectId = await readProjectId(ctx, found.organization, input);
  if (projectId !== undefined && projectId !== found.workspace.project_id) {
    ensure(ctx.subject, 'workspace:move', { organizationId: found.organization.id, projectId });
  }
  const workspace: Workspace = {
    ...found.workspace,
    name: name ?? found.workspace.name,
    description: description ?? found.workspace.description,
    project_id: projectId ?? found.workspace.project_id,
    updated_at: now(),
  };
  try {
    await withOrganizationLocked(ctx.store, workspace.organization_id, async (trx) => {
      await trx
        .updateTable('workspaces')
        .set({ name: workspace.name, search_name: searchable(workspace.name), description: workspace.description, project_id: workspace.project_id, updated_at: workspace.updated_at })
        .where('id', '=', workspace.id)
        .execute();
      // A set owned by a project reaches only that project's workspaces: one that leaves the project leaves its sets.
      await trx
        .deleteFrom('varset_workspaces')
        .where('workspace_id', '=', workspace.id)
        .where('varset_id', 'in', (eb) => eb.selectFrom('varsets').select('id').where('project_id', 'is not', null).where('project_id', '<>', workspace.project_id))
        .execute();
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw input.nameTaken();
    throw error;
  }
  return { workspace, organization: found.organization };
}

/** Deletes a workspace and everything that belongs to it (assignments, runs, comments…), whatever is attached. */
export async function deleteWorkspace(ctx: Context, where: { id: string } | { organizationName: string; name: string }): Promise<void> {
  const { workspace } = await getWorkspace(ctx, where, 'workspace:delete');
  await withOrganizationLocked(ctx.store, workspace.organization_id, (trx) => trx.deleteFrom('workspaces').where('id', '=', workspace.id).execute());
}
