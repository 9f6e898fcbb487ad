import type { Generated } from 'kysely';

/**
 * Table types. Booleans are stored as 0/1 integers on both stores and timestamps as ISO 8601
 * text with milliseconds, so both read and write the same values through one code path.
 * Code outside `src/db` sees and writes real booleans: `BooleanColumnsPlugin` (boolean-columns.ts) maps them at
 * the driver's edge, for every column named in `BOOLEAN_COLUMNS`.
 */

export interface OrganizationTable {
  id: string;
  name: string;
  email: string;
  /** JSON object of the organization's settings (organizations/settings.ts). */
  settings: string;
  /** The name and email folded for case-insensitive search (`searchable`, db/search.ts). */
  search_name: string;
  search_email: string;
  /** The settings' `user-tokens-enabled`, kept where the token lookup finds it by index (migration 0014). */
  user_tokens_enabled: boolean;
  created_at: string;
}

/** Raised by triggers whenever a row that variable-set responses show changes (migration 0007). */
export interface OrganizationVersionTable {
  organization_id: string;
  version: Generated<number>;
  /** The organization's sets, and its global sets, counted by triggers (migration 0016). */
  varset_count: Generated<number>;
  global_varset_count: Generated<number>;
}

/** Raised by triggers whenever a row that a token's subject is made of changes (migration 0015); one row. */
export interface CredentialsVersionTable {
  id: number;
  version: number;
}

export interface ProjectTable {
  id: string;
  organization_id: string;
  name: string;
  /** The name folded for case-insensitive search (`searchable`, db/search.ts). */
  search_name: string;
  description: string;
  is_default: boolean;
  /** Days or hours of inactivity after which workspaces are destroyed, e.g. `14d`; null for never. */
  auto_destroy_activity_duration: string | null;
  /** The project's own mode when `execution_mode_overwritten`, otherwise a copy of its organization's. */
  default_execution_mode: string;
  execution_mode_overwritten: boolean;
  created_at: string;
}

export interface WorkspaceTable {
  id: string;
  organization_id: string;
  project_id: string;
  name: string;
  /** The name folded for case-insensitive search (`searchable`, db/search.ts). */
  search_name: string;
  description: string;
  created_at: string;
  updated_at: string;
  allow_destroy_plan: boolean;
  auto_apply: boolean;
  auto_apply_run_trigger: boolean;
  assessments_enabled: boolean;
  file_triggers_enabled: boolean;
  global_remote_state: boolean;
  project_remote_state: boolean;
  queue_all_runs: boolean;
  speculative_enabled: boolean;
  structured_run_output_enabled: boolean;
  inherits_project_auto_destroy: boolean;
  hyok_enabled: boolean;
  auto_destroy_at: string | null;
  auto_destroy_activity_duration: string | null;
  source_name: string | null;
  source_url: string | null;
  terraform_version: string;
  /** JSON arrays of strings. */
  trigger_prefixes: string;
  trigger_patterns: string;
  working_directory: string;
  /** null: the organization's default applies. */
  execution_mode: 'remote' | 'local' | 'agent' | null;
  /** Who holds the lock: a team, or a token standing for a user; null while unlocked. */
  locked_by_type: 'teams' | 'users' | null;
  locked_by_id: string | null;
  lock_reason: string | null;
}

/** A tag name of an organization's workspaces. */
export interface TagTable {
  id: string;
  organization_id: string;
  name: string;
  created_at: string;
}

export interface WorkspaceTagTable {
  workspace_id: string;
  tag_id: string;
}

/** A key/value tag of one workspace or one project. */
export interface TagBindingTable {
  id: string;
  organization_id: string;
  workspace_id: string | null;
  project_id: string | null;
  key: string;
  value: string;
  position: number;
  created_at: string;
}

/** A workspace allowed to read another's remote state. */
export interface RemoteStateConsumerTable {
  workspace_id: string;
  consumer_id: string;
}

