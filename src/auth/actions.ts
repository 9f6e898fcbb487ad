/** What a subject may be asked to do, and what the decision is about (decisions.ts). */
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
  /** Bring variable sets, projects and workspaces into the organization from another server or an export. */
  | 'organization:import'
  | 'run:read'
  | 'run:create'
  | 'run:apply'
  | 'configuration-version:read'
  | 'configuration-version:create'
  | 'comment:read'
  | 'comment:create'
  | 'audit-trail:read'
  /** Every token of every kind, without their secrets: the site administrator only. */
  | 'tokens:list'
  /** Create and revoke site-admin tokens beside the one VARSETD_ADMIN_TOKEN or the first start gives: the site administrator only. */
  | 'site-admin-tokens:manage';

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
