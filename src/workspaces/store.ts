import { sql } from 'kysely';
import type { Scope } from '../auth/policy.js';
import { fetchPage } from '../db/page.js';
import { contains, searchable } from '../db/search.js';
import type { Db, Trx } from '../db/transaction.js';
import type { Page } from '../jsonapi/query.js';
import { ORGANIZATION_COLUMNS, splitOrganization, type Organization } from '../organizations/model.js';
import type { Workspace, WorkspaceLocator } from './model.js';


const COLUMNS = [
  'workspaces.id',
  'workspaces.organization_id',
  'workspaces.project_id',
  'workspaces.name',
  'workspaces.description',
  'workspaces.created_at',
  'workspaces.updated_at',
] as const;

/** A workspace with its organization, in one statement. */
export async function findWorkspaceWithOrganization(db: Db, where: WorkspaceLocator): Promise<{ workspace: Workspace; organization: Organization } | undefined> {
  const query = db
    .selectFrom('workspaces')
    .innerJoin('organizations', 'organizations.id', 'workspaces.organization_id')
    .select(COLUMNS)
    .select(ORGANIZATION_COLUMNS);
  const row = await ('id' in where
    ? query.where('workspaces.id', '=', where.id)
    : query.where('organizations.name', '=', where.organizationName).where('workspaces.name', '=', where.name)
  ).executeTakeFirst();
  if (!row) return undefined;
  const { row: workspace, organization } = splitOrganization(row);
  return { workspace, organization };
}

export async function workspaceNameTaken(db: Db, organizationId: string, name: string): Promise<boolean> {
  return (await db.selectFrom('workspaces').select('id').where('organization_id', '=', organizationId).where('name', '=', name).executeTakeFirst()) !== undefined;
}

/** Whether the organization has this project. */
export async function organizationHasProject(db: Db, organizationId: string, projectId: string): Promise<boolean> {
  return (await db.selectFrom('projects').select('id').where('id', '=', projectId).where('organization_id', '=', organizationId).executeTakeFirst()) !== undefined;
}

/** The organization's default project; undefined once the organization is gone. */
export async function defaultProjectId(db: Db, organizationId: string): Promise<string | undefined> {
  return (await db.selectFrom('projects').select('id').where('organization_id', '=', organizationId).where('is_default', '=', true).executeTakeFirst())?.id;
}

export interface WorkspaceFilter {
  search?: string | undefined;
  projectId?: string | undefined;
  /** What the caller may see: every workspace, or those granted and those of the granted projects. */
  visible: Exclude<Scope<{ workspaceIds: string[]; projectIds: string[] }>, 'none'>;
}

export async function listWorkspaces(db: Db, organizationId: string, filter: WorkspaceFilter, page: Page): Promise<{ rows: Workspace[]; total: number }> {
  let base = db.selectFrom('workspaces').where('organization_id', '=', organizationId);
  if (filter.search !== undefined) base = base.where(contains(sql.ref('search_name'), filter.search));
  if (filter.projectId !== undefined) base = base.where('project_id', '=', filter.projectId);
  const visible = filter.visible;
  if (visible !== 'all') {
    base = base.where((eb) => eb.or([eb('id', 'in', [...visible.workspaceIds, '']), eb('project_id', 'in', [...visible.projectIds, ''])]));
  }
  return fetchPage(db, base, page, (q) => q.select(COLUMNS).orderBy('name'));
}

export async function insertWorkspace(trx: Trx, workspace: Workspace): Promise<void> {
  await trx.insertInto('workspaces').values({ ...workspace, search_name: searchable(workspace.name) }).execute();
}

export async function updateWorkspace(trx: Trx, workspace: Workspace): Promise<void> {
  await trx
    .updateTable('workspaces')
    .set({ name: workspace.name, search_name: searchable(workspace.name), description: workspace.description, project_id: workspace.project_id, updated_at: workspace.updated_at })
    .where('id', '=', workspace.id)
    .execute();
}

/** Removes the workspace from the sets owned by a project other than its own: such a set reaches only its project's workspaces. */
export async function leaveOtherProjectsSets(trx: Trx, workspace: Workspace): Promise<void> {
  await trx
    .deleteFrom('varset_workspaces')
    .where('workspace_id', '=', workspace.id)
    .where('varset_id', 'in', (eb) => eb.selectFrom('varsets').select('id').where('project_id', 'is not', null).where('project_id', '<>', workspace.project_id))
    .execute();
}

/** Deletes a workspace and everything that belongs to it (foreign key cascades). */
export async function deleteWorkspace(trx: Trx, id: string): Promise<void> {
  await trx.deleteFrom('workspaces').where('id', '=', id).execute();
}
