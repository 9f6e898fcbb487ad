import type { Context } from '../context.js';
import { ensure, projectListScope, type Action } from '../auth/policy.js';
import { isUniqueViolation } from '../db/connect.js';
import { searchable } from '../db/search.js';
import { withOrganizationLocked } from '../db/transaction.js';
import { newId, now } from '../ids.js';
import { conflict, notFound, unprocessable } from '../jsonapi/errors.js';
import type { NameRules, ResourceInput } from '../jsonapi/payload.js';
import type { Page } from '../jsonapi/query.js';
import { getOrganization } from '../organizations/service.js';
import { type Organization, ORGANIZATION_COLUMNS, splitOrganization } from '../organizations/store.js';
import { listProjects, type Project, type ProjectFilter } from './store.js';

const NAME_RULES: NameRules = { maxLength: 40, pattern: /^[A-Za-z0-9 _-]+$/, allowed: 'letters, numbers, spaces, "-" and "_"' };
const DESCRIPTION_MAX = 512;

/** A project with its organization, if the subject may do `action` on it; otherwise the 404 of a missing one. */
export async function getProject(ctx: Context, id: string, action: Action = 'project:read'): Promise<{ project: Project; organization: Organization }> {
  const row = await ctx.store.db
    .selectFrom('projects')
    .innerJoin('organizations', 'organizations.id', 'projects.organization_id')
    .selectAll('projects')
    .select(ORGANIZATION_COLUMNS)
    .where('projects.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound();
  const { row: project, organization } = splitOrganization(row);
  ensure(ctx.subject, action, { organizationId: project.organization_id, projectId: project.id });
  return { project, organization };
}

export async function listOrganizationProjects(ctx: Context, organizationName: string, filter: Omit<ProjectFilter, 'visible'>, page: Page) {
  const organization = await getOrganization(ctx, organizationName);
  // A team lists the projects it can read.
  const visible = projectListScope(ctx.subject, organization.id);
  if (visible === 'none') throw notFound();
  return { organization, ...(await listProjects(ctx.store.db, organization.id, { ...filter, visible }, page)) };
}

export async function createProject(ctx: Context, organizationName: string, input: ResourceInput): Promise<{ project: Project; organization: Organization }> {
  const organization = await getOrganization(ctx, organizationName);
  ensure(ctx.subject, 'projects:create', { organizationId: organization.id });
  const project: Project = {
    id: newId('prj'),
    organization_id: organization.id,
    name: input.name(true, NAME_RULES)!,
    description: input.string('description', { maxLength: DESCRIPTION_MAX }) ?? '',
    is_default: false,
    created_at: now(),
  };
  try {
    await ctx.store.db.insertInto('projects').values({ ...project, search_name: searchable(project.name) }).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw input.nameTaken();
    throw error;
  }
  return { project, organization };
}

export async function updateProject(ctx: Context, id: string, input: ResourceInput): Promise<{ project: Project; organization: Organization }> {
  const found = await getProject(ctx, id, 'project:update');
  const name = input.name(false, NAME_RULES);
  const description = input.string('description', { maxLength: DESCRIPTION_MAX });
  const project = { ...found.project, name: name ?? found.project.name, description: description ?? found.project.description };
  try {
    await withOrganizationLocked(ctx.store, project.organization_id, (trx) =>
      trx.updateTable('projects').set({ name: project.name, search_name: searchable(project.name), description: project.description }).where('id', '=', id).execute(),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw input.nameTaken();
    throw error;
  }
  return { project, organization: found.organization };
}

/**
 * Deletes a project, with the variable sets it owns and its set assignments. The default
 * project and a project that still holds workspaces cannot be deleted.
 */
export async function deleteProject(ctx: Context, id: string): Promise<void> {
  const { project } = await getProject(ctx, id, 'project:delete');
  if (project.is_default) throw unprocessable('the default project of an organization cannot be deleted');
  await withOrganizationLocked(ctx.store, project.organization_id, async (trx) => {
    const workspace = await trx.selectFrom('workspaces').select('id').where('project_id', '=', id).limit(1).executeTakeFirst();
    if (workspace) throw conflict('the project still contains workspaces: move or delete them first');
    await trx.deleteFrom('projects').where('id', '=', id).execute();
  });
}