export interface VarsetTable {
  id: string;
  organization_id: string;
  /** Owning project, or null for a set owned by the organization. */
  project_id: string | null;
  name: string;
  /** The name folded for case-insensitive search (`searchable`, db/search.ts). */
  search_name: string;
  description: string;
  global: boolean;
  priority: boolean;
  created_at: string;
  updated_at: string;
}

export interface VarsetVariableTable {
  id: string;
  varset_id: string;
  /** The organization while the set is global, else null: a unique index on it enforces the global rule. */
  global_organization_id: string | null;
  key: string;
  value: string;
  description: string;
  category: 'terraform' | 'env';
  hcl: boolean;
  sensitive: boolean;
  /** A sensitive variable brought over without its value, until one is written (migration 0020). */
  value_needed: boolean;
  version_id: string;
  created_at: string;
}

export interface VarsetWorkspaceTable {
  varset_id: string;
  workspace_id: string;
}

export interface VarsetProjectTable {
  varset_id: string;
  project_id: string;
}

export interface VarsetVersionTable {
  id: string;
  /** The set, which may since have been deleted: no foreign key. */
  varset_id: string;
  organization_id: string;
  /** The project owning the set, or null for a set owned by the organization. */
  project_id: string | null;
  /** 1, 2, 3 … per set, in the order the writes committed. */
  number: number;
  action: 'create' | 'update' | 'delete' | 'rollback';
  /** For a rollback, the number of the version it made the set again. */
  rolled_back_to: number | null;
  /** The set's name after this version (before it, for a deletion). */
  varset_name: string;
  created_at: string;
  actor_token_id: string;
  actor_kind: 'site-admin' | 'team' | 'organization';
  actor_team_id: string | null;
  actor_description: string;
  request_id: string;
  /** JSON: what changed, field by field; no sensitive value. */
  changes: string;
  /** JSON: variable id → the sensitive value this version replaced or removed, sealed; null when none. */
  sealed: string | null;
  /** Why it was written, when its writer said (`import from URL`); null otherwise (migration 0023). */
  cause: string | null;
}

export interface TokenTable {
  id: string;
  /** Hex SHA-256 of the secret; the secret itself is never stored. */
  token_hash: string;
  kind: 'site-admin' | 'team' | 'organization';
  organization_id: string | null;
  team_id: string | null;
  description: string;
  created_at: string;
  expired_at: string | null;
  /** The one token of a team or organization that the singular endpoints replace; a team's other tokens have a description each. */
  legacy: boolean;
  /** Who issued it (a token kind and its team or organization id; null for the site administrator); null for tokens issued before this was kept. */
  created_by_kind: 'site-admin' | 'team' | 'organization' | null;
  created_by_id: string | null;
  last_used_at: string | null;
}

export interface ConfigurationVersionTable {
  /** Insertion order, assigned by the database; lists sort on it. */
  seq: Generated<number>;
  id: string;
  workspace_id: string;
  status: 'pending' | 'uploaded' | 'errored' | 'archived';
  auto_queue_runs: boolean;
  speculative: boolean;
  provisional: boolean;
  error: string | null;
  error_message: string | null;
  /** Hex SHA-256 of the upload credential while an upload may still happen; null once none can. */
  upload_secret_hash: string | null;
  upload_expires_at: string | null;
  created_at: string;
  uploaded_at: string | null;
  errored_at: string | null;
  archived_at: string | null;
}

export interface ConfigurationVersionArchiveTable {
  configuration_version_id: string;
  /** The uploaded tar.gz, byte for byte. */
  data: Buffer;
}

export interface RunTable {
  seq: Generated<number>;
  id: string;
  workspace_id: string;
  configuration_version_id: string;
  status: 'pending' | 'planning' | 'planned' | 'errored';
  message: string;
  is_destroy: boolean;
  plan_only: boolean;
  /** JSON array of `{key, value}` run variables. */
  variables: string;
  created_at: string;
  /** The token that created the run; null for runs created before it was recorded. */
  created_by_token_id: string | null;
  planning_at: string | null;
  /** When the run became planned or errored. */
  finished_at: string | null;
}

