import { sql } from 'kysely';
import type { Scope } from '../auth/list-scopes.js';
import { compiledOnce } from '../db/compiled-once.js';
import { byCodePoint } from '../db/order.js';
import { fetchPage } from '../db/page.js';
import { contains, searchable } from '../db/search.js';
import type { Db, Trx } from '../db/transaction.js';
import type { Page } from '../common/page.js';
import {
  ORGANIZATION_COLUMNS,
  splitOrganization,
  type ExecutionMode,
  type Organization,
} from '../organizations/model.js';
import { PROJECT_COLUMNS, toProject, type Project, type ProjectOrder } from './model.js';

const projectWithOrganization = compiledOnce((db, id: string) =>
  db
    .selectFrom('projects')
    .innerJoin('organizations', 'organizations.id', 'projects.organization_id')
    .innerJoin('organization_versions', 'organization_versions.organization_id', 'projects.organization_id')
    .select(PROJECT_COLUMNS)
    .select(ORGANIZATION_COLUMNS)
    .select('organization_versions.version as organization_version')
    .where('projects.id', '=', id),
);

/** A project with its organization and the organization's version (migration 0007, which the response cache reads), in one statement. */
export async function findProjectWithOrganization(
  db: Db,
  id: string,
): Promise<{ project: Project; organization: Organization; organizationVersion: number } | undefined> {
  const [row] = await projectWithOrganization(db, id);
  if (!row) return undefined;
  const { row: project, organization } = splitOrganization(row);
  const { organization_version, ...columns } = project;
  return { project: toProject(columns), organization, organizationVersion: Number(organization_version) };
}

export async function projectNameTaken(db: Db, organizationId: string, name: string): Promise<boolean> {
  return (
    (await db
      .selectFrom('projects')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('name', '=', name)
      .executeTakeFirst()) !== undefined
  );
}

export async function hasWorkspaces(db: Db, projectId: string): Promise<boolean> {
  return (
    (await db.selectFrom('workspaces').select('id').where('project_id', '=', projectId).limit(1).executeTakeFirst()) !==
    undefined
  );
}

export interface ProjectFilter {
  search?: string | undefined;
  names?: string[] | undefined;
  /** Key/value bindings (value '' for any value) a project must all have. */
  tagged?: { key: string; value: string }[] | undefined;
  /** What the caller may see: every project, or those listed. */
  visible: Exclude<Scope<{ projectIds: string[] }>, 'none'>;
  /** Only projects in each of these lists too (what the caller may do on them). */
  within?: string[][] | undefined;
  order: ProjectOrder;
}

export async function listProjects(
  db: Db,
  organizationId: string,
  filter: ProjectFilter,
  page: Page,
): Promise<{ rows: Project[]; total: number }> {
  let base = db.selectFrom('projects').where('organization_id', '=', organizationId);
  if (filter.search !== undefined) base = base.where(contains(sql.ref('search_name'), filter.search));
  if (filter.names !== undefined) base = base.where('name', 'in', filter.names.length ? filter.names : ['']);
  for (const { key, value } of filter.tagged ?? []) {
    base = base.where(({ exists, selectFrom }) => {
      let bound = selectFrom('tag_bindings')
        .select('tag_bindings.id')
        .whereRef('tag_bindings.project_id', '=', 'projects.id')
        .where('tag_bindings.key', '=', key);
      if (value !== '') bound = bound.where('tag_bindings.value', '=', value);
      return exists(bound);
    });
  }
  if (filter.visible !== 'all') base = base.where('id', 'in', [...filter.visible.projectIds, '']);
  for (const ids of filter.within ?? []) base = base.where('id', 'in', [...ids, '']);
  const { rows, total } = await fetchPage(db, base, page, (q) => {
    const selected = q.select(PROJECT_COLUMNS);
    if (filter.order === 'newest') return selected.orderBy('created_at', 'desc').orderBy('id', 'desc');
    const direction = filter.order === '-name' ? 'desc' : 'asc';
    return selected.orderBy(byCodePoint(db, 'name'), direction).orderBy('id', direction);
  });
  return { rows: rows.map(toProject), total };
}

/** The projects with these ids, in one statement. */
export async function findProjectsById(db: Db, ids: string[]): Promise<Project[]> {
  if (ids.length === 0) return [];
  return (await db.selectFrom('projects').select(PROJECT_COLUMNS).where('id', 'in', ids).execute()).map(toProject);
}

export async function insertProject(trx: Trx, project: Project): Promise<void> {
  await trx
    .insertInto('projects')
    .values({ ...project, search_name: searchable(project.name) })
    .execute();
}

/** Projects of an organization that follow its execution mode take the new one. */
export async function followExecutionMode(trx: Trx, organizationId: string, mode: ExecutionMode): Promise<void> {
  await trx
    .updateTable('projects')
    .set({ default_execution_mode: mode })
    .where('organization_id', '=', organizationId)
    .where('execution_mode_overwritten', '=', false)
    .where('default_execution_mode', '!=', mode)
    .execute();
}

export async function updateProject(trx: Trx, project: Project): Promise<void> {
  await trx
    .updateTable('projects')
    .set({
      name: project.name,
      search_name: searchable(project.name),
      description: project.description,
      auto_destroy_activity_duration: project.auto_destroy_activity_duration,
      default_execution_mode: project.default_execution_mode,
      execution_mode_overwritten: project.execution_mode_overwritten,
    })
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
  return (
    await db
      .selectFrom('projects')
      .select(PROJECT_COLUMNS)
      .where('organization_id', '=', organizationId)
      .where('id', 'in', ids)
      .orderBy('id')
      .execute()
  ).map(toProject);
}
