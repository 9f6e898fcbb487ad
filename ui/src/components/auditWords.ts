import type { AuditEvent } from '../api/audit';

/** What each `resource.type` of the trail is called, in the order of the API's documentation. */
export const TYPE_NAMES: Record<string, string> = {
  organization: 'organization',
  project: 'project',
  workspace: 'workspace',
  team: 'team',
  authentication_token: 'token',
  varset: 'variable set',
  var: 'variable',
  configuration_version: 'configuration version',
  run: 'run',
  workspace_comment: 'comment',
};

const ACTION_WORDS: Record<string, string> = {
  create: 'created',
  update: 'updated',
  destroy: 'deleted',
  rollback: 'rolled back',
  apply: 'applied',
  remove: 'removed',
  lock: 'locked',
  unlock: 'unlocked',
  force_unlock: 'force-unlocked',
  safe_delete: 'safely deleted',
  add_tags: 'tags added',
  remove_tags: 'tags removed',
  add_tag_bindings: 'tag bindings added',
  add_remote_state_consumers: 'remote state consumers added',
  remove_remote_state_consumers: 'remote state consumers removed',
  replace_remote_state_consumers: 'remote state consumers replaced',
  add_team: 'team access granted',
  update_team_permissions: 'team access changed',
  remove_team: 'team access removed',
  upload: 'uploaded',
  archive: 'archived',
  start: 'started',
  finish: 'finished',
};

export const typeName = (type: string): string => TYPE_NAMES[type] ?? type.replaceAll('_', ' ');
export const actionWords = (action: string): string => ACTION_WORDS[action] ?? action.replaceAll('_', ' ');

const fact = (event: AuditEvent, name: string): string | undefined => {
  const value = event.resource.meta?.[name];
  return value === null || value === undefined || value === '' ? undefined : String(value);
};

/** What the event did, in words: "variable set updated", "variable set rolled back to version 2". */
export function whatHappened(event: AuditEvent): string {
  const { type, action } = event.resource;
  let noun = typeName(type);
  if (type === 'authentication_token' && fact(event, 'kind')) noun = `${fact(event, 'kind')} token`;
  let words = actionWords(action);
  const assigned = fact(event, 'workspace_ids') ? 'workspaces' : fact(event, 'project_ids') ? 'projects' : undefined;
  if (type === 'varset' && action === 'apply' && assigned) words = `applied to ${assigned}`;
  if (type === 'varset' && action === 'remove' && assigned) words = `removed from ${assigned}`;
  if (action === 'rollback' && fact(event, 'rolled-back-to'))
    words = `rolled back to version ${fact(event, 'rolled-back-to')}`;
  return `${noun} ${words}`;
}

/** How the event names its resource: its name or key where `meta` has one, its id otherwise. */
export function resourceLabel(event: AuditEvent): string {
  return fact(event, 'name') ?? fact(event, 'key') ?? event.resource.id;
}

/**
 * The UI's page for the event's resource, or null when it has none (or the event deleted it).
 * A deleted set keeps its history; a rollback opens the version it made; a variable opens the
 * set or workspace holding it; a comment, its run.
 */
export function resourcePath(event: AuditEvent): string | null {
  const { id, type, action } = event.resource;
  const deleted = action === 'destroy' || action === 'safe_delete';
  switch (type) {
    case 'varset': {
      const version = fact(event, 'version');
      if (action === 'rollback') return `/varsets/${id}/history${version ? `?version=${version}` : ''}`;
      return deleted ? `/varsets/${id}/history` : `/varsets/${id}`;
    }
    case 'var': {
      const set = fact(event, 'varset_id');
      const workspace = fact(event, 'workspace_id');
      return set ? `/varsets/${set}` : workspace ? `/workspaces/${workspace}` : null;
    }
    case 'workspace':
      return deleted ? null : `/workspaces/${id}`;
    case 'project':
      return deleted ? null : `/projects/${id}`;
    case 'run':
      return `/runs/${id}`;
    case 'workspace_comment': {
      const run = fact(event, 'run_id');
      return run ? `/runs/${run}` : null;
    }
    case 'organization': {
      const name = fact(event, 'name');
      return name && !deleted ? `/organizations/${encodeURIComponent(name)}/varsets` : null;
    }
    default:
      return null;
  }
}

/** The facts of `meta` whose values are ids (or lists of ids) of things the UI has a page for. */
export const FACT_PAGES: Record<string, string> = {
  varset_id: '/varsets/',
  workspace_id: '/workspaces/',
  workspace_ids: '/workspaces/',
  project_ids: '/projects/',
  run_id: '/runs/',
};