/** `variables-opened`: the creating token read the run's variables with sensitive values opened. */
export type RunEventAction = 'created' | 'commented' | 'planning' | 'planned' | 'errored' | 'variables-opened';

export interface RunEventTable {
  seq: Generated<number>;
  id: string;
  run_id: string;
  action: RunEventAction;
  description: string;
  /** Kind of token that acted, and its team or organization id (null for the site administrator). */
  actor_kind: 'site-admin' | 'team' | 'organization';
  actor_id: string | null;
  created_at: string;
}

export interface CommentTable {
  seq: Generated<number>;
  id: string;
  run_id: string;
  run_event_id: string;
  body: string;
  created_at: string;
}

export interface TeamTable {
  id: string;
  organization_id: string;
  name: string;
  /** The name folded for case-insensitive search (`searchable`, db/search.ts). */
  search_name: string;
  /** The organization's owners team: every permission, cannot be deleted. */
  is_owners: boolean;
  visibility: 'secret' | 'organization';
  sso_team_id: string | null;
  allow_member_token_management: boolean;
  manage_workspaces: boolean;
  manage_projects: boolean;
  read_workspaces: boolean;
  read_projects: boolean;
  /** JSON object of the organization-access flags varsetd keeps but has nothing to enforce with. */
  other_access: string;
  created_at: string;
}

/** A team's access to one workspace; the fine-grained columns hold what the access level grants. */
export interface TeamWorkspaceTable {
  id: string;
  team_id: string;
  workspace_id: string;
  access: 'read' | 'plan' | 'write' | 'admin' | 'custom';
  runs: 'read' | 'plan' | 'apply';
  variables: 'none' | 'read' | 'write';
  state_versions: 'none' | 'read-outputs' | 'read' | 'write';
  sentinel_mocks: 'none' | 'read';
  workspace_locking: boolean;
  run_tasks: boolean;
  policy_overrides: boolean;
  created_at: string;
}

/** A team's access to a project and every workspace in it. */
export interface TeamProjectTable {
  id: string;
  team_id: string;
  project_id: string;
  access: 'read' | 'write' | 'maintain' | 'admin' | 'custom';
  settings: 'read' | 'update' | 'delete';
  teams: 'none' | 'read' | 'manage';
  variable_sets: 'none' | 'read' | 'write';
  workspace_create: boolean;
  workspace_move: boolean;
  workspace_locking: boolean;
  workspace_delete: boolean;
  workspace_runs: 'read' | 'plan' | 'apply';
  workspace_variables: 'none' | 'read' | 'write';
  workspace_state_versions: 'none' | 'read-outputs' | 'read' | 'write';
  workspace_sentinel_mocks: 'none' | 'read';
  workspace_run_tasks: boolean;
  workspace_policy_overrides: boolean;
  created_at: string;
}

/** Server-wide values kept in the database (e.g. the check value of the encryption key). */
export interface SettingTable {
  name: string;
  value: string;
}

/** A variable of a workspace; the same columns as a set's variable. */
export interface WorkspaceVariableTable {
  id: string;
  workspace_id: string;
  key: string;
  value: string;
  description: string;
  category: 'terraform' | 'env';
  hcl: boolean;
  sensitive: boolean;
  /** A sensitive variable brought over without its value, until one is written (migration 0020). */
  value_needed: boolean;
  version_id: string;
  created_at: string;
}

/**
 * One value of a run's effective variables, as resolved when the run was created (see
 * src/effective): `position` orders the variables, `rank` 0 is the winner and 1… the values
 * it overrode. The set and variable it came from are copied, not referenced.
 */
export interface RunEffectiveValueTable {
  id: string;
  run_id: string;
  position: number;
  rank: number;
  key: string;
  category: 'terraform' | 'env';
  precedence: number;
  source: 'workspace' | 'run' | 'varset';
  varset_id: string | null;
  varset_name: string | null;
  varset_scope: 'global' | 'project' | 'workspace' | null;
  varset_owner: 'organization' | 'project' | null;
  varset_priority: boolean | null;
  /** The number of the set's version the value came from; null when the set had no version yet. */
  varset_version: number | null;
  variable_id: string | null;
  version_id: string | null;
  /** Sealed when sensitive, like the variable it was copied from. */
  value: string;
  description: string;
  hcl: boolean;
  sensitive: boolean;
}

