/** A workspace of an organization, in one of its projects. */
export interface Workspace {
  id: string;
  organization_id: string;
  project_id: string;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

/** What a client may set on a workspace; on create, the name is required and the project defaults to the organization's default project. */
export interface WorkspaceChanges {
  name?: string | undefined;
  description?: string | undefined;
  projectId?: string | undefined;
}

/** Which workspace a request names: its id, or its organization's name and its own. */
export type WorkspaceLocator = { id: string } | { organizationName: string; name: string };

/** Where a workspace is: what deciding which sets reach it, and who may act on it, needs. */
export type WorkspacePlace = Pick<Workspace, 'id' | 'organization_id' | 'project_id'>;
