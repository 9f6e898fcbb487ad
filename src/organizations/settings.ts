import { invalidAttribute } from '../jsonapi/errors.js';
import type { OrganizationChanges, OrganizationSettings } from './model.js';

const ATTRIBUTES = '/data/attributes';
const AGENT_POOL = '/data/relationships/default-agent-pool';

/**
 * The rules between an organization's settings, checked on the settings it would have after
 * the change: HCP Terraform's, with varsetd's lack of agent pools.
 */
export function checkSettings(settings: OrganizationSettings, changes: OrganizationChanges): OrganizationSettings {
  if (settings['send-passing-statuses-for-untriggered-speculative-plans'] && settings['aggregated-commit-status-enabled']) {
    const pointer = changes.settings['aggregated-commit-status-enabled'] ? 'aggregated-commit-status-enabled' : 'send-passing-statuses-for-untriggered-speculative-plans';
    throw invalidAttribute(
      'send-passing-statuses-for-untriggered-speculative-plans and aggregated-commit-status-enabled cannot both be true',
      `${ATTRIBUTES}/${pointer}`,
    );
  }
  if (changes.defaultAgentPoolId !== undefined) {
    if (settings['default-execution-mode'] !== 'agent') {
      throw invalidAttribute("Default agent pool must not be specified unless using 'agent' execution mode", AGENT_POOL);
    }
    throw invalidAttribute('Default agent pool not found: varsetd has no agent pools', AGENT_POOL);
  }
  if (settings['default-execution-mode'] === 'agent') {
    throw invalidAttribute("Default agent pool must be specified when using 'agent' execution mode, and varsetd has no agent pools", `${ATTRIBUTES}/default-execution-mode`);
  }
  return settings;
}
