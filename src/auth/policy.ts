import { notFound, unauthorized } from '../jsonapi/errors.js';
import type {
  ProjectAccess,
  ProjectSettings,
  ProjectTeams,
  ProjectVariableSets,
  ProjectWorkspacePermissionSet,
  Runs,
  Variables,
  WorkspaceAccess,
} from './levels.js';
import type { Level, ProjectRights, Subject, TeamRights, WorkspaceRights } from './subject.js';

/**
 * Every permission decision of varsetd is made here. Services ask "may this subject do
 * this action on this resource"; a refusal looks exactly like a missing resource (404).
 * Everything a decision needs was loaded into the subject at authentication, so `can` is
 * pure and synchronous. The model is HCP Terraform's (see docs/permissions.md):
 *
 * - a site-admin token may do everything, and only it creates organizations, except in an
 *   organization that turned user tokens off (`user-tokens-enabled`): there HCP Terraform
 *   refuses a user's token, which the site-admin token stands for, with a 401;
 * - nothing of another organization is ever visible to a team or organization token;
 * - the owners team has every permission in its organization;
 * - the organization token may do what owners may, except queue runs, create configuration
 *   versions or comments, and change or delete the organization;
 * - any other team has what its organization access flags, team-workspace and team-project
 *   grants give it, the greatest of them where several reach one workspace.
 */
export type Action =
  | 'organizations:create'
  | 'organizations:list'
  | 'organization:read'
  | 'organization:update'
  | 'organization:delete'
  | 'organization-token:manage'
  | 'teams:list'
  | 'teams:create'
  | 'team:read'
  | 'team:update'
  | 'team:delete'
  | 'team-token:read'
  | 'team:read-access'
  | 'team-token:manage'
  | 'team-tokens:list'
  | 'team:update-organization-access'
  | 'team-workspace:read'
  | 'team-workspace:manage'
  | 'team-project:read'
  | 'team-project:manage'
  | 'projects:create'
  | 'project:read'
  | 'project:update'
  | 'project:delete'
  | 'workspaces:create'
  | 'workspace:read'
  | 'workspace:update'
  | 'workspace:move'
  | 'workspace:delete'
  | 'workspace:lock'
  | 'workspace:force-unlock'
  | 'workspace:manage-run-tasks'
  | 'workspace:read-variables'
  | 'workspace:write-variables'
  | 'project:read-variables'
  | 'varsets:create'
  | 'varset:read'
  | 'varset:update'
  | 'varset:delete'
  /** The versions of a set that was deleted: owners only, as nothing else of the set is left to decide by. */
  | 'varset:read-deleted'
  /** An organization's notifications of variable-set changes: where they go, with which token. */
  | 'varset-notifications:manage'
  | 'run:read'
  | 'run:create'
  | 'run:apply'
  | 'configuration-version:read'
  | 'configuration-version:create'
  | 'comment:read'
  | 'comment:create'
  | 'audit-trail:read';

/** Where a variable set applies and who owns it: what deciding on a set needs. */
export interface VarsetApplicability {
  /** The owning project, or null for a set owned by the organization. */
  ownerProjectId: string | null;
  global?: boolean;
  /** Assigned workspaces, each with the project it is in. */
  workspaces?: readonly { id: string; projectId: string }[];
  /** Assigned projects. */
  projectIds?: readonly string[];
}

/** The resource an action is about, located by its organization and, where it has them, project and workspace. */
export interface Target {
  organizationId?: string;
  projectId?: string | null;
  workspaceId?: string;
  /** Team actions and team access: the team concerned. */
  team?: { id: string; visibility: 'secret' | 'organization'; owners?: boolean };
  /** Variable set actions: the set (for `varsets:create`, the set about to be created). */
  varset?: VarsetApplicability;
}

/** Organization-token refusals: HCP Terraform keeps these for users and teams. */
const ORGANIZATION_TOKEN_DENIED: ReadonlySet<Action> = new Set<Action>([
  'organization:update',
  'organization:delete',
  'run:create',
  'run:apply',
  'configuration-version:create',
  'comment:create',
]);

