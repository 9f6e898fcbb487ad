import { organizationPermissions, projectPermissions } from '../auth/permissions.js';
import type { Comment } from '../comments/model.js';
import { serializeComment } from '../comments/serialize.js';
import type { Context } from '../auth/context.js';
import { serializeConfigurationVersion } from '../configuration-versions/serialize.js';
import { readableConfigurationVersions } from '../configuration-versions/service.js';
import { uniqueResources, type Resource } from '../jsonapi/document.js';
import type { Organization, OrganizationRecord } from '../organizations/model.js';
import { serializeOrganization } from '../organizations/serialize.js';
import { getOrganizationRecord } from '../organizations/service.js';
import type { Project } from '../projects/model.js';
import { serializeProject } from '../projects/serialize.js';
import { readableDefaultProjects, readableProjects } from '../projects/service.js';
import type { EffectiveTagBinding } from '../tag-bindings/model.js';
import { serializeEffectiveTagBinding } from '../tag-bindings/serialize.js';
import type { VarsetInclude, VarsetView } from '../varsets/model.js';
import { serializeVarsetVariable } from '../varsets/serialize.js';
import type { Workspace } from '../workspaces/model.js';
import { serializeWorkspace } from '../workspaces/serialize.js';
import { describeWorkspacesById } from '../workspaces/service.js';

/*
 * What `include=` adds of another feature's resources to a response, composed here so that no
 * feature's routes know another feature's serializer: each route calls the function of its
 * include, which reads what the caller may see through the other feature's service.
 */

/** An organization's `include=default-project`: the default projects of `organizations` the caller may read. */
export async function includedDefaultProjects(ctx: Context, organizations: OrganizationRecord[]) {
  const names = new Map(organizations.map((o) => [o.id, o.name]));
  const serializeOne = (p: Project) =>
    serializeProject(
      p,
      names.get(p.organization_id)!,
      projectPermissions(ctx.subject, { organizationId: p.organization_id, projectId: p.id, isDefault: p.is_default }),
    );
  return (await readableDefaultProjects(ctx, organizations)).map(serializeOne);
}

/** A workspace's `include=organization`: the organization as its own responses show it to the caller. */
export async function includedOrganization(ctx: Context, organization: Organization) {
  const record = await getOrganizationRecord(ctx, organization.name);
  return serializeOrganization(record, organizationPermissions(ctx.subject, record.id));
}

/** A workspace's `include=project`: the projects of `workspaces` the caller may read. */
export async function includedProjectsOfWorkspaces(ctx: Context, organization: Organization, workspaces: Workspace[]) {
  const projects = await readableProjects(ctx, organization.id, [...new Set(workspaces.map((w) => w.project_id))]);
  return projects.map((p) => serializeProject(p, organization.name));
}

/** A workspace's `include=current_configuration_version` and a run's `include=configuration_version`. */
export async function includedConfigurationVersions(ctx: Context, ids: string[]) {
  return (await readableConfigurationVersions(ctx, ids)).map((cv) => serializeConfigurationVersion(cv));
}

/** A run's `include=workspace`: the workspaces, with the caller's permissions on each. */
export async function includedWorkspaces(ctx: Context, ids: string[]) {
  return (await describeWorkspacesById(ctx, ids)).map(serializeWorkspace);
}

/** `include=effective_tag_bindings` of projects and workspaces. */
export function includedEffectiveTagBindings(bindings: Iterable<EffectiveTagBinding[]>) {
  return [...bindings].flat().map(serializeEffectiveTagBinding);
}

/** A run event's `include=comment`. */
export function includedComments(comments: Comment[]) {
  return comments.map(serializeComment);
}

/**
 * The `included` member for the sets of a response: their variables, projects and workspaces,
 * each once; present only when `include` asked for something. Workspaces carry the caller's
 * permissions on each, so they are described for each request.
 */
export async function includedOfVarsets(
  ctx: Context,
  views: VarsetView[],
  include: Set<VarsetInclude>,
): Promise<Resource[] | undefined> {
  if (!include.has('workspaces')) return varsetsIncluded(views, include);
  const ids = [...new Set(views.flatMap((view) => view.workspaces.flatMap((w) => (w.row ? [w.id] : []))))];
  return varsetsIncluded(views, include, await includedWorkspaces(ctx, ids));
}

/** `includedOfVarsets` with the workspaces already serialized. */
export function varsetsIncluded(
  views: VarsetView[],
  include: Set<VarsetInclude>,
  workspaces: Resource[] = [],
): Resource[] | undefined {
  if (!include.size) return undefined;
  const resources: Resource[] = [];
  for (const view of views) {
    const organizationName = view.varset.organization_name;
    if (include.has('vars'))
      resources.push(...view.variables.flatMap((v) => (v.row ? [serializeVarsetVariable(v.row)] : [])));
    if (include.has('projects'))
      resources.push(...view.projects.flatMap((p) => (p.row ? [serializeProject(p.row, organizationName)] : [])));
  }
  resources.push(...workspaces);
  return uniqueResources(resources);
}
