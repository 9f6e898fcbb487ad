import type { Target } from '../auth/policy.js';

/** Where a configuration version, run, run event or comment lives, for permission checks: always inside one workspace. */
export interface WorkspaceTarget extends Target {
  organizationId: string;
  projectId: string;
  workspaceId: string;
}

/** The target of a row joined with its workspace. */
export function workspaceTarget(row: { organization_id: string; project_id: string; workspace_id: string }): WorkspaceTarget {
  return { organizationId: row.organization_id, projectId: row.project_id, workspaceId: row.workspace_id };
}

export function targetOfWorkspace(workspace: { id: string; organization_id: string; project_id: string }): WorkspaceTarget {
  return { organizationId: workspace.organization_id, projectId: workspace.project_id, workspaceId: workspace.id };
}
