import type { Static } from 'typebox';
import { API_PREFIX, toOne } from '../jsonapi/document.js';
import type { ExecutionMode } from '../organizations/model.js';
import { effectiveExecutionMode, type Workspace, type WorkspaceExtras } from './model.js';
import type { WorkspacePermissions, WorkspaceResource } from './schemas.js';

/** Everything a workspace response shows: the row, what is read beside it, and the caller's permissions. */
export interface WorkspaceView {
  workspace: Workspace;
  organizationName: string;
  /** The execution mode the workspace inherits from its project (which may follow its organization's), unless it has its own. */
  inheritedExecutionMode: ExecutionMode;
  extras: WorkspaceExtras;
  permissions: Static<typeof WorkspacePermissions>;
  /** Ids of the effective tag bindings, when `include=effective_tag_bindings` puts them in `included`. */
  effectiveTagBindingIds?: string[] | undefined;
}

const related = (path: string) => ({ links: { related: path } });

/**
 * A workspace as HCP Terraform shows it. Attributes of what varsetd does not have are answered
 * truthfully for a server without it: no VCS connection, no state (no resources), no agent
 * pool, no policy checks; run counts are those of varsetd's own runs.
 */
export function serializeWorkspace(view: WorkspaceView): Static<typeof WorkspaceResource> {
  const { workspace: w, organizationName, extras } = view;
  const path = `${API_PREFIX}/workspaces/${w.id}`;
  const org = encodeURIComponent(organizationName);
  const name = encodeURIComponent(w.name);
  const mode = effectiveExecutionMode(w, view.inheritedExecutionMode);
  return {
    id: w.id,
    type: 'workspaces',
    attributes: {
      name: w.name,
      description: w.description,
      'created-at': w.created_at,
      'updated-at': w.updated_at,
      'allow-destroy-plan': w.allow_destroy_plan,
      'assessments-enabled': w.assessments_enabled,
      'auto-apply': w.auto_apply,
      'auto-apply-run-trigger': w.auto_apply_run_trigger,
      'auto-destroy-at': w.auto_destroy_at,
      'auto-destroy-activity-duration': w.auto_destroy_activity_duration,
      'inherits-project-auto-destroy': w.inherits_project_auto_destroy,
      'can-queue-destroy-plan': w.allow_destroy_plan && view.permissions['can-queue-destroy'],
      environment: 'default',
      'execution-mode': mode,
      'file-triggers-enabled': w.file_triggers_enabled,
      'global-remote-state': w.global_remote_state,
      'project-remote-state': w.project_remote_state,
      'hyok-enabled': w.hyok_enabled,
      locked: w.locked_by !== null,
      'lock-reason': w.lock_reason,
      'migration-environment': '',
      'no-code-upgrade-available': false,
      operations: mode !== 'local',
      'queue-all-runs': w.queue_all_runs,
      'speculative-enabled': w.speculative_enabled,
      source: 'tfe-api',
      'source-name': w.source_name,
      'source-url': w.source_url,
      'structured-run-output-enabled': w.structured_run_output_enabled,
      'terraform-version': w.terraform_version,
      'trigger-prefixes': w.trigger_prefixes,
      'trigger-patterns': w.trigger_patterns,
      'vcs-repo': null,
      'vcs-repo-identifier': null,
      'working-directory': w.working_directory,
      'resource-count': 0,
      'apply-duration-average': null,
      'plan-duration-average': null,
      'policy-check-failures': null,
      'run-failures': w.run_failures,
      'workspace-kpis-runs-count': w.runs_count,
      'tag-names': extras.tagNames,
      'setting-overwrites': { 'execution-mode': w.execution_mode !== null, 'agent-pool': w.execution_mode !== null },
      permissions: view.permissions,
      // Nothing is under management, so nothing is left to destroy.
      actions: { 'is-destroyable': view.permissions['can-destroy'] },
    },
    relationships: {
      organization: toOne('organizations', organizationName),
      project: toOne('projects', w.project_id),
      vars: {
        data: extras.variableIds.map((id) => ({ id, type: 'vars' as const })),
        links: { related: `${path}/vars` },
      },
      'current-configuration-version': {
        data:
          w.current_configuration_version_id === null
            ? null
            : { id: w.current_configuration_version_id, type: 'configuration-versions' },
        ...(w.current_configuration_version_id === null
          ? {}
          : { links: { related: `${API_PREFIX}/configuration-versions/${w.current_configuration_version_id}` } }),
      },
      'current-run': {
        data: w.current_run_id === null ? null : { id: w.current_run_id, type: 'runs' },
        ...(w.current_run_id === null ? {} : { links: { related: `${API_PREFIX}/runs/${w.current_run_id}` } }),
      },
      'current-state-version': { data: null },
      'agent-pool': { data: null },
      'ssh-key': { data: null },
      'locked-by': { data: w.locked_by },
      'tag-bindings': related(`${path}/tag-bindings`),
      'effective-tag-bindings': {
        ...(view.effectiveTagBindingIds
          ? { data: view.effectiveTagBindingIds.map((id) => ({ id, type: 'effective-tag-bindings' as const })) }
          : {}),
        links: { related: `${path}/effective-tag-bindings` },
      },
      'remote-state-consumers': related(`${path}/relationships/remote-state-consumers`),
    },
    links: {
      self: `${API_PREFIX}/organizations/${org}/workspaces/${name}`,
      'self-html': `/app/${org}/workspaces/${name}`,
    },
  };
}
