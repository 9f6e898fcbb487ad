import type { WorkspaceTable } from '../db/schema.js';
import type { ExecutionMode } from '../organizations/model.js';

/** The settings HCP Terraform gives every workspace. varsetd stores them and answers them; it runs nothing by them. */
export type WorkspaceSettings = Pick<WorkspaceTable, SettingColumn> & {
  /** Stored as JSON arrays of strings. */
  trigger_prefixes: string[];
  trigger_patterns: string[];
  /** null: the organization's default applies (`setting-overwrites.execution-mode` false). */
  execution_mode: ExecutionMode | null;
};

/** The workspace's columns that hold its settings, as they are stored. */
type SettingColumn =
  | 'allow_destroy_plan'
  | 'auto_apply'
  | 'auto_apply_run_trigger'
  | 'assessments_enabled'
  | 'file_triggers_enabled'
  | 'global_remote_state'
  | 'project_remote_state'
  | 'queue_all_runs'
  | 'speculative_enabled'
  | 'structured_run_output_enabled'
  | 'inherits_project_auto_destroy'
  | 'hyok_enabled'
  | 'auto_destroy_at'
  | 'auto_destroy_activity_duration'
  | 'source_name'
  | 'source_url'
  | 'terraform_version'
  | 'working_directory';

/** HCP Terraform's defaults for a workspace created without them. */
export const DEFAULT_SETTINGS: WorkspaceSettings = {
  allow_destroy_plan: true,
  auto_apply: false,
  auto_apply_run_trigger: false,
  assessments_enabled: false,
  file_triggers_enabled: true,
  global_remote_state: false,
  project_remote_state: false,
  queue_all_runs: false,
  speculative_enabled: true,
  structured_run_output_enabled: true,
  inherits_project_auto_destroy: true,
  hyok_enabled: false,
  auto_destroy_at: null,
  auto_destroy_activity_duration: null,
  source_name: null,
  source_url: null,
  terraform_version: 'latest',
  trigger_prefixes: [],
  trigger_patterns: [],
  working_directory: '',
  execution_mode: null,
};

/** Who holds a workspace's lock: a team (its token locked it), or a user standing for a site-admin or organization token, named by the token's id. */
export interface LockHolder {
  type: 'teams' | 'users';
  id: string;
}

/** A workspace of an organization, in one of its projects. */
export interface Workspace
  extends
    WorkspaceSettings,
    Pick<
      WorkspaceTable,
      'id' | 'organization_id' | 'project_id' | 'name' | 'description' | 'created_at' | 'updated_at'
    > {
  locked_by: LockHolder | null;
  lock_reason: WorkspaceTable['lock_reason'];
  /** Read with the row, never written: the newest configuration version that is not provisional, the newest run, run counts. */
  current_configuration_version_id: string | null;
  current_run_id: string | null;
  /** How many runs the workspace has had, and how many of them errored. */
  runs_count: number;
  run_failures: number;
}

/** What a client may set on a workspace; on create, the name is required and the project defaults to the organization's default project. */
export interface WorkspaceChanges {
  name?: string | undefined;
  description?: string | undefined;
  projectId?: string | undefined;
  /** `pinExecutionMode`: the mode in force becomes the workspace's own (`setting-overwrites.execution-mode` true). */
  settings: Partial<WorkspaceSettings> & { pinExecutionMode?: true };
  /** Tags to add, by name or by id. */
  tags?: { names: string[]; ids: string[] } | undefined;
  /** Key/value bindings replacing the workspace's own. */
  tagBindings?: { key: string; value: string }[] | undefined;
}

/** Which workspace a request names: its id, or its organization's name and its own. */
export type WorkspaceLocator = { id: string } | { organizationName: string; name: string };

/** Where a workspace is: what deciding which sets reach it, and who may act on it, needs. */
export type WorkspacePlace = Pick<Workspace, 'id' | 'organization_id' | 'project_id'>;

/** A workspace's own columns, without its settings and lock: all a set's assigned workspaces are read with. */
export const WORKSPACE_COLUMNS = [
  'workspaces.id',
  'workspaces.organization_id',
  'workspaces.project_id',
  'workspaces.name',
  'workspaces.description',
  'workspaces.created_at',
  'workspaces.updated_at',
] as const;

/** The execution mode in force: the workspace's own, or the one it inherits from its project (which may follow its organization's). */
export function effectiveExecutionMode(
  workspace: Pick<WorkspaceSettings, 'execution_mode'>,
  inherited: ExecutionMode,
): ExecutionMode {
  return workspace.execution_mode ?? inherited;
}

/** What a workspace response carries beyond the row: read in two statements for a whole page. */
export interface WorkspaceExtras {
  tagNames: string[];
  variableIds: string[];
}

/** `include` values of workspace reads and lists. */
export const WORKSPACE_INCLUDES = [
  'organization',
  'project',
  'current_configuration_version',
  'effective_tag_bindings',
] as const;
export type WorkspaceInclude = (typeof WORKSPACE_INCLUDES)[number];

/** `sort` values of workspace lists: the column and the direction. */
export const WORKSPACE_SORTS = ['name', '-name', 'created-at', '-created-at', 'updated-at', '-updated-at'] as const;
export type WorkspaceSort = (typeof WORKSPACE_SORTS)[number];
