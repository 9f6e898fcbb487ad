import { Invalid } from '../common/errors.js';
import type { OrganizationChanges, OrganizationSettings } from './model.js';

const AGENT_POOL = 'default-agent-pool';

/**
 * The rules between an organization's settings, checked on the settings it would have after
 * the change: HCP Terraform's, with varsetd's lack of agent pools.
 */
export function checkSettings(settings: OrganizationSettings, changes: OrganizationChanges): OrganizationSettings {
  if (
    settings['send-passing-statuses-for-untriggered-speculative-plans'] &&
    settings['aggregated-commit-status-enabled']
  ) {
    const field = changes.settings['aggregated-commit-status-enabled']
      ? 'aggregated-commit-status-enabled'
      : 'send-passing-statuses-for-untriggered-speculative-plans';
    throw new Invalid(
      field,
      'send-passing-statuses-for-untriggered-speculative-plans and aggregated-commit-status-enabled cannot both be true',
    );
  }
  if (changes.defaultAgentPoolId !== undefined) {
    if (settings['default-execution-mode'] !== 'agent') {
      throw new Invalid(AGENT_POOL, "Default agent pool must not be specified unless using 'agent' execution mode");
    }
    throw new Invalid(AGENT_POOL, 'Default agent pool not found: varsetd has no agent pools');
  }
  if (settings['default-execution-mode'] === 'agent') {
    throw new Invalid(
      'default-execution-mode',
      "Default agent pool must be specified when using 'agent' execution mode, and varsetd has no agent pools",
    );
  }
  return settings;
}