export function can(subject: Subject, action: Action, target: Target = {}): boolean {
  if (subject.kind === 'site-admin') return !userTokenRefused(subject, target.organizationId);
  if (action === 'organizations:list') return true;
  if (action === 'organizations:create') return false;
  // Fail closed: an action that names no organization, or another one, is refused.
  if (target.organizationId === undefined || target.organizationId !== subject.organizationId) return false;
  if (subject.kind === 'organization') return !ORGANIZATION_TOKEN_DENIED.has(action);
  return teamCan(subject.teamId, subject.rights, action, target);
}

/**
 * Throws the 404 of a missing resource unless the subject may do the action; the 401 of
 * HCP Terraform when the organization refuses the subject's kind of token outright.
 */
export function ensure(subject: Subject, action: Action, target: Target = {}): void {
  if (userTokenRefused(subject, target.organizationId)) throw unauthorized();
  if (!can(subject, action, target)) throw notFound();
}

/** Whether the organization turned user tokens off and the subject holds one (the site-admin token). */
function userTokenRefused(subject: Subject, organizationId: string | undefined): boolean {
  return subject.kind === 'site-admin' && organizationId !== undefined && subject.refusedBy.has(organizationId);
}

/** The organizations a list shows: only those listed, or all but those listed. */
export function organizationListScope(subject: Subject): { only: string[] } | { except: string[] } {
  return subject.kind === 'site-admin' ? { except: [...subject.refusedBy] } : { only: [subject.organizationId] };
}

/** A site-admin's scope of a list in an organization: everything, unless the organization refuses its token. */
function siteAdminScope(subject: Subject & { kind: 'site-admin' }, organizationId: string): 'all' | 'none' {
  return userTokenRefused(subject, organizationId) ? 'none' : 'all';
}

function teamCan(teamId: string, team: TeamRights, action: Action, target: Target): boolean {
  const workspace = () => (target.workspaceId === undefined ? null : workspaceRights(team, target.workspaceId, target.projectId ?? null));
  const project = () => (target.projectId ? team.projects.get(target.projectId) : undefined);
  const ownTeam = target.team?.id === teamId;
  switch (action) {
    case 'organization:read':
    case 'teams:list':
      return true;
    case 'organization:update':
    case 'organization:delete':
    case 'organization-token:manage':
    case 'varset:read-deleted':
    case 'varset-notifications:manage':
      return team.owners;
    case 'teams:create':
    case 'team-tokens:list':
      return team.manageTeams;
    case 'team:update':
    case 'team:delete':
    case 'team-token:manage':
      return team.owners || (team.manageTeams && otherTeamThanOwners(target) && teamVisible(teamId, team, target));
    case 'team:update-organization-access':
      return team.owners || (team.manageOrganizationAccess && otherTeamThanOwners(target) && teamVisible(teamId, team, target));
    case 'team:read':
      return teamVisible(teamId, team, target);
    case 'team-token:read':
      return team.owners || ownTeam || (team.manageTeams && otherTeamThanOwners(target) && teamVisible(teamId, team, target));
    case 'team:read-access':
      return team.owners || ownTeam;
    case 'team-workspace:read':
      return ownTeam || (workspace()?.admin ?? false);
    case 'team-workspace:manage':
      return (workspace()?.admin ?? false) && teamVisible(teamId, team, target);
    case 'team-project:read':
      return ownTeam || team.manageProjects || (project()?.teams ?? 0) >= 1;
    case 'team-project:manage':
      return (team.manageProjects || project()?.teams === 2) && teamVisible(teamId, team, target);
    case 'projects:create':
      return team.manageProjects;
    case 'project:read':
      return target.projectId ? projectVisible(team, target.projectId) : false;
    case 'project:update':
      return team.manageProjects || (project()?.settings ?? 0) >= 1;
    case 'project:delete':
      return team.manageProjects || project()?.settings === 2;
    case 'project:read-variables':
      return organizationWideVariableRead(team) || (project()?.workspaces.variables ?? 0) >= 1;
    case 'workspaces:create':
      return team.manageWorkspaces || (project()?.workspaces.create ?? false);
    case 'workspace:move':
      return team.manageProjects || (project()?.workspaces.move ?? false);
    case 'workspace:read':
    case 'run:read':
    case 'configuration-version:read':
    case 'comment:read':
      return workspace() !== null;
    case 'workspace:update':
      return workspace()?.admin ?? false;
    case 'workspace:delete':
      return workspace()?.delete ?? false;
    case 'workspace:lock':
      return workspace()?.lock ?? false;
    case 'workspace:force-unlock':
      return workspace()?.admin ?? false;
    case 'workspace:manage-run-tasks':
      return workspace()?.runTasks ?? false;
    case 'workspace:read-variables':
      return (workspace()?.variables ?? 0) >= 1;
    case 'workspace:write-variables':
      return workspace()?.variables === 2;
    case 'run:create':
    case 'configuration-version:create':
    case 'comment:create':
      return (workspace()?.runs ?? 0) >= 2;
    case 'run:apply':
      return workspace()?.runs === 3;
    case 'varset:read':
      return target.varset !== undefined && varsetReadable(team, target.varset);
    case 'varsets:create':
    case 'varset:update':
    case 'varset:delete':
      return target.varset !== undefined && varsetWritable(team, target.varset);
    case 'organizations:list':
    case 'organizations:create':
    // HCP Terraform answers the audit trail to the organization's token only, never to a team's.
    case 'audit-trail:read':
      return false;
  }
}

