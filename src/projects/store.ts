import { sql } from 'kysely';
import type { Scope } from '../auth/policy.js';
import { fetchPage } from '../db/page.js';
import { contains, searchable } from '../db/search.js';
import type { Db, Trx } from '../db/transaction.js';
import type { Page } from '../jsonapi/query.js';
import { ORGANIZATION_COLUMNS, splitOrganization, type Organization } from '../organizations/model.js';
import type { Project } from './model.js';


const COLUMNS = ['projects.id', 'projects.organization_id', 'projects.name', 'projects.description', 'projects.is_default', 'projects.created_at'] as const;

/** A project with its organization, in one statement. */
export async function findProjectWithOrganization(db: Db, id: string): Promise<{ project: Project; organization: Organization } | undefined> {
  const row = await db
    .selectFrom('projects')
    .innerJoin('organizations', 'organizations.id', 'projects.organization_id')
    .select(COLUMNS)
    .select(ORGANIZATION_COLUMNS)
    .where('projects.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { row: project, organization } = splitOrganization(row);
  return { project, organization };
}

export async function projectNameTaken(db: Db, organizationId: string, name: string): Promise<boolean> {
  return (await db.selectFrom('projects').select('id').where('organization_id', '=', organizationId).where('name', '=', name).executeTakeFirst()) !== undefined;
}

export async function hasWorkspaces(db: Db, projectId: string): Promise<boolean> {
  return (await db.selectFrom('workspaces').select('id').where('project_id', '=', projectId).limit(1).executeTakeFirst()) !== undefined;
}

export interface ProjectFilter {
  search?: string | undefined;
  names?: string[] | undefined;
  /** What the caller may see: every project, or those listed. */
  visible: Exclude<Scope<{ projectIds: string[] }>, 'none'>;
}

export async function listProjects(db: Db, organizationId: string, filter: ProjectFilter, page: Page): Promise<{ rows: Project[]; total: number }> {
  let base = db.selectFrom('projects').where('organization_id', '=', organizationId);
  if (filter.search !== undefined) base = base.where(contains(sql.ref('search_name'), filter.search));
  if (filter.names !== undefined) base = base.where('name', 'in', filter.names.length ? filter.names : ['']);
  if (filter.visible !== 'all') base = base.where('id', 'in', [...filter.visible.projectIds, '']);
  return fetchPage(db, base, page, (q) => q.select(COLUMNS).orderBy('name').orderBy('id'));
}

export async function insertProject(trx: Trx, project: Project): Promise<void> {
  await trx.insertInto('projects').values({ ...project, search_name: searchable(project.name) }).execute();
}

export async function updateProject(trx: Trx, project: Project): Promise<void> {
  await trx
    .updateTable('projects')
    .set({ name: project.name, search_name: searchable(project.name), description: project.description })
    .where('id', '=', project.id)
    .execute();
}

/** Deletes a project; the sets it owns and its assignments go with it (foreign key cascades). */
export async function deleteProject(trx: Trx, id: string): Promise<void> {
  await trx.deleteFrom('projects').where('id', '=', id).execute();
}

/** Projects of an organization by id, those that exist. */
export async function findProjects(db: Db, organizationId: string, ids: string[]): Promise<Project[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('projects').select(COLUMNS).where('organization_id', '=', organizationId).where('id', 'in', ids).orderBy('id').execute();
}
