/**
 * Who is calling, as established from the bearer token, with everything the policy needs to
 * decide loaded up front so that every decision is a pure, synchronous function.
 */
export type Subject = SubjectKind & {
  /** Who the token stands for, in words (`team owners (token "CI")`): what histories and the audit trail show. */
  description: string;
  /**
   * Set when no token is at hand: the command line working on the store directly (`varsetd
   * tokens`, `varsetd organizations`), as the operating-system user who ran it. It acts as the
   * site administrator, whom no organization refuses; the audit trail names it as itself.
   */
  commandLine?: { user: string };
};

/** The command line on the store directly, as the operating-system user `user`: acts as the site administrator. */
export function commandLineSubject(user: string): Subject {
  return {
    kind: 'site-admin',
    tokenId: 'command-line',
    description: `command line (user ${user})`,
    refusedBy: new Set(),
    commandLine: { user },
  };
}

type SubjectKind =
  /** `refusedBy`: the organizations that turned user tokens off (`user-tokens-enabled`), which refuse this token. */
  | { kind: 'site-admin'; tokenId: string; refusedBy: ReadonlySet<string> }
  | { kind: 'team'; tokenId: string; teamId: string; organizationId: string; rights: TeamRights }
  | { kind: 'organization'; tokenId: string; organizationId: string };

/** 0 none, 1 read, 2 write. */
export type Level = 0 | 1 | 2;

/** What a team may do on one workspace (the greatest of all its grants that reach it). */
export interface WorkspaceRights {
  /** 1 read, 2 plan, 3 apply. */
  runs: 1 | 2 | 3;
  variables: Level;
  /** Settings, team access and the other admin-only permissions. */
  admin: boolean;
  delete: boolean;
  /** Lock and unlock the workspace. */
  lock: boolean;
  /** Manage the workspace's run tasks. */
  runTasks: boolean;
}

/** What a team may do on one project and, through `workspaces`, on every workspace in it. */
export interface ProjectRights {
  /** 0 read, 1 update, 2 delete. */
  settings: 0 | 1 | 2;
  /** 0 none, 1 read, 2 manage team access. */
  teams: Level;
  /** The variable sets the project owns: 0 none, 1 read, 2 write. */
  varsets: Level;
  workspaces: WorkspaceRights & { create: boolean; move: boolean };
}

export interface TeamRights {
  owners: boolean;
  /** `manage-projects` implies it; owners have it. */
  manageWorkspaces: boolean;
  manageProjects: boolean;
  readWorkspaces: boolean;
  readProjects: boolean;
  /** Create, update and delete teams other than owners, and manage their tokens (`manage-teams`; `manage-organization-access` implies it). */
  manageTeams: boolean;
  /** Change other teams' organization access (`manage-organization-access`). */
  manageOrganizationAccess: boolean;
  /** See secret teams (`access-secret-teams`). */
  accessSecretTeams: boolean;
  /** Team-workspace grants by workspace id, with the project the workspace is in. */
  workspaces: ReadonlyMap<string, { projectId: string; rights: WorkspaceRights }>;
  /** Team-project grants by project id. */
  projects: ReadonlyMap<string, ProjectRights>;
}
