/**
 * A run, as clients create and read it. varsetd executes nothing: a run stays `pending`, and
 * keeps the variables it was given (HCL expressions, Terraform input variables).
 */
export interface Run {
  id: string;
  workspace_id: string;
  configuration_version_id: string;
  status: 'pending';
  message: string;
  is_destroy: boolean;
  plan_only: boolean;
  variables: RunVariable[];
  created_at: string;
}

/** A variable given with a run: a Terraform input variable whose value is an HCL expression. */
export interface RunVariable {
  key: string;
  value: string;
}

/** What happened to a run, and which kind of token did it (its team or organization; null for the site administrator). */
export interface RunEvent {
  id: string;
  run_id: string;
  action: 'created' | 'commented';
  description: string;
  actor_kind: 'site-admin' | 'team' | 'organization';
  actor_id: string | null;
  created_at: string;
}

/** What the caller may do with a run. varsetd executes nothing, so commenting is the only action there is. */
export interface RunPermissions {
  canComment: boolean;
}

export const DEFAULT_MESSAGE = 'Triggered via API';
