import { Invalid } from '../common/errors.js';
import type { ExecutionMode } from '../organizations/model.js';
import type { Project, ProjectChanges } from './model.js';

/**
 * A project's execution mode after a change, by HCP Terraform's rules: a mode given overwrites
 * the organization's, `setting-overwrites` false follows it again. varsetd has no agent pools,
 * so neither a pool nor the `agent` mode, which needs one, can be set. A project that follows
 * its organization keeps `current`'s mode here; the service then takes the organization's.
 */
export function executionModeAfter(
  current: { default_execution_mode: ExecutionMode; execution_mode_overwritten: boolean },
  changes: ProjectChanges,
): Pick<Project, 'default_execution_mode' | 'execution_mode_overwritten'> {
  const { executionMode, agentPool } = changes.overwrites;
  if (executionMode !== undefined && agentPool !== undefined && executionMode !== agentPool) {
    throw new Invalid(
      'setting-overwrites',
      'If agent-pool and execution-mode are both included in setting-overwrites, their values must be the same.',
    );
  }
  const mode = changes.defaultExecutionMode;
  if (changes.defaultAgentPoolId !== undefined) {
    const field = 'default-agent-pool-id';
    if (mode !== 'agent')
      throw new Invalid(field, "Default agent pool must not be specified unless using 'agent' execution mode");
    throw new Invalid(field, 'Default agent pool not found: varsetd has no agent pools');
  }
  if (mode === 'agent') {
    throw new Invalid(
      'default-execution-mode',
      "Default agent pool must be specified when using 'agent' execution mode, and varsetd has no agent pools",
    );
  }
  const overwrite = executionMode ?? agentPool;
  if (overwrite === false) {
    if (mode !== undefined)
      throw new Invalid(
        'default-execution-mode',
        'default-execution-mode cannot be given with setting-overwrites false',
      );
    return { default_execution_mode: current.default_execution_mode, execution_mode_overwritten: false };
  }
  if (mode !== undefined) return { default_execution_mode: mode, execution_mode_overwritten: true };
  if (overwrite === true && !current.execution_mode_overwritten) {
    throw new Invalid('default-execution-mode', 'default-execution-mode must be given with setting-overwrites true');
  }
  return {
    default_execution_mode: current.default_execution_mode,
    execution_mode_overwritten: current.execution_mode_overwritten,
  };
}
