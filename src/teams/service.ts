import type { Context } from '../context.js';
import { ORGANIZATION_ACCESS, type OrganizationAccessFlag } from '../auth/levels.js';
import { ensure, teamListScope, teamPermissions, type Action } from '../auth/policy.js';
import { isUniqueViolation } from '../db/connect.js';
import { searchable } from '../db/search.js';
import { newId, now } from '../ids.js';
import { invalidAttribute, notFound, unprocessable } from '../jsonapi/errors.js';
import type { NameRules, ResourceInput } from '../jsonapi/payload.js';
import type { Page } from '../jsonapi/query.js';
import { getOrganization } from '../organizations/service.js';
import { type Organization, ORGANIZATION_COLUMNS, splitOrganization } from '../organizations/store.js';
import { organizationAccess } from './serialize.js';
import { listTeams, type Team } from './store.js';

const NAME_RULES: NameRules = { maxLength: 90, pattern: /^[A-Za-z0-9_-]+$/, allowed: 'letters, numbers, "-" and "_"' };
const VISIBILITIES = ['secret', 'organization'] as const;

export interface TeamWithOrganization {
  team: Team;
  organization: Organization;
}

/** A team with its organization, if the subject may do `action` on it; otherwise the 404 of a missing one. */
export async function getTeam(ctx: Context, id: string, action: Action = 'team:read'): Promise<TeamWithOrganization> {
  const row = await ctx.store.db
    .selectFrom('teams')
    .innerJoin('organizations', 'organizations.id', 'teams.organization_id')
    .selectAll('teams')
    .select(ORGANIZATION_COLUMNS)
    .where('teams.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound();
  const { row: team, organization } = splitOrganization(row);
  ensure(ctx.subject, 'team:read', teamTarget(team));
  if (action !== 'team:read') ensure(ctx.subject, action, teamTarget(team));
  return { team, organization };
}

export function teamTarget(team: Team) {
  return { organizationId: team.organization_id, team: { id: team.id, visibility: team.visibility } };
}

/** The caller's `permissions` on a team. */
export function permissionsOn(ctx: Context, team: Team): Record<string, boolean> {
  return teamPermissions(ctx.subject, teamTarget(team));
}

export async function listOrganizationTeams(ctx: Context, organizationName: string, filter: { search?: string | undefined; names?: string[] | undefined }, page: Page) {
  const organization = await getOrganization(ctx, organizationName);
  ensure(ctx.subject, 'teams:list', { organizationId: organization.id });
  const scope = teamListScope(ctx.subject, organization.id);
  if (scope === 'none') throw notFound();
  return { organization, ...(await listTeams(ctx.store.db, organization.id, { ...filter, scope }, page)) };
}

function readVisibility(input: ResourceInput): Team['visibility'] | undefined {
  const value = input.string('visibility');
  if (value !== undefined && !(VISIBILITIES as readonly string[]).includes(value)) {
    throw invalidAttribute('visibility must be "secret" or "organization"', input.attributePointer('visibility'));
  }
  return value as Team['visibility'] | undefined;
}

/** The flags given in `organization-access`, each a boolean (null counts as false); unknown flags are refused. */
function readOrganizationAccess(input: ResourceInput): Partial<Record<OrganizationAccessFlag, boolean>> | undefined {
  const value = input.attributes['organization-access'];
  if (value === undefined || value === null) return undefined;
  const pointer = input.attributePointer('organization-access');
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidAttribute('organization-access must be an object of permission flags', pointer);
  const flags: Partial<Record<OrganizationAccessFlag, boolean>> = {};
  for (const [flag, enabled] of Object.entries(value as Record<string, unknown>)) {
    if (!(ORGANIZATION_ACCESS as readonly string[]).includes(flag)) throw invalidAttribute(`unknown organization access permission "${flag}"`, `${pointer}/${flag}`);
    if (enabled !== null && typeof enabled !== 'boolean') throw invalidAttribute(`${flag} must be true or false`, `${pointer}/${flag}`);
    flags[flag as OrganizationAccessFlag] = enabled === true;
  }
  return flags;
}

/** The columns that hold a team's organization access: the enforced flags, and the others as JSON. */
function accessColumns(current: Record<OrganizationAccessFlag, boolean>) {
  const flag = (name: OrganizationAccessFlag) => current[name];
  const others = Object.fromEntries(
    ORGANIZATION_ACCESS.filter((f) => !['manage-workspaces', 'manage-projects', 'read-workspaces', 'read-projects'].includes(f) && current[f]).map((f) => [f, true]),
  );
  return {
    manage_workspaces: flag('manage-workspaces'),
    manage_projects: flag('manage-projects'),
    read_workspaces: flag('read-workspaces'),
    read_projects: flag('read-projects'),
    other_access: JSON.stringify(others),
  };
}

async function write<T>(input: ResourceInput, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (isUniqueViolation(error)) throw input.nameTaken();
    throw error;
  }
}

