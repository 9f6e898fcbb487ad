import type { Context } from '../auth/context.js';
import type { OrganizationAccessFlag } from '../auth/levels.js';
import { can, ensure } from '../auth/decisions.js';
import { teamListScope } from '../auth/list-scopes.js';
import { teamPermissions } from '../auth/permissions.js';
import type { Action, Target } from '../auth/actions.js';
import { recordAuditEvent } from '../audit/service.js';
import { transaction, type Trx } from '../db/transaction.js';
import { newId, now } from '../common/ids.js';
import { NotFound, Forbidden, Taken, Unprocessable, blank } from '../common/errors.js';
import type { Page } from '../common/page.js';
import type { Organization, OrganizationRecord } from '../organizations/model.js';
import { getOrganization } from '../organizations/service.js';
import {
  OWNERS_TEAM_NAME,
  grantedOnly,
  organizationAccessOf,
  type OrganizationAccess,
  type Team,
  type TeamChanges,
} from './model.js';
import * as store from './store.js';

export interface TeamWithOrganization {
  team: Team;
  organization: Organization;
}

/** A team with its organization, if the subject may do `action` on it; otherwise the 404 of a missing one. */
export async function getTeam(ctx: Context, id: string, action: Action = 'team:read'): Promise<TeamWithOrganization> {
  const found = await store.findTeamWithOrganization(ctx.store.db, id);
  if (!found) throw new NotFound();
  ensure(ctx.subject, 'team:read', teamTarget(found.team));
  if (action !== 'team:read') ensure(ctx.subject, action, teamTarget(found.team));
  return found;
}

export function teamTarget(team: Team): Target {
  return {
    organizationId: team.organization_id,
    team: { id: team.id, visibility: team.visibility, owners: team.is_owners },
  };
}

/** The caller's `permissions` on a team. */
export function permissionsOn(ctx: Context, team: Team): Record<string, boolean> {
  return teamPermissions(ctx.subject, teamTarget(team));
}

export async function listOrganizationTeams(
  ctx: Context,
  organizationName: string,
  filter: Omit<store.TeamFilter, 'scope'>,
  page: Page,
) {
  const organization = await getOrganization(ctx, organizationName);
  ensure(ctx.subject, 'teams:list', { organizationId: organization.id });
  const scope = teamListScope(ctx.subject, organization.id);
  if (scope === 'none') throw new NotFound();
  return { organization, ...(await store.listTeams(ctx.store.db, organization.id, { ...filter, scope }, page)) };
}

/** The organization access flags given, each true or false (null counts as false); the schema refuses names varsetd does not know. */
function givenAccess(changes: TeamChanges): Partial<OrganizationAccess> | undefined {
  if (changes.organizationAccess === undefined) return undefined;
  const flags: Partial<OrganizationAccess> = {};
  for (const [flag, enabled] of Object.entries(changes.organizationAccess)) {
    if (enabled !== undefined) flags[flag as OrganizationAccessFlag] = enabled === true;
  }
  return flags;
}

export async function createTeam(
  ctx: Context,
  organizationName: string,
  changes: TeamChanges,
): Promise<TeamWithOrganization> {
  const organization = await getOrganization(ctx, organizationName);
  ensure(ctx.subject, 'teams:create', { organizationId: organization.id });
  if (changes.name === undefined) throw blank('name');
  const access = givenAccess(changes);
  if (access !== undefined && Object.values(access).some(Boolean))
    ensureMayGrant(ctx, {
      organizationId: organization.id,
      team: { id: '', visibility: changes.visibility ?? 'secret' },
    });
  const team: Team = {
    id: newId('team'),
    organization_id: organization.id,
    name: changes.name,
    is_owners: false,
    visibility: changes.visibility ?? 'secret',
    sso_team_id: changes.ssoTeamId ?? null,
    allow_member_token_management: changes.allowMemberTokenManagement ?? true,
    organization_access: grantedOnly(access ?? {}),
    created_at: now(),
  };
  await transaction(ctx.store, async (trx) => {
    if (await store.teamNameTaken(trx, organization.id, team.name)) throw new Taken('name');
    await store.insertTeam(trx, team);
    recordAuditEvent(trx, ctx, {
      organizationId: team.organization_id,
      type: 'team',
      id: team.id,
      action: 'create',
      meta: { name: team.name },
    });
  });
  return { team, organization };
}

export async function updateTeam(ctx: Context, id: string, changes: TeamChanges): Promise<TeamWithOrganization> {
  const found = await getTeam(ctx, id, 'team:update');
  const access = givenAccess(changes);
  const current = organizationAccessOf(found.team);
  if (
    access !== undefined &&
    Object.entries(access).some(([flag, enabled]) => current[flag as OrganizationAccessFlag] !== enabled)
  )
    ensureMayGrant(ctx, teamTarget(found.team));
  if (found.team.is_owners) {
    if (changes.name !== undefined && changes.name !== found.team.name)
      throw new Unprocessable('the owners team cannot be renamed', 'name');
    if (access !== undefined && Object.values(access).some((enabled) => !enabled)) {
      throw new Unprocessable('the owners team always has every organization permission', 'organization-access');
    }
  }
  const team: Team = {
    ...found.team,
    name: changes.name ?? found.team.name,
    visibility: changes.visibility ?? found.team.visibility,
    sso_team_id: changes.ssoTeamId === undefined ? found.team.sso_team_id : changes.ssoTeamId,
    allow_member_token_management: changes.allowMemberTokenManagement ?? found.team.allow_member_token_management,
    organization_access: found.team.is_owners
      ? found.team.organization_access
      : { ...organizationAccessOf(found.team), ...access },
  };
  await transaction(ctx.store, async (trx) => {
    if (team.name !== found.team.name && (await store.teamNameTaken(trx, team.organization_id, team.name)))
      throw new Taken('name');
    await store.updateTeam(trx, team);
    recordAuditEvent(trx, ctx, {
      organizationId: team.organization_id,
      type: 'team',
      id: team.id,
      action: 'update',
      meta: { name: team.name },
    });
  });
  return { team, organization: found.organization };
}

/** Changing organization access takes manage-organization-access: manage-teams alone cannot grant permissions. */
function ensureMayGrant(ctx: Context, target: Target): void {
  if (!can(ctx.subject, 'team:update-organization-access', target)) {
    throw new Forbidden(
      "changing a team's organization access takes the manage-organization-access permission",
      'organization-access',
    );
  }
}

/** Deletes a team with its token and access grants. The owners team cannot be deleted. */
export async function deleteTeam(ctx: Context, id: string): Promise<void> {
  const { team } = await getTeam(ctx, id, 'team:delete');
  if (team.is_owners) throw new Unprocessable('the owners team cannot be deleted');
  await transaction(ctx.store, async (trx) => {
    await store.deleteTeam(trx, team.id);
    recordAuditEvent(trx, ctx, {
      organizationId: team.organization_id,
      type: 'team',
      id: team.id,
      action: 'destroy',
      meta: { name: team.name },
    });
  });
}

/** The owners team an organization is created with (every organization permission), in its creation transaction. */
export async function createOwnersTeam(trx: Trx, organization: OrganizationRecord): Promise<void> {
  await store.insertTeam(trx, {
    id: newId('team'),
    organization_id: organization.id,
    name: OWNERS_TEAM_NAME,
    is_owners: true,
    visibility: 'organization',
    sso_team_id: null,
    allow_member_token_management: true,
    organization_access: grantedOnly({
      'manage-workspaces': true,
      'manage-projects': true,
      'read-workspaces': true,
      'read-projects': true,
    }),
    created_at: organization.created_at,
  });
}
