import type { RouteOptions } from 'fastify';

/**
 * The groups of operations in the OpenAPI document (`/api/docs` shows one per tag, in this
 * order): each route file tags its routes with `tagged`, by the resource they serve.
 */
export const API_TAGS = {
  organizations: { name: 'Organizations', description: 'Organizations, their settings and entitlements' },
  projects: { name: 'Projects', description: 'Projects and their tag bindings' },
  workspaces: { name: 'Workspaces', description: 'Workspaces, their tags, locks and remote state consumers' },
  teams: { name: 'Teams', description: "An organization's teams" },
  teamAccess: { name: 'Team access', description: 'What a team may do in a workspace or a project' },
  tokens: { name: 'Authentication tokens', description: 'Team and organization tokens' },
  varsets: { name: 'Variable sets', description: 'Variable sets, their variables and assignments' },
  varsetVersions: {
    name: 'Variable set versions',
    description: "varsetd's own: every version of a set, and an organization's deleted sets",
  },
  notifications: {
    name: 'Variable set notifications',
    description: "varsetd's own: where to send each change of an organization's sets",
  },
  imports: {
    name: 'Import and export',
    description: "varsetd's own: an organization's sets downloaded as an export, and an import's dry run and report",
  },
  workspaceVariables: { name: 'Workspace variables', description: "A workspace's own variables" },
  effectiveVariables: {
    name: 'Effective variables',
    description: "varsetd's own: what a run gets and why, and the impact of a set's change before it is saved",
  },
  configurationVersions: { name: 'Configuration versions', description: "A workspace's uploaded configurations" },
  runs: { name: 'Runs', description: 'Runs and their events' },
  comments: { name: 'Comments', description: 'Comments on runs' },
  workloadIdentity: {
    name: 'Workload identity',
    description: "varsetd as an OpenID Connect issuer: a run's token for a cloud, and the issuer's keys",
  },
  auditTrail: { name: 'Audit trail', description: "An organization's audit trail" },
  service: { name: 'Service', description: "The API's discovery and ping" },
} as const;

export type ApiTag = keyof typeof API_TAGS;

/** The document's list of tags, in the order `/api/docs` shows them. */
export const TAG_LIST = Object.values(API_TAGS).map(({ name, description }) => ({ name, description }));

/** An `onRoute` hook tagging the routes of a plugin with `tag`, unless a route names its own. */
export function tagged(tag: ApiTag): (route: RouteOptions) => void {
  return (route) => {
    const schema = (route.schema ??= {});
    schema.tags ??= [API_TAGS[tag].name];
  };
}
