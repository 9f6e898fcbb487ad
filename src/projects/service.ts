import type { Context } from '../auth/context.js';
import { can, ensure } from '../auth/decisions.js';
import { projectActionScope, projectListScope } from '../auth/list-scopes.js';
import type { Action } from '../auth/actions.js';
import { withOrganizationLocked, type Trx } from '../db/transaction.js';
import { recordAuditEvent } from '../audit/service.js';
import { newId, now } from '../common/ids.js';
import { NotFound, Taken, Unprocessable, Conflict, blank } from '../common/errors.js';
import { events } from '../events/registry.js';
import type { Page } from '../common/page.js';
import type { ExecutionMode, Organization, OrganizationRecord } from '../organizations/model.js';
import { getOrganization, organizationExecutionMode } from '../organizations/service.js';
import { DEFAULT_PROJECT_NAME, type Project, type ProjectChanges } from './model.js';
import { executionModeAfter } from './settings.js';
import { replaceBindings } from '../tag-bindings/service.js';
import * as store from './store.js';

export interface ProjectWithOrganization {
  project: Project;
  organization: Organization;
}

/**
 * A project with its organization (and the organization's version, read in the same statement),
 * if the subject may do `action` on it; otherwise the 404 of a missing one.
 */
export async function getProject(
  ctx: Context,
  id: string,
  action: Action = 'project:read',
): Promise<ProjectWithOrganization & { organizationVersion: number }> {
  const found = await store.findProjectWithOrganization(ctx.store.db, id);
  if (!found) throw new NotFound();
  ensure(ctx.subject, action, { organizationId: found.project.organization_id, projectId: found.project.id });
  return found;
}

/** Filters on what the caller may do: `filter[permissions][update]` and `filter[permissions][create-workspace]`. */
export type ProjectPermissionFilter = 'project:update' | 'workspaces:create';

export async function listOrganizationProjects(
  ctx: Context,
  organizationName: string,
  filter: Omit<store.ProjectFilter, 'visible' | 'within'> & { permitted: ProjectPermissionFilter[] },
  page: Page,
) {
  const organization = await getOrganization(ctx, organizationName);
  // A team lists the projects it can read.
  const visible = projectListScope(ctx.subject, organization.id);
  if (visible === 'none') throw new NotFound();
  const within: string[][] = [];
  for (const action of filter.permitted) {
    const scope = projectActionScope(ctx.subject, organization.id, action);
    if (scope !== 'all') within.push(scope === 'none' ? [] : scope.projectIds);
  }
  return {
    organization,
    ...(await store.listProjects(ctx.store.db, organization.id, { ...filter, visible, within }, page)),
  };
}

export async function createProject(
  ctx: Context,
  organizationName: string,
  changes: ProjectChanges,
): Promise<ProjectWithOrganization> {
  const organization = await getOrganization(ctx, organizationName);
  ensure(ctx.subject, 'projects:create', { organizationId: organization.id });
  if (changes.name === undefined) throw blank('name');
  const project: Project = {
    id: newId('prj'),
    organization_id: organization.id,
    name: changes.name,
    description: changes.description ?? '',
    is_default: false,
    auto_destroy_activity_duration: changes.autoDestroyActivityDuration ?? null,
    ...executionModeAfter(FOLLOWING, changes),
    created_at: now(),
  };
  await withOrganizationLocked(ctx.store, organization.id, async (trx) => {
    if (await store.projectNameTaken(trx, organization.id, project.name)) throw new Taken('name');
    await followOrganization(trx, project);
    await store.insertProject(trx, project);
    if (changes.tagBindings)
      await replaceBindings(
        trx,
        { kind: 'project', id: project.id, organizationId: organization.id },
        changes.tagBindings,
      );
    recordAuditEvent(trx, ctx, {
      organizationId: organization.id,
      type: 'project',
      id: project.id,
      action: 'create',
      meta: { name: project.name },
    });
  });
  return { project, organization };
}

/** The project an organization is created with, in the organization's creation transaction. */
export async function createDefaultProject(trx: Trx, organization: OrganizationRecord): Promise<void> {
  await store.insertProject(trx, {
    id: organization.default_project_id,
    organization_id: organization.id,
    name: DEFAULT_PROJECT_NAME,
    description: '',
    is_default: true,
    auto_destroy_activity_duration: null,
    default_execution_mode: organization.settings['default-execution-mode'],
    execution_mode_overwritten: false,
    created_at: organization.created_at,
  });
}

