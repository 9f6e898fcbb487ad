import type { ExecutionMode } from '../organizations/model.js';

/** A project of an organization. */
export interface Project {
  id: string;
  organization_id: string;
  name: string;
  description: string;
  /** The project every organization is created with; it cannot be deleted. */
  is_default: boolean;
  /** Inactivity after which its workspaces are destroyed (`14d`, `12h`); null for never. */
  auto_destroy_activity_duration: string | null;
  /** The project's own mode when `execution_mode_overwritten`, otherwise its organization's. */
  default_execution_mode: ExecutionMode;
  execution_mode_overwritten: boolean;
  created_at: string;
}

export const DEFAULT_PROJECT_NAME = 'Default Project';

/** Up to 4 digits and a unit, days or hours, as HCP Terraform accepts it. */
export const AUTO_DESTROY_DURATION_PATTERN = '^[0-9]{1,4}[dh]$';

/** What a client may set on a project; on create, the name is required. */
export interface ProjectChanges {
  name?: string | undefined;
  description?: string | undefined;
  /** undefined: unchanged; null: never. */
  autoDestroyActivityDuration?: string | null | undefined;
  defaultExecutionMode?: ExecutionMode | undefined;
  defaultAgentPoolId?: string | undefined;
  /** `setting-overwrites`: false hands a setting back to the organization. */
  overwrites: { executionMode?: boolean | undefined; agentPool?: boolean | undefined };
  /** Key/value bindings replacing the project's own (an empty list removes them). */
  tagBindings?: { key: string; value: string }[] | undefined;
}

/** The columns of a project, for every store that reads one; `toProject` types what they hold. */
export const PROJECT_COLUMNS = [
  'projects.id',
  'projects.organization_id',
  'projects.name',
  'projects.description',
  'projects.is_default',
  'projects.auto_destroy_activity_duration',
  'projects.default_execution_mode',
  'projects.execution_mode_overwritten',
  'projects.created_at',
] as const;

/** A project row as read through `PROJECT_COLUMNS`: its stored mode is one varsetd wrote. */
export const toProject = <R extends { default_execution_mode: string }>(row: R) =>
  row as R & { default_execution_mode: ExecutionMode };

/** How a list of projects is ordered: by name (code point order) either way, or newest first. */
export type ProjectOrder = 'name' | '-name' | 'newest';
