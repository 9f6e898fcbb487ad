import type { Static } from 'typebox';
import { API_PREFIX, toOne } from '../jsonapi/document.js';
import { organizationAccessOf, type Team } from './model.js';
import type { TeamResource } from './schemas.js';

/** A team. `permissions` are the caller's on this team, as the policy decides them. */
export function serializeTeam(
  team: Team,
  organizationName: string,
  permissions: Record<string, boolean>,
): Static<typeof TeamResource> {
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
      'organization-access': organizationAccessOf(team),
      permissions,
      'created-at': team.created_at,
    },
    relationships: {
      organization: toOne('organizations', organizationName),
      users: { data: [] },
      'organization-memberships': { data: [] },
      'authentication-token': { links: { related: `${API_PREFIX}/teams/${team.id}/authentication-token` } },
    },
    links: { self: `${API_PREFIX}/teams/${team.id}` },
  };
}
