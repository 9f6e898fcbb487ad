import type { Action, Target } from './actions.js';
import { can } from './decisions.js';
import { varsetListScope } from './list-scopes.js';
import type { Subject } from './subject.js';

// The `permissions` attributes of responses: what the caller may do, decided by `can`.

/** Organization permissions of features varsetd does not have: nobody can use them here. */
const ABSENT_ORGANIZATION_FEATURES = [
  'can-create-module',
  'can-create-provider',
  'can-create-workspace-migration',
  'can-deploy-no-code-modules',
  'can-enable-stacks',
  'can-manage-assessments',
  'can-manage-auditing',
  'can-manage-custom-providers',
  'can-manage-no-code-modules',
  'can-manage-org-public-modules',
  'can-manage-org-public-providers',
  'can-manage-public-modules',
  'can-manage-public-providers',
  'can-manage-run-tasks',
  'can-manage-sso',
  'can-manage-subscription',
  'can-manage-users',
  'can-read-assessments',
  'can-read-run-tasks',
  'can-update-agent-pools',
  'can-update-hyok-configuration',
  'can-update-oauth',
  'can-update-sentinel',
  'can-update-ssh-keys',
  'can-view-explorer',
  'can-view-hyok-feature-info',
  'can-view-usage',
  'can-view-users',
] as const;

/** Organization permissions varsetd decides. */
const DECIDED_ORGANIZATION_PERMISSIONS = [
  'can-update',
  'can-destroy',
  'can-traverse',
  'can-access-via-teams',
  'can-create-team',
  'can-create-workspace',
  'can-create-project',
  'can-manage-varsets',
  'can-read-varsets',
  'can-update-api-token',
] as const;

export const ORGANIZATION_PERMISSIONS = [...DECIDED_ORGANIZATION_PERMISSIONS, ...ABSENT_ORGANIZATION_FEATURES] as const;
export type OrganizationPermission = (typeof ORGANIZATION_PERMISSIONS)[number];

/** An organization's `permissions` attribute, as the caller sees it. */
export function organizationPermissions(
  subject: Subject,
  organizationId: string,
): Record<OrganizationPermission, boolean> {
  const target = { organizationId };
  const decided: Record<(typeof DECIDED_ORGANIZATION_PERMISSIONS)[number], boolean> = {
    'can-update': can(subject, 'organization:update', target),
    'can-destroy': can(subject, 'organization:delete', target),
    'can-traverse': can(subject, 'organization:read', target),
    'can-access-via-teams': subject.kind === 'team' && subject.organizationId === organizationId,
    'can-create-team': can(subject, 'teams:create', target),
    'can-create-workspace': can(subject, 'workspaces:create', target),
    'can-create-project': can(subject, 'projects:create', target),
    'can-manage-varsets': can(subject, 'varsets:create', { ...target, varset: { ownerProjectId: null } }),
    'can-read-varsets': varsetListScope(subject, organizationId) === 'all',
    'can-update-api-token': can(subject, 'organization-token:manage', target),
  };
  const absent = Object.fromEntries(ABSENT_ORGANIZATION_FEATURES.map((feature) => [feature, false])) as Record<
    (typeof ABSENT_ORGANIZATION_FEATURES)[number],
    false
  >;
  return { ...decided, ...absent };
}

export const PROJECT_PERMISSIONS = [
  'can-read',
  'can-update',
  'can-destroy',
  'can-create-workspace',
  'can-move-workspace',
  'can-move-stack',
  'can-manage-stacks',
  'can-view-stacks',
  'can-update-stacks',
  'can-deploy-no-code-modules',
  'can-read-teams',
  'can-manage-teams',
  'can-manage-tags',
  'can-manage-in-hcp',
  'can-manage-varsets',
  'can-manage-ephemeral-workspace-for-projects',
] as const;
export type ProjectPermission = (typeof PROJECT_PERMISSIONS)[number];

