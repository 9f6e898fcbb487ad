import { ORGANIZATION_ACCESS, type OrganizationAccessFlag } from '../auth/levels.js';

export const TEAM_VISIBILITIES = ['secret', 'organization'] as const;
export type TeamVisibility = (typeof TEAM_VISIBILITIES)[number];

/** Every organization-access flag of a team, each granted or not. */
export type OrganizationAccess = Record<OrganizationAccessFlag, boolean>;

/** A team of an organization. */
export interface Team {
  id: string;
  organization_id: string;
  name: string;
  /** The organization's owners team: every permission, cannot be renamed or deleted. */
  is_owners: boolean;
  visibility: TeamVisibility;
  sso_team_id: string | null;
  allow_member_token_management: boolean;
  /** The flags as granted; `organizationAccessOf` tells what the team has. */
  organization_access: OrganizationAccess;
  created_at: string;
}

/** The name of the team every organization is created with. */
export const OWNERS_TEAM_NAME = 'owners';

/** A team's organization access: the owners team has every flag. */
export function organizationAccessOf(team: Team): OrganizationAccess {
  if (!team.is_owners) return team.organization_access;
  return Object.fromEntries(ORGANIZATION_ACCESS.map((flag) => [flag, true])) as OrganizationAccess;
}

/** Organization access with only the flags given set: what a new team gets. */
export function grantedOnly(given: Partial<OrganizationAccess>): OrganizationAccess {
  return Object.fromEntries(ORGANIZATION_ACCESS.map((flag) => [flag, given[flag] ?? false])) as OrganizationAccess;
}

/** What a client may set on a team; on create, the name is required. */
export interface TeamChanges {
  name?: string | undefined;
  visibility?: TeamVisibility | undefined;
  /** null clears it. */
  ssoTeamId?: string | null | undefined;
  allowMemberTokenManagement?: boolean | undefined;
  /** The flags given, by name as the client wrote them (null counts as false). */
  organizationAccess?: Record<string, boolean | null | undefined> | undefined;
}
