/**
 * What each team access level grants, as HCP Terraform defines its roles. A fixed level
 * (read, plan, write, admin on a workspace; read, write, maintain, admin on a project)
 * stands for a complete set of fine-grained permissions; `custom` lets each one be chosen,
 * starting from the least. Team access rows store the complete set, so the policy and the
 * serializers read one shape whatever level was granted.
 */

export const WORKSPACE_ACCESS = ['read', 'plan', 'write', 'admin', 'custom'] as const;
export type WorkspaceAccess = (typeof WORKSPACE_ACCESS)[number];

export const RUNS = ['read', 'plan', 'apply'] as const;
export const VARIABLES = ['none', 'read', 'write'] as const;
export const STATE_VERSIONS = ['none', 'read-outputs', 'read', 'write'] as const;
export const SENTINEL_MOCKS = ['none', 'read'] as const;
export type Runs = (typeof RUNS)[number];
export type Variables = (typeof VARIABLES)[number];
export type StateVersions = (typeof STATE_VERSIONS)[number];
export type SentinelMocks = (typeof SENTINEL_MOCKS)[number];

/** The fine-grained permissions of a team on one workspace (the `custom` attributes of team-workspaces). */
export interface WorkspacePermissionSet {
  runs: Runs;
  variables: Variables;
  'state-versions': StateVersions;
  'sentinel-mocks': SentinelMocks;
  'workspace-locking': boolean;
  'run-tasks': boolean;
  /** Override soft-mandatory policy checks: only a custom grant gives it. */
  'policy-overrides': boolean;
}

export const WORKSPACE_LEVELS: Record<WorkspaceAccess, WorkspacePermissionSet> = {
  read: {
    runs: 'read',
    variables: 'read',
    'state-versions': 'read',
    'sentinel-mocks': 'none',
    'workspace-locking': false,
    'run-tasks': false,
    'policy-overrides': false,
  },
  plan: {
    runs: 'plan',
    variables: 'read',
    'state-versions': 'read',
    'sentinel-mocks': 'none',
    'workspace-locking': false,
    'run-tasks': false,
    'policy-overrides': false,
  },
  write: {
    runs: 'apply',
    variables: 'write',
    'state-versions': 'write',
    'sentinel-mocks': 'read',
    'workspace-locking': true,
    'run-tasks': false,
    'policy-overrides': false,
  },
  admin: {
    runs: 'apply',
    variables: 'write',
    'state-versions': 'write',
    'sentinel-mocks': 'read',
    'workspace-locking': true,
    'run-tasks': true,
    'policy-overrides': false,
  },
  // Where a custom grant starts before its attributes are applied.
  custom: {
    runs: 'read',
    variables: 'none',
    'state-versions': 'none',
    'sentinel-mocks': 'none',
    'workspace-locking': false,
    'run-tasks': false,
    'policy-overrides': false,
  },
};

export const PROJECT_ACCESS = ['read', 'write', 'maintain', 'admin', 'custom'] as const;
export type ProjectAccess = (typeof PROJECT_ACCESS)[number];

export const PROJECT_SETTINGS = ['read', 'update', 'delete'] as const;
export const PROJECT_TEAMS = ['none', 'read', 'manage'] as const;
export const PROJECT_VARIABLE_SETS = ['none', 'read', 'write'] as const;
export type ProjectSettings = (typeof PROJECT_SETTINGS)[number];
export type ProjectTeams = (typeof PROJECT_TEAMS)[number];
export type ProjectVariableSets = (typeof PROJECT_VARIABLE_SETS)[number];

/** `project-access` of team-projects: the project itself and the variable sets it owns. */
export interface ProjectPermissionSet {
  settings: ProjectSettings;
  teams: ProjectTeams;
  'variable-sets': ProjectVariableSets;
}

/** `workspace-access` of team-projects: every workspace of the project. */
export interface ProjectWorkspacePermissionSet {
  create: boolean;
  move: boolean;
  locking: boolean;
  delete: boolean;
  runs: Runs;
  variables: Variables;
  'state-versions': StateVersions;
  'sentinel-mocks': SentinelMocks;
  'run-tasks': boolean;
  /** Override soft-mandatory policy checks on the project's workspaces: only a custom grant gives it. */
  'policy-overrides': boolean;
}

const readWorkspaces: ProjectWorkspacePermissionSet = {
  create: false,
  move: false,
  locking: false,
  delete: false,
  runs: 'read',
  variables: 'read',
  'state-versions': 'read',
  'sentinel-mocks': 'none',
  'run-tasks': false,
  'policy-overrides': false,
};
const writeWorkspaces: ProjectWorkspacePermissionSet = {
  ...readWorkspaces,
  locking: true,
  runs: 'apply',
  variables: 'write',
  'state-versions': 'write',
  'sentinel-mocks': 'read',
};

export const PROJECT_LEVELS: Record<
  ProjectAccess,
  { project: ProjectPermissionSet; workspace: ProjectWorkspacePermissionSet }
> = {
  read: { project: { settings: 'read', teams: 'none', 'variable-sets': 'read' }, workspace: readWorkspaces },
  write: { project: { settings: 'read', teams: 'none', 'variable-sets': 'write' }, workspace: writeWorkspaces },
  // Maintain: admin of every workspace of the project, and may create workspaces in it.
  maintain: {
    project: { settings: 'read', teams: 'none', 'variable-sets': 'write' },
    workspace: { ...writeWorkspaces, create: true, delete: true, 'run-tasks': true, 'policy-overrides': false },
  },
  admin: {
    project: { settings: 'delete', teams: 'manage', 'variable-sets': 'write' },
    workspace: {
      ...writeWorkspaces,
      create: true,
      move: true,
      delete: true,
      'run-tasks': true,
      'policy-overrides': false,
    },
  },
  custom: {
    project: { settings: 'read', teams: 'none', 'variable-sets': 'none' },
    workspace: { ...readWorkspaces, variables: 'none', 'state-versions': 'none' },
  },
};

/** Organization-level permissions of a team that varsetd enforces. */
export const ENFORCED_ORGANIZATION_ACCESS = [
  'manage-workspaces',
  'manage-projects',
  'read-workspaces',
  'read-projects',
] as const;

/**
 * The other organization-level permissions HCP Terraform knows. varsetd has nothing they
 * would govern (policies, VCS, registry…); it keeps and returns them so clients that manage
 * teams round-trip their settings.
 */
export const OTHER_ORGANIZATION_ACCESS = [
  'manage-policies',
  'manage-policy-overrides',
  'delegate-policy-overrides',
  'manage-vcs-settings',
  'manage-providers',
  'manage-modules',
  'manage-run-tasks',
  'manage-membership',
  'manage-teams',
  'manage-organization-access',
  'access-secret-teams',
  'manage-agent-pools',
  'manage-public-providers',
  'manage-public-modules',
  'manage-registry-components',
  'manage-registry-artifact-tags',
  'manage-registry-artifact-version-tags',
] as const;

export type OrganizationAccessFlag =
  (typeof ENFORCED_ORGANIZATION_ACCESS)[number] | (typeof OTHER_ORGANIZATION_ACCESS)[number];
export const ORGANIZATION_ACCESS: readonly OrganizationAccessFlag[] = [
  ...ENFORCED_ORGANIZATION_ACCESS,
  ...OTHER_ORGANIZATION_ACCESS,
];
