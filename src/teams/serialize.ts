import { ENFORCED_ORGANIZATION_ACCESS, ORGANIZATION_ACCESS, type OrganizationAccessFlag } from '../auth/levels.js';
import { toOne, type Resource } from '../jsonapi/document.js';
import type { Team } from './store.js';

/** Every organization-access flag of a team; the owners team has all of them. */
export function organizationAccess(team: Team): Record<OrganizationAccessFlag, boolean> {
  const stored: Record<string, unknown> = JSON.parse(team.other_access);
  const enforced: Record<(typeof ENFORCED_ORGANIZATION_ACCESS)[number], boolean> = {
    'manage-workspaces': team.manage_workspaces,
    'manage-projects': team.manage_projects,
    'read-workspaces': team.read_workspaces,
    'read-projects': team.read_projects,
  };
  return Object.fromEntries(
    ORGANIZATION_ACCESS.map((flag) => [flag, team.is_owners || (flag in enforced ? enforced[flag as keyof typeof enforced] : stored[flag] === true)]),
  ) as Record<OrganizationAccessFlag, boolean>;
}

/** A team. `permissions` are the caller's on this team, as the policy decides them. */
export function serializeTeam(team: Team, organizationName: string, permissions: Record<string, boolean>): Resource {
  return {
    id: team.id,
    type: 'teams',
    attributes: {
      name: team.name,
      'users-count': 0,
      visibility: team.visibility,
      'sso-team-id': team.sso_team_id,
      'allow-member-token-management': team.allow_member_token_management,
      'is-unified': false,
      'organization-access': organizationAccess(team),
      permissions,
      'created-at': team.created_at,
    },
    relationships: {
      organization: toOne('organizations', organizationName),
      users: { data: [] },
      'organization-memberships': { data: [] },
      'authentication-token': { links: { related: `/api/v2/teams/${team.id}/authentication-token` } },
    },
    links: { self: `/api/v2/teams/${team.id}` },
  };
}
