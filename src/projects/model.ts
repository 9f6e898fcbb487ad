/** A project of an organization. */
export interface Project {
  id: string;
  organization_id: string;
  name: string;
  description: string;
  /** The project every organization is created with; it cannot be deleted. */
  is_default: boolean;
  created_at: string;
}

export const DEFAULT_PROJECT_NAME = 'Default Project';

/** What a client may set on a project; on create, the name is required. */
export interface ProjectChanges {
  name?: string | undefined;
  description?: string | undefined;
  /** Key/value bindings replacing the project's own (an empty list removes them). */
  tagBindings?: { key: string; value: string }[] | undefined;
}
