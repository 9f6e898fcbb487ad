import type { Static } from 'typebox';
import { Invalid } from '../common/errors.js';
import { EXECUTION_MODES, type ExecutionMode } from '../organizations/model.js';
import type { Workspace, WorkspaceSettings } from './model.js';
import type { WorkspaceBody } from './schemas.js';

type Attributes = NonNullable<Static<typeof WorkspaceBody>['data']['attributes']>;

/** `latest`, a version (`1.9.5`, `1.10.0-beta1`) or a constraint (`~> 1.9.0`, `>= 1.5, < 2.0`). */
const VERSION = /^\d+(\.\d+){0,2}(-[0-9A-Za-z.]+)?$/;
const CONSTRAINT_PART = /^(=|!=|>|>=|<|<=|~>)?\s*\d+(\.\d+){0,2}(-[0-9A-Za-z.]+)?$/;

function checkTerraformVersion(version: string): string {
  const parts = version.split(',').map((p) => p.trim());
  if (version === 'latest' || VERSION.test(version) || parts.every((p) => CONSTRAINT_PART.test(p))) return version;
  throw new Invalid(
    'terraform-version',
    `terraform-version "${version}" is neither "latest", a version nor a version constraint`,
  );
}

function checkTime(value: string, name: string): string {
  const time = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(time))
    throw new Invalid(name, `${name} must be an ISO 8601 time`);
  return new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** When a duration of inactivity (`14d`, `12h`) after `from` ends. */
export function destroyTimeAfter(duration: string, from: string): string {
  const amount = Number(duration.slice(0, -1));
  const hours = duration.endsWith('d') ? amount * 24 : amount;
  return new Date(Date.parse(from) + hours * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The settings a create or update body asks for, checked. Out of varsetd's scope, and so a
 * 422 rather than a pretence: a VCS connection (`vcs-repo` other than null), an agent pool
 * (`agent-pool-id` other than empty, execution mode `agent`). `operations` is the older form
 * of the execution mode (true: remote, false: local). `setting-overwrites.execution-mode`
 * false makes the workspace follow its organization's default.
 */
export function settingsOf(
  attributes: Attributes | null | undefined,
  timestamp: string,
): Partial<WorkspaceSettings> & { pinExecutionMode?: true } {
  const a = attributes ?? {};
  const settings: Partial<WorkspaceSettings> & { pinExecutionMode?: true } = {};
  const flags = [
    ['allow-destroy-plan', 'allow_destroy_plan'],
    ['assessments-enabled', 'assessments_enabled'],
    ['auto-apply', 'auto_apply'],
    ['auto-apply-run-trigger', 'auto_apply_run_trigger'],
    ['inherits-project-auto-destroy', 'inherits_project_auto_destroy'],
    ['file-triggers-enabled', 'file_triggers_enabled'],
    ['global-remote-state', 'global_remote_state'],
    ['project-remote-state', 'project_remote_state'],
    ['queue-all-runs', 'queue_all_runs'],
    ['speculative-enabled', 'speculative_enabled'],
    ['structured-run-output-enabled', 'structured_run_output_enabled'],
  ] as const;
  for (const [attribute, column] of flags) {
    const value = a[attribute];
    if (value !== undefined && value !== null) settings[column] = value;
  }
  if (a['hyok-enabled'] === true) throw new Invalid('hyok-enabled', 'hold-your-own-key encryption is outside varsetd');
  if (a['hyok-enabled'] === false) settings.hyok_enabled = false;

  if (a['vcs-repo'] !== undefined && a['vcs-repo'] !== null)
    throw new Invalid('vcs-repo', 'VCS connections are outside varsetd: vcs-repo may only be null');
  if (a['agent-pool-id'])
    throw new Invalid('agent-pool-id', 'agent pools are outside varsetd: agent-pool-id may only be empty');

  const mode = a['execution-mode'];
  if (mode !== undefined && mode !== null) {
    if (!(EXECUTION_MODES as readonly string[]).includes(mode))
      throw new Invalid('execution-mode', 'execution-mode must be "remote", "local" or "agent"');
    if (mode === 'agent')
      throw new Invalid('execution-mode', 'agent pools are outside varsetd: execution-mode "agent" needs one');
    if (a.operations !== undefined && a.operations !== null)
      throw new Invalid('operations', 'operations is deprecated and cannot be given with execution-mode');
    settings.execution_mode = mode as ExecutionMode;
  } else if (a.operations !== undefined && a.operations !== null) {
    settings.execution_mode = a.operations ? 'remote' : 'local';
  }
  const overwrites = a['setting-overwrites'];
  if (overwrites?.['execution-mode'] === false) {
    if (settings.execution_mode !== undefined)
      throw new Invalid(
        'setting-overwrites',
        'execution-mode cannot be set while setting-overwrites says it follows the default',
      );
    settings.execution_mode = null;
  } else if (overwrites?.['execution-mode'] === true && settings.execution_mode === undefined) {
    // The workspace keeps the mode it has, as its own from now on.
    settings.pinExecutionMode = true;
  }

  if (a['terraform-version'] !== undefined && a['terraform-version'] !== null)
    settings.terraform_version = checkTerraformVersion(a['terraform-version']);
  if (a['working-directory'] !== undefined && a['working-directory'] !== null)
    settings.working_directory = a['working-directory'];
  if (a['source-name'] !== undefined && a['source-name'] !== null) settings.source_name = a['source-name'];
  if (a['source-url'] !== undefined && a['source-url'] !== null) {
    if (!/^https?:\/\/\S+$/.test(a['source-url']))
      throw new Invalid('source-url', 'source-url must be an http or https URL');
    settings.source_url = a['source-url'];
  }

  const prefixes = a['trigger-prefixes'] ?? undefined;
  const patterns = a['trigger-patterns'] ?? undefined;
  if (prefixes?.length && patterns?.length)
    throw new Invalid('trigger-patterns', 'trigger-prefixes and trigger-patterns cannot both be given');
  if (prefixes !== undefined) settings.trigger_prefixes = prefixes;
  if (patterns !== undefined) settings.trigger_patterns = patterns;
  // One kind of trigger at a time: setting one clears the other.
  if (prefixes?.length) settings.trigger_patterns = [];
  if (patterns?.length) settings.trigger_prefixes = [];

  if (a['auto-destroy-at'] !== undefined)
    settings.auto_destroy_at =
      a['auto-destroy-at'] === null ? null : checkTime(a['auto-destroy-at'], 'auto-destroy-at');
  const duration = a['auto-destroy-activity-duration'];
  if (duration !== undefined) {
    if (duration !== null && a['auto-destroy-at'])
      throw new Invalid(
        'auto-destroy-activity-duration',
        'auto-destroy-at and auto-destroy-activity-duration cannot both be given',
      );
    settings.auto_destroy_activity_duration = duration;
    // The activity the duration counts from is the workspace's last change: this one.
    settings.auto_destroy_at = duration === null ? null : destroyTimeAfter(duration, timestamp);
  }
  return settings;
}

/** Settings of a workspace after a change that may touch its activity: a running inactivity countdown starts again. */
export function withActivity(workspace: Workspace, timestamp: string): Workspace {
  if (workspace.auto_destroy_activity_duration === null) return workspace;
  return { ...workspace, auto_destroy_at: destroyTimeAfter(workspace.auto_destroy_activity_duration, timestamp) };
}
