/**
 * A run, as clients create and read it, with the variables it was given (HCL expressions,
 * Terraform input variables). varsetd executes nothing: a run stays `pending` unless the
 * token that created it reports a plan starting (`planning`) and ending (`planned` or
 * `errored`), as `varsetd exec` does.
 */
export interface Run {
  id: string;
  workspace_id: string;
  configuration_version_id: string;
  status: RunStatus;
  message: string;
  is_destroy: boolean;
  plan_only: boolean;
  variables: RunVariable[];
  created_at: string;
  /** The token that created the run; null for runs created before it was recorded. */
  created_by_token_id: string | null;
  planning_at: string | null;
  /** When the run became planned or errored. */
  finished_at: string | null;
}

export type RunStatus = 'pending' | 'planning' | 'planned' | 'errored';

export function isFinished(run: Run): boolean {
  return run.status === 'planned' || run.status === 'errored';
}

/** A variable given with a run: a Terraform input variable whose value is an HCL expression. */
export interface RunVariable {
  key: string;
  value: string;
}

/** `variables-opened`: the creating token read the run's variables with sensitive values opened. */
export type RunEventAction = 'created' | 'commented' | 'planning' | 'planned' | 'errored' | 'variables-opened';

/** What happened to a run, and which kind of token did it (its team or organization; null for the site administrator). */
export interface RunEvent {
  id: string;
  run_id: string;
  action: RunEventAction;
  description: string;
  actor_kind: 'site-admin' | 'team' | 'organization';
  actor_id: string | null;
  created_at: string;
}

/** What the caller may do with a run. varsetd executes nothing, so commenting is the only action HCP Terraform's permissions name. */
export interface RunPermissions {
  canComment: boolean;
}

export const DEFAULT_MESSAGE = 'Triggered via API';

/** Every status HCP Terraform names; varsetd's runs only ever have the four of `RunStatus`. */
export const HCP_RUN_STATUSES = [
  'applied',
  'applying',
  'apply_queued',
  'canceled',
  'confirmed',
  'cost_estimated',
  'cost_estimating',
  'discarded',
  'errored',
  'fetching',
  'fetching_completed',
  'force_canceled',
  'pending',
  'planned',
  'planned_and_finished',
  'planned_and_saved',
  'planning',
  'plan_queued',
  'policy_checked',
  'policy_checking',
  'policy_override',
  'policy_soft_failed',
  'post_plan_awaiting_decision',
  'post_plan_completed',
  'post_plan_running',
  'post_apply_running',
  'post_apply_completed',
  'pre_apply_running',
  'pre_apply_completed',
  'pre_plan_completed',
  'pre_plan_running',
  'queuing',
  'queuing_apply',
] as const;
export const RUN_OPERATIONS = [
  'plan_only',
  'plan_and_apply',
  'save_plan',
  'refresh_only',
  'destroy',
  'empty_apply',
] as const;
export const RUN_SOURCES = ['tfe-api', 'tfe-ui', 'tfe-configuration-version', 'terraform', 'terraform+cloud'] as const;
export const RUN_STATUS_GROUPS = ['non_final', 'final', 'discardable'] as const;
export type RunOperation = (typeof RUN_OPERATIONS)[number];

/**
 * Which runs of a workspace a list answers: each member narrows it. A value HCP Terraform
 * knows but no varsetd run can have (a `discarded` status, a `tfe-ui` source) matches none.
 */
export interface RunFilter {
  statuses?: string[] | undefined;
  operations?: RunOperation[] | undefined;
  sources?: string[] | undefined;
  statusGroup?: (typeof RUN_STATUS_GROUPS)[number] | undefined;
  /** A run id, or text the message contains (case-sensitive). */
  search?: string | undefined;
}