/** One event of an organization's audit trail (migration 0018); `meta` is a JSON object or null. */
export interface AuditEventTable {
  id: string;
  organization_id: string;
  timestamp: string;
  auth_type: string;
  accessor_id: string;
  auth_description: string;
  request_id: string | null;
  resource_id: string;
  resource_type: string;
  action: string;
  meta: string | null;
}

/** How many events each organization's trail has per hour, kept by triggers (migration 0018). */
export interface AuditEventHourTable {
  organization_id: string;
  hour: string;
  events: number;
}

/** Where an organization's variable-set changes are sent (migration 0019). */
export interface VarsetNotificationConfigurationTable {
  /** Creation order, given by the database. */
  seq: Generated<number>;
  id: string;
  organization_id: string;
  name: string;
  destination_type: 'generic' | 'slack';
  url: string;
  /** Sealed; null: deliveries are not signed. */
  token: string | null;
  enabled: boolean;
  /** JSON array of trigger names. */
  triggers: string;
  created_at: string;
  updated_at: string;
}

/** A change waiting to be sent to a configuration, queued by a trigger on varset_versions (migration 0019). */
export interface VarsetNotificationDeliveryTable {
  id: Generated<number>;
  configuration_id: string;
  version_id: string;
  varset_id: string;
  /** The version's number: a set's deliveries to one configuration are sent in this order. */
  number: number;
  workspace_count: number;
  status: 'pending' | 'failed';
  attempts: number;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  created_at: string;
}

/** What an attempt to send to a configuration got back (migration 0019). */
export interface VarsetNotificationResponseTable {
  id: Generated<number>;
  configuration_id: string;
  url: string;
  code: number | null;
  body: string;
  /** JSON object: header name → values. */
  headers: string;
  error: string | null;
  successful: boolean;
  sent_at: string;
  varset_id: string | null;
  version_number: number | null;
  attempt: number | null;
}

/** A key workload identity tokens are signed with (migration 0021). */
export interface WorkloadIdentityKeyTable {
  /** The JWK's `kid`. */
  id: string;
  /** JSON: the public key as a JWK. */
  public_jwk: string;
  /** Sealed: the PKCS #8 PEM private key. */
  private_key: string;
  created_at: string;
  signs_from: string;
  signs_until: string | null;
  published_until: string | null;
}

export interface Database {
  organizations: OrganizationTable;
  organization_versions: OrganizationVersionTable;
  credentials_version: CredentialsVersionTable;
  projects: ProjectTable;
  workspaces: WorkspaceTable;
  varsets: VarsetTable;
  varset_variables: VarsetVariableTable;
  varset_workspaces: VarsetWorkspaceTable;
  varset_projects: VarsetProjectTable;
  varset_versions: VarsetVersionTable;
  varset_notification_configurations: VarsetNotificationConfigurationTable;
  varset_notification_deliveries: VarsetNotificationDeliveryTable;
  varset_notification_responses: VarsetNotificationResponseTable;
  tokens: TokenTable;
  teams: TeamTable;
  team_workspaces: TeamWorkspaceTable;
  team_projects: TeamProjectTable;
  settings: SettingTable;
  configuration_versions: ConfigurationVersionTable;
  configuration_version_archives: ConfigurationVersionArchiveTable;
  runs: RunTable;
  run_events: RunEventTable;
  comments: CommentTable;
  workspace_variables: WorkspaceVariableTable;
  run_effective_values: RunEffectiveValueTable;
  tags: TagTable;
  workspace_tags: WorkspaceTagTable;
  tag_bindings: TagBindingTable;
  remote_state_consumers: RemoteStateConsumerTable;
  audit_events: AuditEventTable;
  audit_event_hours: AuditEventHourTable;
  workload_identity_keys: WorkloadIdentityKeyTable;
}

export type { Generated };
