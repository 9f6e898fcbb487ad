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