// ---------------------------------------------------------------------------------------
// Effective rights of a team

const FULL_WORKSPACE: WorkspaceRights = { runs: 3, variables: 2, admin: true, delete: true, lock: true, runTasks: true };
const READ_WORKSPACE: WorkspaceRights = { runs: 1, variables: 1, admin: false, delete: false, lock: false, runTasks: false };

function greatest(a: WorkspaceRights | null, b: WorkspaceRights | undefined): WorkspaceRights | null {
  if (!b) return a;
  if (!a) return b;
  return {
    runs: Math.max(a.runs, b.runs) as WorkspaceRights['runs'],
    variables: Math.max(a.variables, b.variables) as Level,
    admin: a.admin || b.admin,
    delete: a.delete || b.delete,
    lock: a.lock || b.lock,
    runTasks: a.runTasks || b.runTasks,
  };
}

/** What a team may do on a workspace, or null when it may not even see it. */
export function workspaceRights(team: TeamRights, workspaceId: string, projectId: string | null): WorkspaceRights | null {
  if (team.manageWorkspaces) return FULL_WORKSPACE;
  let rights: WorkspaceRights | null = team.readWorkspaces ? READ_WORKSPACE : null;
  rights = greatest(rights, team.workspaces.get(workspaceId)?.rights);
  if (projectId !== null) rights = greatest(rights, team.projects.get(projectId)?.workspaces);
  return rights;
}

function projectVisible(team: TeamRights, projectId: string): boolean {
  if (team.manageWorkspaces || team.readProjects || team.readWorkspaces || team.projects.has(projectId)) return true;
  for (const grant of team.workspaces.values()) if (grant.projectId === projectId) return true;
  return false;
}

/** Every team sees a team whose visibility is `organization`; a secret team is seen by itself, owners and access-secret-teams. */
function teamVisible(teamId: string, team: TeamRights, target: Target): boolean {
  return target.team !== undefined && (team.owners || team.accessSecretTeams || target.team.visibility === 'organization' || target.team.id === teamId);
}

/** Only owners manage the owners team: a team managing teams cannot give itself the owners' token. */
function otherTeamThanOwners(target: Target): boolean {
  return target.team !== undefined && !target.team.owners;
}

/** Read variables on every workspace, current and future: the organization's whole list of sets is visible. */
function organizationWideVariableRead(team: TeamRights): boolean {
  return team.manageWorkspaces || team.readWorkspaces;
}

/** Read variables through a project: on its workspaces, or on the sets it owns. */
function projectVarsetRead(team: TeamRights, projectId: string): boolean {
  const grant = team.projects.get(projectId);
  return grant !== undefined && (grant.varsets >= 1 || grant.workspaces.variables >= 1);
}

/**
 * A set is readable with Read variables on at least one workspace or project where it
 * applies (a global set applies everywhere), or through the project that owns it.
 */
