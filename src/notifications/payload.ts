import { toldChange, TRIGGER_OF_ACTION, type ChangeToSend, type DestinationType, type ToldChange } from './model.js';

/**
 * The bodies sent to a destination. A change is told without any value, sensitive or not:
 * keys, fields and ids only. The same change always makes the same body, so that a retry sends
 * exactly what the first attempt sent (and its signature is the same).
 */

export const PAYLOAD_VERSION = 1;

interface Destination {
  id: string;
  name: string;
  destinationType: DestinationType;
}

/** The JSON text sent for a change. */
export function changeBody(destination: Destination, { version, workspaceCount }: ChangeToSend): string {
  const changes = version.changes.map(toldChange);
  const message = summary(version.varsetName, version.action, version.rolledBackTo, changes);
  if (destination.destinationType === 'slack')
    return JSON.stringify(slackMessage(message, version, changes, workspaceCount));
  return JSON.stringify({
    payload_version: PAYLOAD_VERSION,
    notification_configuration_id: destination.id,
    notification_configuration_name: destination.name,
    trigger: TRIGGER_OF_ACTION[version.action],
    message,
    varset: { id: version.varsetId, name: version.varsetName, organization: version.organizationName },
    version: {
      id: version.id,
      number: version.number,
      action: version.action,
      rolled_back_to: version.rolledBackTo,
      created_at: version.createdAt,
      cause: version.cause,
    },
    changes,
    actor: {
      description: version.actor.description,
      token_id: version.actor.tokenId,
      kind: version.actor.kind,
      team_id: version.actor.teamId,
    },
    request_id: version.requestId,
    workspace_count: workspaceCount,
  });
}

/** The JSON text `actions/verify` sends. */
export function verificationBody(destination: Destination, organization: string, sentAt: string): string {
  const message = `Verification of varsetd's notification configuration "${destination.name}" of ${organization}`;
  if (destination.destinationType === 'slack') return JSON.stringify({ text: slackEscape(message) });
  return JSON.stringify({
    payload_version: PAYLOAD_VERSION,
    notification_configuration_id: destination.id,
    notification_configuration_name: destination.name,
    trigger: 'verification',
    message,
    organization,
    sent_at: sentAt,
  });
}

const ACTION_WORDS = { create: 'created', update: 'changed', delete: 'deleted', rollback: 'rolled back' } as const;

function summary(
  name: string,
  action: keyof typeof ACTION_WORDS,
  rolledBackTo: number | null,
  changes: ToldChange[],
): string {
  const what = action === 'rollback' ? `rolled back to version ${rolledBackTo}` : ACTION_WORDS[action];
  return `Variable set "${name}" ${what}: ${changes.length} ${changes.length === 1 ? 'change' : 'changes'}`;
}

/** One line of a change, for people. */
function describe(change: ToldChange): string {
  switch (change.target) {
    case 'varset':
      return `${change.field} changed`;
    case 'workspace':
    case 'project':
      return `${change.target} ${change.id} ${change.action}`;
    case 'variable':
      if (change.action === 'changed') return `variable ${change.key} (${change.category}): ${change.field} changed`;
      return `variable ${change.key} (${change.category}${change.sensitive ? ', sensitive' : ''}) ${change.action}`;
  }
}

/** Slack's mrkdwn gives `&`, `<` and `>` a meaning: written as entities, they are shown as they are. */
function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Lines of changes a Slack message lists; the rest are counted. */
const SLACK_LINES = 20;
/** Slack refuses a section whose text is longer than 3,000 characters. */
const SLACK_TEXT_LIMIT = 3000;

const within = (text: string, limit: number) => (text.length <= limit ? text : `${text.slice(0, limit - 1)}…`);

function slackMessage(
  message: string,
  version: ChangeToSend['version'],
  changes: ToldChange[],
  workspaceCount: number,
) {
  const lines = changes.slice(0, SLACK_LINES).map((change) => `• ${slackEscape(describe(change))}`);
  if (changes.length > SLACK_LINES) lines.push(`… and ${changes.length - SLACK_LINES} more`);
  const cause = version.cause === null ? '' : ` · ${slackEscape(version.cause)}`;
  const context = `${slackEscape(version.organizationName)} · version ${version.number} · by ${slackEscape(version.actor.description)}${cause} · reaches ${workspaceCount} ${workspaceCount === 1 ? 'workspace' : 'workspaces'} · request ${version.requestId}`;
  return {
    text: slackEscape(message),
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${slackEscape(message)}*` } },
      ...(lines.length
        ? [{ type: 'section', text: { type: 'mrkdwn', text: within(lines.join('\n'), SLACK_TEXT_LIMIT) } }]
        : []),
      { type: 'context', elements: [{ type: 'mrkdwn', text: context }] },
    ],
  };
}