/** A project's `permissions` attribute, as the caller sees it. Stacks and no-code modules are not in varsetd. */
export function projectPermissions(
  subject: Subject,
  project: { organizationId: string; projectId: string; isDefault: boolean },
): Record<ProjectPermission, boolean> {
  const target = { organizationId: project.organizationId, projectId: project.projectId };
  // Team access is decided for a team everyone in the organization sees; a secret team may be refused on its own.
  const anyVisibleTeam = { ...target, team: { id: '', visibility: 'organization' as const } };
  const update = can(subject, 'project:update', target);
  return {
    'can-read': can(subject, 'project:read', target),
    'can-update': update,
    'can-destroy': !project.isDefault && can(subject, 'project:delete', target),
    'can-create-workspace': can(subject, 'workspaces:create', target),
    'can-move-workspace': can(subject, 'workspace:move', target),
    'can-move-stack': false,
    'can-manage-stacks': false,
    'can-view-stacks': false,
    'can-update-stacks': false,
    'can-deploy-no-code-modules': false,
    'can-read-teams': can(subject, 'team-project:read', anyVisibleTeam),
    'can-manage-teams': can(subject, 'team-project:manage', anyVisibleTeam),
    'can-manage-tags': update,
    'can-manage-in-hcp': false,
    'can-manage-varsets': can(subject, 'varsets:create', { ...target, varset: { ownerProjectId: project.projectId } }),
    'can-manage-ephemeral-workspace-for-projects': update,
  };
}

/** A variable set's `permissions` attribute, as the caller sees it. */
export function varsetPermissions(
  subject: Subject,
  set: { organizationId: string; ownerProjectId: string | null },
): { 'can-update': boolean } {
  return {
    'can-update': can(subject, 'varset:update', {
      organizationId: set.organizationId,
      varset: { ownerProjectId: set.ownerProjectId },
    }),
  };
}

/**
 * What `varsetPermissions` depends on, as a string: two callers with the same one get the same
 * permissions on every set they may read (see `varsetWritable`), so a rendered response may be
 * shared between them.
 */
export function varsetPermissionsKey(subject: Subject): string {
  if (subject.kind !== 'team' || subject.rights.manageWorkspaces) return 'all';
  const writable = [...subject.rights.projects].filter(([, grant]) => grant.varsets === 2).map(([id]) => id);
  return `projects:${writable.sort().join(',')}`;
}

/** The team's own `permissions` attribute, as the caller sees it. */
export function teamPermissions(subject: Subject, target: Target): Record<string, boolean> {
  const manage = can(subject, 'team:update', target);
  const viewToken = can(subject, 'team-token:read', target);
  return {
    'can-update-membership': manage,
    'can-destroy': manage,
    'can-update-organization-access': can(subject, 'team:update-organization-access', target),
    'can-update-api-token': can(subject, 'team-token:manage', target),
    'can-update-visibility': manage,
    'can-update-name': manage,
    'can-update-sso-team-id': manage,
    'can-update-member-token-management': manage,
    'can-view-api-token': viewToken,
  };
}

/**
 * The caller's `permissions` on a workspace, as go-tfe reads them. Force delete (deleting a
 * workspace whatever it manages) is for those who may delete it when the organization allows
 * it to admins, and otherwise for owners, the organization token and the site administrator.
 * varsetd serves no state versions and no HYOK keys: nobody may read or manage them.
 */
export function workspacePermissions(
  subject: Subject,
  target: Target,
  options: { adminsMayForceDelete: boolean },
): Record<string, boolean> {
  const may = (action: Action) => can(subject, action, target);
  const owner = subject.kind !== 'team' || subject.rights.owners;
  const destroy = may('workspace:delete');
  return {
    'can-update': may('workspace:update'),
    'can-destroy': destroy,
    'can-force-delete': destroy && (owner || options.adminsMayForceDelete),
    'can-queue-run': may('run:create'),
    'can-queue-apply': may('run:apply'),
    'can-queue-destroy': may('run:apply'),
    'can-read-variable': may('workspace:read-variables'),
    'can-update-variable': may('workspace:write-variables'),
    'can-read-settings': may('workspace:read'),
    'can-read-state-versions': false,
    'can-lock': may('workspace:lock'),
    'can-unlock': may('workspace:lock'),
    'can-force-unlock': may('workspace:force-unlock'),
    'can-manage-run-tasks': may('workspace:manage-run-tasks'),
    'can-manage-hyok': false,
  };
}
