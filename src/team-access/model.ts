import type {
  ProjectAccess,
  ProjectPermissionSet,
  ProjectWorkspacePermissionSet,
  WorkspaceAccess,
  WorkspacePermissionSet,
} from '../auth/levels.js';

/** A team's access to one workspace: its level, and the complete set of permissions it grants. */
export interface TeamWorkspace {
  id: string;
  team_id: string;
  workspace_id: string;
  access: WorkspaceAccess;
  permissions: WorkspacePermissionSet;
  created_at: string;
}

/** A team's access to a project and every workspace in it. */
export interface TeamProject {
  id: string;
  team_id: string;
  project_id: string;
  access: ProjectAccess;
  project: ProjectPermissionSet;
  workspace: ProjectWorkspacePermissionSet;
  created_at: string;
}

/** Where a grant sits, for the permission decision on it. */
export interface GrantPlace {
  organization_id: string;
  project_id: string;
  team_visibility: 'secret' | 'organization';
}

/** A workspace grant as a client gives it: a level, and for `custom` the permissions chosen. */
export interface TeamWorkspaceChanges {
  access?: WorkspaceAccess | undefined;
  permissions: Partial<WorkspacePermissionSet>;
}

/** A project grant as a client gives it. */
export interface TeamProjectChanges {
  access?: ProjectAccess | undefined;
  project: Partial<ProjectPermissionSet>;
  workspace: Partial<ProjectWorkspacePermissionSet>;
}