function varsetReadable(team: TeamRights, set: VarsetApplicability): boolean {
  if (organizationWideVariableRead(team)) return true;
  const scope = teamVarsetScope(team);
  if (set.ownerProjectId !== null && scope.ownerProjectIds.includes(set.ownerProjectId)) return true;
  if (set.global && scope.global) return true;
  if (set.workspaces?.some((w) => scope.workspaceIds.includes(w.id) || scope.workspaceProjectIds.includes(w.projectId))) return true;
  return set.projectIds?.some((p) => scope.projectIds.includes(p)) ?? false;
}

/** Creating, changing, deleting, assigning a set and its variables: manage-workspaces, or write on the sets of the owning project. */
function varsetWritable(team: TeamRights, set: VarsetApplicability): boolean {
  if (team.manageWorkspaces) return true;
  return set.ownerProjectId !== null && team.projects.get(set.ownerProjectId)?.varsets === 2;
}

// ---------------------------------------------------------------------------------------
// Visibility in lists: the same rules as `can`, in a form a store turns into one SQL condition.

/** Which of an organization's rows a list shows: all of them, or those matching the ids. */
export type Scope<T> = 'all' | 'none' | T;

/** Workspaces: those granted directly, and every workspace of the granted projects. */
export function workspaceListScope(subject: Subject, organizationId: string): Scope<{ workspaceIds: string[]; projectIds: string[] }> {
  if (subject.kind === 'site-admin') return siteAdminScope(subject, organizationId);
  if (subject.organizationId !== organizationId) return 'none';
  if (subject.kind === 'organization') return 'all';
  const team = subject.rights;
  if (team.manageWorkspaces || team.readWorkspaces) return 'all';
  return { workspaceIds: [...team.workspaces.keys()], projectIds: [...team.projects.keys()] };
}

/** Projects: those granted, and those holding a granted workspace. */
export function projectListScope(subject: Subject, organizationId: string): Scope<{ projectIds: string[] }> {
  if (subject.kind === 'site-admin') return siteAdminScope(subject, organizationId);
  if (subject.organizationId !== organizationId) return 'none';
  if (subject.kind === 'organization') return 'all';
  const team = subject.rights;
  if (team.manageWorkspaces || team.readProjects || team.readWorkspaces) return 'all';
  const ids = new Set(team.projects.keys());
  for (const grant of team.workspaces.values()) ids.add(grant.projectId);
  return { projectIds: [...ids] };
}

/** Projects on which the subject may do `action`: all of the organization's, or those listed. */
export function projectActionScope(subject: Subject, organizationId: string, action: 'project:update' | 'workspaces:create'): Scope<{ projectIds: string[] }> {
  // An organization-wide grant (manage projects, manage workspaces) covers every project.
  if (can(subject, action, { organizationId })) return 'all';
  if (subject.kind !== 'team' || subject.organizationId !== organizationId) return 'none';
  return { projectIds: [...subject.rights.projects.keys()].filter((projectId) => can(subject, action, { organizationId, projectId })) };
}

/** Teams: every team for owners and the organization token; otherwise the visible ones and the caller's own. */
export function teamListScope(subject: Subject, organizationId: string): Scope<{ ownTeamId: string }> {
  if (subject.kind === 'site-admin') return siteAdminScope(subject, organizationId);
  if (subject.organizationId !== organizationId) return 'none';
  if (subject.kind === 'organization' || subject.rights.owners || subject.rights.accessSecretTeams) return 'all';
  return { ownTeamId: subject.teamId };
}

/**
 * Team access rows of one workspace (`team-workspace:read`) or project (`team-project:read`):
 * all of them for those who manage its team access, otherwise only the caller's own team's.
 */
export function teamAccessListScope(subject: Subject, action: 'team-workspace:read' | 'team-project:read', target: Target): Scope<{ teamId: string }> {
  if (can(subject, action, { ...target, team: undefined })) return 'all';
  if (subject.kind === 'team' && subject.organizationId === target.organizationId) return { teamId: subject.teamId };
  return 'none';
}

/**
 * Variable sets a team may read, as the store's list condition: global sets when it reads
 * variables anywhere; sets assigned to `workspaceIds`, to any workspace of
 * `workspaceProjectIds`, or to `projectIds`; sets owned by `ownerProjectIds`.
 */
export interface VarsetReadScope {
  global: boolean;
  workspaceIds: string[];
  workspaceProjectIds: string[];
  projectIds: string[];
  ownerProjectIds: string[];
}