export async function createTeam(ctx: Context, organizationName: string, input: ResourceInput): Promise<TeamWithOrganization> {
  const organization = await getOrganization(ctx, organizationName);
  ensure(ctx.subject, 'teams:create', { organizationId: organization.id });
  const name = input.name(true, NAME_RULES)!;
  const given = readOrganizationAccess(input) ?? {};
  const access = Object.fromEntries(ORGANIZATION_ACCESS.map((f) => [f, given[f] ?? false])) as Record<OrganizationAccessFlag, boolean>;
  const team: Team = {
    id: newId('team'),
    organization_id: organization.id,
    name,
    search_name: searchable(name),
    is_owners: false,
    visibility: readVisibility(input) ?? 'secret',
    sso_team_id: input.string('sso-team-id') ?? null,
    allow_member_token_management: input.boolean('allow-member-token-management') !== false,
    ...accessColumns(access),
    created_at: now(),
  };
  await write(input, () => ctx.store.db.insertInto('teams').values(team).execute());
  return { team, organization };
}

export async function updateTeam(ctx: Context, id: string, input: ResourceInput): Promise<TeamWithOrganization> {
  const found = await getTeam(ctx, id, 'team:update');
  const name = input.name(false, NAME_RULES);
  const access = readOrganizationAccess(input);
  if (found.team.is_owners) {
    if (name !== undefined && name !== found.team.name) throw unprocessable('the owners team cannot be renamed', input.attributePointer('name'));
    if (access !== undefined && Object.values(access).some((enabled) => !enabled)) {
      throw unprocessable('the owners team always has every organization permission', input.attributePointer('organization-access'));
    }
  }
  const visibility = readVisibility(input);
  const ssoTeamId = input.attributes['sso-team-id'] === null ? null : input.string('sso-team-id');
  const allowMemberTokens = input.boolean('allow-member-token-management');
  const team: Team = {
    ...found.team,
    name: name ?? found.team.name,
    search_name: searchable(name ?? found.team.name),
    visibility: visibility ?? found.team.visibility,
    sso_team_id: ssoTeamId === undefined ? found.team.sso_team_id : ssoTeamId,
    allow_member_token_management: allowMemberTokens === undefined ? found.team.allow_member_token_management : allowMemberTokens,
    ...(found.team.is_owners ? {} : accessColumns({ ...organizationAccess(found.team), ...access })),
  };
  const { id: _id, organization_id: _org, created_at: _created, is_owners: _owners, ...changes } = team;
  await write(input, () => ctx.store.db.updateTable('teams').set(changes).where('id', '=', id).execute());
  return { team, organization: found.organization };
}

/** Deletes a team with its token and access grants. The owners team cannot be deleted. */
export async function deleteTeam(ctx: Context, id: string): Promise<void> {
  const { team } = await getTeam(ctx, id, 'team:delete');
  if (team.is_owners) throw unprocessable('the owners team cannot be deleted');
  await ctx.store.db.deleteFrom('teams').where('id', '=', team.id).execute();
}
