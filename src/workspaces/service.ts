import type { Context } from '../auth/context.js';
import { ensure } from '../auth/decisions.js';
import { workspaceListScope } from '../auth/list-scopes.js';
import { workspacePermissions } from '../auth/permissions.js';
import type { Subject } from '../auth/subject.js';
import { recordAuditEvent } from '../audit/service.js';
import { withOrganizationLocked, type Trx } from '../db/transaction.js';
import { newId, now } from '../common/ids.js';
import { NotFound, Taken, blank } from '../common/errors.js';
import { events } from '../events/registry.js';
import type { Page } from '../common/page.js';
import type { Organization, OrganizationSettings } from '../organizations/model.js';
import { getOrganization, organizationSettings } from '../organizations/service.js';
import { projectExecutionMode, projectsOfOrganization } from '../projects/service.js';
import { effectiveBindingsOf, replaceBindings } from '../tag-bindings/service.js';
import type { EffectiveTagBinding } from '../tag-bindings/model.js';
import {
  DEFAULT_SETTINGS,
  effectiveExecutionMode,
  type Workspace,
  type WorkspaceChanges,
  type WorkspaceLocator,
} from './model.js';
import type { WorkspaceView } from './serialize.js';
import { withActivity } from './settings.js';
import * as store from './store.js';
import { tagWorkspace } from './tags.js';
import { locationOfWorkspace } from '../common/location.js';

import { getWorkspace, type WorkspaceWithOrganization } from './lookup.js';

export { getWorkspace, type WorkspaceWithOrganization };
export { addWorkspaceTags } from './relations.js';

/**
 * What the responses of these workspaces show, as `subject` sees them: a constant number of
 * statements for a whole page. With `effectiveTagBindings`, the bindings in force on each.
 */
export async function describeWorkspaces(
  ctx: Context,
  organization: Organization,
  workspaces: Workspace[],
  options: { effectiveTagBindings?: boolean } = {},
): Promise<{ views: WorkspaceView[]; effectiveTagBindings: Map<string, EffectiveTagBinding[]> }> {
  const ids = workspaces.map((w) => w.id);
  const [extras, effective, projects, settings] = await Promise.all([
    store.extrasOf(ctx.store.db, ids),
    options.effectiveTagBindings
      ? effectiveBindingsOf(ctx.store.db, workspaces)
      : Promise.resolve(new Map<string, EffectiveTagBinding[]>()),
    projectsOfOrganization(ctx, organization.id, [...new Set(workspaces.map((w) => w.project_id))]),
    organizationSettings(ctx, organization.id),
  ]);
  // A workspace that does not overwrite its execution mode takes its project's, which follows the organization's.
  const projectModes = new Map(projects.map((p) => [p.id, p.default_execution_mode]));
  const views = workspaces.map((workspace) => ({
    workspace,
    organizationName: organization.name,
    inheritedExecutionMode: projectModes.get(workspace.project_id) ?? settings['default-execution-mode'],
    extras: extras.get(workspace.id)!,
    permissions: permissionsOn(ctx.subject, settings, workspace),
    effectiveTagBindingIds: options.effectiveTagBindings
      ? (effective.get(workspace.id) ?? []).map((b) => b.id)
      : undefined,
  }));
  return { views, effectiveTagBindings: effective };
}

export function permissionsOn(
  subject: Subject,
  settings: OrganizationSettings,
  workspace: Workspace,
): WorkspaceView['permissions'] {
  const adminsMayForceDelete = settings['allow-force-delete-workspaces'];
  return workspacePermissions(subject, locationOfWorkspace(workspace), {
    adminsMayForceDelete,
  }) as WorkspaceView['permissions'];
}

/** Workspaces by id (all of one organization) described for the caller, as resources of another's response include them. */
export async function describeWorkspacesById(ctx: Context, ids: string[]): Promise<WorkspaceView[]> {
  const found = await store.findWorkspacesWithOrganization(ctx.store.db, ids);
  const first = found[0];
  if (!first) return [];
  return (
    await describeWorkspaces(
      ctx,
      first.organization,
      found.map((f) => f.workspace),
    )
  ).views;
}

/** One workspace's view, for the response of a read or a write. */
export async function describeWorkspace(ctx: Context, found: WorkspaceWithOrganization): Promise<WorkspaceView> {
  return (await describeWorkspaces(ctx, found.organization, [found.workspace])).views[0]!;
}

export async function listOrganizationWorkspaces(
  ctx: Context,
  organizationName: string,
  filter: Omit<store.WorkspaceFilter, 'visible'>,
  page: Page,
) {
  const organization = await getOrganization(ctx, organizationName);
  // A team lists the workspaces it can read.
  const visible = workspaceListScope(ctx.subject, organization.id);
  if (visible === 'none') throw new NotFound();
  return { organization, ...(await store.listWorkspaces(ctx.store.db, organization.id, { ...filter, visible }, page)) };
}

/** The project a request names, or the organization's default one; one that is missing or in another organization is a 404. */
async function projectOf(trx: Trx, organization: Organization, projectId: string | undefined): Promise<string> {
  if (projectId === undefined) {
    const defaultProject = await store.defaultProjectId(trx, organization.id);
    if (defaultProject === undefined) throw new NotFound();
    return defaultProject;
  }
  if (!(await store.organizationHasProject(trx, organization.id, projectId))) throw new NotFound();
  return projectId;
}