/** Projects that follow their organization's execution mode take its new one, in the organization's update. */
export async function followOrganizationSettings(trx: Trx, organization: OrganizationRecord): Promise<void> {
  await store.followExecutionMode(trx, organization.id, organization.settings['default-execution-mode']);
}

/** A new project follows its organization's execution mode until it is given one. */
const FOLLOWING = { default_execution_mode: 'remote', execution_mode_overwritten: false } as const;

/** A project that follows its organization takes its mode, read under the organization's lock. */
async function followOrganization(trx: Trx, project: Project): Promise<void> {
  if (!project.execution_mode_overwritten)
    project.default_execution_mode = await organizationExecutionMode(trx, project.organization_id);
}

export async function updateProject(
  ctx: Context,
  id: string,
  changes: ProjectChanges,
): Promise<ProjectWithOrganization> {
  const found = await getProject(ctx, id, 'project:update');
  const project: Project = {
    ...found.project,
    name: changes.name ?? found.project.name,
    description: changes.description ?? found.project.description,
    auto_destroy_activity_duration:
      changes.autoDestroyActivityDuration === undefined
        ? found.project.auto_destroy_activity_duration
        : changes.autoDestroyActivityDuration,
    ...executionModeAfter(found.project, changes),
  };
  await withOrganizationLocked(ctx.store, project.organization_id, async (trx) => {
    if (
      project.name !== found.project.name &&
      (await store.projectNameTaken(trx, project.organization_id, project.name))
    )
      throw new Taken('name');
    await followOrganization(trx, project);
    await store.updateProject(trx, project);
    if (changes.tagBindings)
      await replaceBindings(
        trx,
        { kind: 'project', id: project.id, organizationId: project.organization_id },
        changes.tagBindings,
      );
    recordAuditEvent(trx, ctx, {
      organizationId: project.organization_id,
      type: 'project',
      id: project.id,
      action: 'update',
      meta: { name: project.name },
    });
  });
  return { project, organization: found.organization };
}

/** The default projects of organizations the caller reads, for `include=default-project`: those it may read, in one statement. */
export async function readableDefaultProjects(
  ctx: Context,
  organizations: { default_project_id: string }[],
): Promise<Project[]> {
  const projects = await store.findProjectsById(
    ctx.store.db,
    organizations.map((o) => o.default_project_id),
  );
  return projects.filter((p) =>
    can(ctx.subject, 'project:read', { organizationId: p.organization_id, projectId: p.id }),
  );
}

declare module '../events/registry.js' {
  interface DomainEvents {
    /** A project is about to be deleted, under its organization's lock, before the database's cascades remove what it owns. */
    'project.deleting': { trx: Trx; ctx: Context; projectId: string };
  }
}

/**
 * Deletes a project, with the variable sets it owns and its set assignments, once the features
 * that react to its deletion ('project.deleting') have, in its transaction.
 * The default project and a project that still holds workspaces cannot be deleted.
 */
export async function deleteProject(ctx: Context, id: string): Promise<void> {
  const { project } = await getProject(ctx, id, 'project:delete');
  if (project.is_default) throw new Unprocessable('the default project of an organization cannot be deleted');
  await withOrganizationLocked(ctx.store, project.organization_id, async (trx) => {
    if (await store.hasWorkspaces(trx, id))
      throw new Conflict('the project still contains workspaces: move or delete them first');
    await events.publish('project.deleting', { trx, ctx, projectId: id });
    await store.deleteProject(trx, id);
    recordAuditEvent(trx, ctx, {
      organizationId: project.organization_id,
      type: 'project',
      id,
      action: 'destroy',
      meta: { name: project.name },
    });
  });
}

/** The execution mode a project's workspaces take when they do not set their own, read in the caller's transaction. */
export async function projectExecutionMode(
  trx: Trx,
  organizationId: string,
  projectId: string,
): Promise<ExecutionMode> {
  const [project] = await store.findProjects(trx, organizationId, [projectId]);
  if (!project) throw new NotFound();
  return project.default_execution_mode;
}

/** The projects of an organization with these ids, whoever asks (what a workspace follows): one statement. */
export function projectsOfOrganization(ctx: Context, organizationId: string, ids: string[]): Promise<Project[]> {
  return store.findProjects(ctx.store.db, organizationId, ids);
}

/** The projects of an organization by id that the subject may read (for another resource's `include`): one statement. */
export async function readableProjects(ctx: Context, organizationId: string, ids: string[]): Promise<Project[]> {
  return (await store.findProjects(ctx.store.db, organizationId, ids)).filter((p) =>
    can(ctx.subject, 'project:read', { organizationId, projectId: p.id }),
  );
}
