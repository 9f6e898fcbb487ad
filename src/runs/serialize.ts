import type { Static } from 'typebox';
import { API_PREFIX, toOne } from '../jsonapi/document.js';
import type { RunResource } from './schemas.js';
import type { OpenedVariable } from '../effective/service.js';
import type { Run, RunPermissions } from './model.js';
import type { OpenedVariableResource } from './schemas.js';

/** A run; `eventIds` are its events', oldest first. */
export function serializeRun(
  run: Run,
  permissions: RunPermissions,
  eventIds: readonly string[],
): Static<typeof RunResource> {
  const self = `${API_PREFIX}/runs/${run.id}`;
  return {
    id: run.id,
    type: 'runs',
    attributes: {
      status: run.status,
      'status-timestamps': statusTimestamps(run),
      message: run.message,
      source: 'tfe-api',
      'trigger-reason': 'manual',
      'created-at': run.created_at,
      'canceled-at': null,
      'is-destroy': run.is_destroy,
      'plan-only': run.plan_only,
      'auto-apply': false,
      'allow-empty-apply': false,
      'has-changes': false,
      refresh: true,
      'refresh-only': false,
      'save-plan': false,
      'position-in-queue': 0,
      'target-addrs': null,
      'replace-addrs': null,
      variables: run.variables,
      actions: {
        'is-cancelable': false,
        'is-confirmable': false,
        'is-discardable': false,
        'is-force-cancelable': false,
      },
      permissions: {
        'can-apply': false,
        'can-cancel': false,
        'can-comment': permissions.canComment,
        'can-discard': false,
        'can-force-cancel': false,
        'can-force-execute': false,
        'can-override-policy-check': false,
      },
    },
    relationships: {
      workspace: toOne('workspaces', run.workspace_id),
      'configuration-version': toOne('configuration-versions', run.configuration_version_id),
      'run-events': {
        data: eventIds.map((id) => ({ id, type: 'run-events' as const })),
        links: { related: `${self}/run-events` },
      },
      comments: { links: { related: `${self}/comments` } },
    },
    links: { self },
  };
}

function statusTimestamps(run: Run): Static<typeof RunResource>['attributes']['status-timestamps'] {
  const timestamps: Static<typeof RunResource>['attributes']['status-timestamps'] = {};
  if (run.planning_at) timestamps['planning-at'] = run.planning_at;
  if (run.finished_at && (run.status === 'planned' || run.status === 'errored'))
    timestamps[`${run.status}-at`] = run.finished_at;
  return timestamps;
}

export function serializeOpenedVariable(variable: OpenedVariable): Static<typeof OpenedVariableResource> {
  const { key, category, value, hcl, sensitive } = variable;
  return { id: `${category}:${key}`, type: 'opened-variables', attributes: { key, category, value, hcl, sensitive } };
}