export function varsetListScope(subject: Subject, organizationId: string): Scope<VarsetReadScope> {
  if (subject.kind === 'site-admin') return siteAdminScope(subject, organizationId);
  if (subject.organizationId !== organizationId) return 'none';
  if (subject.kind === 'organization' || organizationWideVariableRead(subject.rights)) return 'all';
  return teamVarsetScope(subject.rights);
}

const varsetScopes = new WeakMap<TeamRights, VarsetReadScope>();

function teamVarsetScope(team: TeamRights): VarsetReadScope {
  let scope = varsetScopes.get(team);
  if (scope) return scope;
  const workspaceIds: string[] = [];
  const workspaceProjectIds: string[] = [];
  const projectIds = new Set<string>();
  const ownerProjectIds: string[] = [];
  for (const [id, grant] of team.workspaces) {
    if (grant.rights.variables < 1) continue;
    workspaceIds.push(id);
    projectIds.add(grant.projectId);
  }
  for (const [id, grant] of team.projects) {
    if (grant.workspaces.variables >= 1) {
      workspaceProjectIds.push(id);
      projectIds.add(id);
    }
    if (projectVarsetRead(team, id)) ownerProjectIds.push(id);
  }
  scope = { global: workspaceIds.length > 0 || workspaceProjectIds.length > 0, workspaceIds, workspaceProjectIds, projectIds: [...projectIds], ownerProjectIds };
  varsetScopes.set(team, scope);
  return scope;
}

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
export function organizationPermissions(subject: Subject, organizationId: string): Record<OrganizationPermission, boolean> {
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
  const absent = Object.fromEntries(ABSENT_ORGANIZATION_FEATURES.map((feature) => [feature, false])) as Record<(typeof ABSENT_ORGANIZATION_FEATURES)[number], false>;
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
export function projectPermissions(subject: Subject, project: { organizationId: string; projectId: string; isDefault: boolean }): Record<ProjectPermission, boolean> {
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
export function varsetPermissions(subject: Subject, set: { organizationId: string; ownerProjectId: string | null }): { 'can-update': boolean } {
  return { 'can-update': can(subject, 'varset:update', { organizationId: set.organizationId, varset: { ownerProjectId: set.ownerProjectId } }) };
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
export function workspacePermissions(subject: Subject, target: Target, options: { adminsMayForceDelete: boolean }): Record<string, boolean> {
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

// ---------------------------------------------------------------------------------------
// What a stored grant means

const RUNS_LEVEL = { read: 1, plan: 2, apply: 3 } as const;
const LEVEL = { none: 0, read: 1, write: 2 } as const;

/** The rights of one team-workspace row. Admin is the one level that carries settings, team access and deletion. */
export function workspaceGrantRights(grant: { access: WorkspaceAccess; runs: Runs; variables: Variables; locking: boolean; runTasks: boolean }): WorkspaceRights {
  const admin = grant.access === 'admin';
  return { runs: RUNS_LEVEL[grant.runs], variables: LEVEL[grant.variables], admin, delete: admin, lock: grant.locking, runTasks: grant.runTasks };
}

/** The rights of one team-project row. Maintain and admin make the team admin of every workspace in the project. */
export function projectGrantRights(grant: {
  access: ProjectAccess;
  settings: ProjectSettings;
  teams: ProjectTeams;
  variableSets: ProjectVariableSets;
  workspace: Pick<ProjectWorkspacePermissionSet, 'create' | 'move' | 'delete' | 'runs' | 'variables' | 'locking' | 'run-tasks'>;
}): ProjectRights {
  const w = grant.workspace;
  return {
    settings: ({ read: 0, update: 1, delete: 2 } as const)[grant.settings],
    teams: ({ none: 0, read: 1, manage: 2 } as const)[grant.teams],
    varsets: LEVEL[grant.variableSets],
    workspaces: {
      runs: RUNS_LEVEL[w.runs],
      variables: LEVEL[w.variables],
      admin: grant.access === 'maintain' || grant.access === 'admin',
      delete: w.delete,
      lock: w.locking,
      runTasks: w['run-tasks'],
      create: w.create,
      move: w.move,
    },
  };
}
