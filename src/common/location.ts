/** Where a workspace, or something inside one (a run, a configuration version, a comment), is: what permission decisions on it need. */
export interface WorkspaceLocation {
  organizationId: string;
  projectId: string;
  workspaceId: string;
}

/** The columns of the joined workspace that `locationOf` reads beside the row's own `workspace_id`. */
export const WORKSPACE_LOCATION_COLUMNS = ['workspaces.organization_id', 'workspaces.project_id'] as const;

/** The location of a row joined with its workspace. */
export function locationOf(row: {
  organization_id: string;
  project_id: string;
  workspace_id: string;
}): WorkspaceLocation {
  return { organizationId: row.organization_id, projectId: row.project_id, workspaceId: row.workspace_id };
}

/** The location of a workspace itself. */
export function locationOfWorkspace(workspace: {
  id: string;
  organization_id: string;
  project_id: string;
}): WorkspaceLocation {
  return { organizationId: workspace.organization_id, projectId: workspace.project_id, workspaceId: workspace.id };
}