export async function createWorkspace(
  ctx: Context,
  organizationName: string,
  changes: WorkspaceChanges,
): Promise<WorkspaceWithOrganization> {
  const organization = await getOrganization(ctx, organizationName);
  const workspace = await withOrganizationLocked(ctx.store, organization.id, async (trx) => {
    const projectId = await projectOf(trx, organization, changes.projectId);
    ensure(ctx.subject, 'workspaces:create', { organizationId: organization.id, projectId });
    if (changes.name === undefined) throw blank('name');
    if (await store.workspaceNameTaken(trx, organization.id, changes.name)) throw new Taken('name');
    const timestamp = now();
    const { pinExecutionMode, ...settings } = changes.settings;
    const created: Workspace = {
      ...DEFAULT_SETTINGS,
      ...settings,
      id: newId('ws'),
      organization_id: organization.id,
      project_id: projectId,
      name: changes.name,
      description: changes.description ?? '',
      created_at: timestamp,
      updated_at: timestamp,
      locked_by: null,
      lock_reason: null,
      current_configuration_version_id: null,
      current_run_id: null,
      runs_count: 0,
      run_failures: 0,
    };
    if (pinExecutionMode)
      created.execution_mode = effectiveExecutionMode(
        created,
        await projectExecutionMode(trx, organization.id, created.project_id),
      );
    await store.insertWorkspace(trx, created);
    if (changes.tags) await tagWorkspace(trx, created, changes.tags);
    if (changes.tagBindings)
      await replaceBindings(
        trx,
        { kind: 'workspace', id: created.id, organizationId: organization.id },
        changes.tagBindings,
      );
    recordAuditEvent(trx, ctx, {
      organizationId: organization.id,
      type: 'workspace',
      id: created.id,
      action: 'create',
      meta: { name: created.name },
    });
    return created;
  });
  return { workspace, organization };
}

/** Changes a workspace; one moved to another project leaves the sets its old project owns. */
export async function updateWorkspace(
  ctx: Context,
  where: WorkspaceLocator,
  changes: WorkspaceChanges,
): Promise<WorkspaceWithOrganization> {
  const found = await getWorkspace(ctx, where, 'workspace:update');
  const { organization } = found;
  const workspace = await withOrganizationLocked(ctx.store, organization.id, async (trx) => {
    // The row as it is now, under the organization's lock: a concurrent lock or change is kept.
    const current = (await store.findWorkspaceWithOrganization(trx, { id: found.workspace.id }))?.workspace;
    if (!current) throw new NotFound();
    const projectId =
      changes.projectId === undefined ? current.project_id : await projectOf(trx, organization, changes.projectId);
    if (projectId !== current.project_id)
      ensure(ctx.subject, 'workspace:move', { organizationId: organization.id, projectId });
    const timestamp = now();
    const { pinExecutionMode, ...settings } = changes.settings;
    const updated: Workspace = withActivity(
      {
        ...current,
        ...settings,
        name: changes.name ?? current.name,
        description: changes.description ?? current.description,
        project_id: projectId,
        updated_at: timestamp,
      },
      timestamp,
    );
    // A duration given in this request counts from now; one already running starts again.
    if (pinExecutionMode)
      updated.execution_mode = effectiveExecutionMode(
        current,
        await projectExecutionMode(trx, organization.id, current.project_id),
      );
    if (changes.settings.auto_destroy_at !== undefined && changes.settings.auto_destroy_activity_duration === undefined)
      updated.auto_destroy_at = changes.settings.auto_destroy_at;
    if (updated.name !== current.name && (await store.workspaceNameTaken(trx, organization.id, updated.name)))
      throw new Taken('name');
    await store.updateWorkspace(trx, updated);
    await store.leaveOtherProjectsSets(trx, updated);
    if (changes.tags) await tagWorkspace(trx, updated, changes.tags);
    if (changes.tagBindings)
      await replaceBindings(
        trx,
        { kind: 'workspace', id: updated.id, organizationId: organization.id },
        changes.tagBindings,
      );
    recordAuditEvent(trx, ctx, {
      organizationId: organization.id,
      type: 'workspace',
      id: updated.id,
      action: 'update',
      meta: { name: updated.name },
    });
    return updated;
  });
  return { workspace, organization };
}

/** Deletes an organization's workspaces in its deletion, before the cascade removes the projects they reference. */
export async function deleteOrganizationWorkspaces(trx: Trx, organizationId: string): Promise<void> {
  await store.deleteOrganizationWorkspaces(trx, organizationId);
}

declare module '../events/registry.js' {
  interface DomainEvents {
    /** A workspace is about to be deleted, under its organization's lock, before the database's cascades remove what belongs to it. */
    'workspace.deleting': { trx: Trx; ctx: Context; workspaceId: string };
  }
}

/**
 * Deletes a workspace and everything that belongs to it (assignments, runs, comments…), whatever
 * is attached, once the features that react to its deletion ('workspace.deleting') have, in its transaction.
 */
export async function deleteWorkspace(ctx: Context, where: WorkspaceLocator): Promise<void> {
  const { workspace } = await getWorkspace(ctx, where, 'workspace:delete');
  await withOrganizationLocked(ctx.store, workspace.organization_id, async (trx) => {
    await events.publish('workspace.deleting', { trx, ctx, workspaceId: workspace.id });
    await store.deleteWorkspace(trx, workspace.id);
    recordAuditEvent(trx, ctx, {
      organizationId: workspace.organization_id,
      type: 'workspace',
      id: workspace.id,
      action: 'destroy',
      meta: { name: workspace.name },
    });
  });
}
