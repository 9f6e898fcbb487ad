import type { Context } from '../auth/context.js';
import { ensure } from '../auth/decisions.js';
import {
  creatorOf,
  deleteOwnedToken,
  deleteTokenById,
  findOwnedToken,
  findTeamTokenById,
  findTokenById,
  issueSiteAdminToken,
  issueToken,
  listTeamTokens,
  listTokens,
  SETTLED_ADMIN_DESCRIPTIONS,
  type NamedToken,
  teamTokenDescriptionTaken,
  type IssuedToken,
  type TeamTokenSort,
  type Token,
  type TokenOwner,
} from '../auth/tokens.js';
import { recordAuditEvent } from '../audit/service.js';
import { transaction, type Trx } from '../db/transaction.js';
import { now } from '../common/ids.js';
import { NotFound, Invalid, Taken } from '../common/errors.js';
import type { Page } from '../common/page.js';
import type { Organization } from '../organizations/model.js';
import { getOrganization, organizationNameById } from '../organizations/service.js';
import { getTeam } from '../teams/service.js';

/** What a client may set on a new token; `expiredAt` as written in the request (ISO 8601). */
export interface TokenOptions {
  description?: string | undefined;
  expiredAt?: string | undefined;
}

/** A token with the name of its organization, which its serialization needs. */
export interface TokenWithOrganization {
  token: Token;
  organizationName: string;
}

/** Like HCP Terraform, a token issued without an expiry expires two years after it is created. */
const DEFAULT_LIFETIME_YEARS = 2;

/** The expiry of a new token: a real time, in the future, written back with milliseconds in UTC. */
function expiry(text: string | undefined, createdAt: string): string {
  if (text === undefined) {
    const time = new Date(createdAt);
    time.setUTCFullYear(time.getUTCFullYear() + DEFAULT_LIFETIME_YEARS);
    return time.toISOString();
  }
  const time = Date.parse(text);
  const field = 'expired-at';
  if (Number.isNaN(time))
    throw new Invalid(field, 'expired-at must be an ISO 8601 date and time, e.g. 2030-01-31T12:00:00.000Z');
  if (time <= Date.now()) throw new Invalid(field, 'expired-at must be in the future');
  return new Date(time).toISOString();
}

/** A second token of a team with the same description. */
function descriptionTaken(): Taken {
  return new Taken('description');
}

async function issue(ctx: Context, owner: TokenOwner, options: TokenOptions, legacy: boolean): Promise<IssuedToken> {
  const createdAt = now();
  const settings = {
    description: options.description ?? '',
    createdAt,
    expiredAt: expiry(options.expiredAt, createdAt),
    legacy,
    createdBy: creatorOf(ctx.subject),
  };
  return transaction(ctx.store, async (trx) => {
    if (!legacy && owner.kind === 'team' && (await teamTokenDescriptionTaken(trx, owner.teamId, settings.description)))
      throw descriptionTaken();
    const issued = await issueToken(trx, owner, settings);
    recordToken(trx, ctx, owner, issued.row, 'create');
    return issued;
  });
}

/** A token's event: whose it is and its description, never its secret or hash. */
function recordToken(trx: Trx, ctx: Context, owner: TokenOwner, token: Token, action: 'create' | 'destroy'): void {
  const meta = {
    kind: owner.kind,
    team_id: owner.kind === 'team' ? owner.teamId : null,
    description: token.description,
  };
  recordAuditEvent(trx, ctx, {
    organizationId: owner.organizationId,
    type: 'authentication_token',
    id: token.id,
    action,
    meta,
  });
}

async function shown(ctx: Context, owner: TokenOwner): Promise<Token> {
  const token = await findOwnedToken(ctx.store.db, owner);
  if (!token) throw new NotFound();
  return token;
}

async function revoke(ctx: Context, owner: TokenOwner): Promise<void> {
  await transaction(ctx.store, async (trx) => {
    const token = await findOwnedToken(trx, owner);
    if (!token || !(await deleteOwnedToken(trx, owner))) throw new NotFound();
    recordToken(trx, ctx, owner, token, 'destroy');
  });
}

async function teamOwner(
  ctx: Context,
  teamId: string,
  action: 'team-token:read' | 'team-token:manage',
): Promise<{ owner: TokenOwner; organizationName: string }> {
  const { team, organization } = await getTeam(ctx, teamId, action);
  return {
    owner: { kind: 'team', organizationId: team.organization_id, teamId: team.id },
    organizationName: organization.name,
  };
}

async function organizationOwner(
  ctx: Context,
  organizationName: string,
): Promise<{ owner: TokenOwner; organization: Organization }> {
  const organization = await getOrganization(ctx, organizationName);
  ensure(ctx.subject, 'organization-token:manage', { organizationId: organization.id });
  return { owner: { kind: 'organization', organizationId: organization.id }, organization };
}

/** Creates the team's legacy token, replacing the one it had. */
export async function createTeamToken(
  ctx: Context,
  teamId: string,
  options: TokenOptions,
): Promise<IssuedToken & { organizationName: string }> {
  const { owner, organizationName } = await teamOwner(ctx, teamId, 'team-token:manage');
  return { ...(await issue(ctx, owner, options, true)), organizationName };
}

/** Creates one more token of the team, with a description no other of its tokens has. */
export async function createDescribedTeamToken(
  ctx: Context,
  teamId: string,
  options: TokenOptions,
): Promise<IssuedToken & { organizationName: string }> {
  const { owner, organizationName } = await teamOwner(ctx, teamId, 'team-token:manage');
  return {
    ...(await issue(ctx, owner, { ...options, description: options.description ?? '' }, false)),
    organizationName,
  };
}

export async function getTeamToken(ctx: Context, teamId: string): Promise<TokenWithOrganization> {
  const { owner, organizationName } = await teamOwner(ctx, teamId, 'team-token:read');
  return { token: await shown(ctx, owner), organizationName };
}

export async function deleteTeamToken(ctx: Context, teamId: string): Promise<void> {
  await revoke(ctx, (await teamOwner(ctx, teamId, 'team-token:manage')).owner);
}

/** A team token by its id, if the subject may read its team's tokens. */
export async function getTeamTokenById(
  ctx: Context,
  id: string,
  action: 'team-token:read' | 'team-token:manage' = 'team-token:read',
): Promise<TokenWithOrganization> {
  const token = await findTeamTokenById(ctx.store.db, id);
  if (!token || token.team_id === null) throw new NotFound();
  const { organizationName } = await teamOwner(ctx, token.team_id, action);
  return { token, organizationName };
}

export async function deleteTeamTokenById(ctx: Context, id: string): Promise<void> {
  const { token } = await getTeamTokenById(ctx, id, 'team-token:manage');
  await transaction(ctx.store, async (trx) => {
    if (!(await deleteTokenById(trx, token.id))) throw new NotFound();
    recordToken(
      trx,
      ctx,
      { kind: 'team', organizationId: token.organization_id!, teamId: token.team_id! },
      token,
      'destroy',
    );
  });
}

export interface TeamTokenListOptions {
  teamName: string | undefined;
  sort: TeamTokenSort;
  descending: boolean;
}

/** The tokens of the organization's teams whose tokens the subject may read. */
export async function listOrganizationTeamTokens(
  ctx: Context,
  organizationName: string,
  options: TeamTokenListOptions,
  page: Page,
) {
  const organization = await getOrganization(ctx, organizationName);
  ensure(ctx.subject, 'team-tokens:list', { organizationId: organization.id });
  return {
    organizationName: organization.name,
    ...(await listTeamTokens(ctx.store.db, organization.id, { ...options, teamId: undefined }, page)),
  };
}

/** One team's tokens, legacy and described. */
export async function listTeamTokensOfTeam(ctx: Context, teamId: string, options: TeamTokenListOptions, page: Page) {
  const { team, organization } = await getTeam(ctx, teamId, 'team-token:read');
  return {
    organizationName: organization.name,
    ...(await listTeamTokens(ctx.store.db, team.organization_id, { ...options, teamId: team.id }, page)),
  };
}

/** Creates the organization's token, replacing the one it had. */
export async function createOrganizationToken(
  ctx: Context,
  organizationName: string,
  options: TokenOptions,
): Promise<IssuedToken & { organizationName: string }> {
  const { owner, organization } = await organizationOwner(ctx, organizationName);
  return { ...(await issue(ctx, owner, options, true)), organizationName: organization.name };
}

export async function getOrganizationToken(ctx: Context, organizationName: string): Promise<TokenWithOrganization> {
  const { owner, organization } = await organizationOwner(ctx, organizationName);
  return { token: await shown(ctx, owner), organizationName: organization.name };
}

export async function deleteOrganizationToken(ctx: Context, organizationName: string): Promise<void> {
  await revoke(ctx, (await organizationOwner(ctx, organizationName)).owner);
}

/**
 * Every token of every kind, or those of one organization, oldest first, with the names of
 * their owners: never a secret (none is stored). The site administrator only.
 */
export async function listAllTokens(ctx: Context, organizationName: string | undefined): Promise<NamedToken[]> {
  ensure(ctx.subject, 'tokens:list');
  const organization = organizationName === undefined ? undefined : await getOrganization(ctx, organizationName);
  return listTokens(ctx.store.db, organization?.id);
}

/**
 * Creates one more site-admin token. It belongs to no organization, so no organization's audit
 * trail records it. The descriptions of the tokens a start settles are refused: that start
 * would revoke it.
 */
export async function createSiteAdminToken(ctx: Context, options: TokenOptions): Promise<IssuedToken> {
  ensure(ctx.subject, 'site-admin-tokens:manage');
  const description = options.description ?? '';
  if (SETTLED_ADMIN_DESCRIPTIONS.includes(description))
    throw new Invalid('description', `"${description}" is kept for the token each start settles`);
  const createdAt = now();
  const settings = {
    description,
    createdAt,
    expiredAt: expiry(options.expiredAt, createdAt),
    createdBy: creatorOf(ctx.subject),
  };
  return transaction(ctx.store, (trx) => issueSiteAdminToken(trx, settings));
}

/** Revokes a token of any kind by its id, recorded in its organization's audit trail; answers the token revoked. */
export async function revokeTokenById(ctx: Context, id: string): Promise<Token> {
  const token = await findTokenById(ctx.store.db, id);
  if (!token) throw new NotFound();
  if (token.kind === 'team') {
    await deleteTeamTokenById(ctx, id);
    return token;
  }
  if (token.kind === 'organization')
    ensure(ctx.subject, 'organization-token:manage', { organizationId: token.organization_id! });
  else ensure(ctx.subject, 'site-admin-tokens:manage');
  await transaction(ctx.store, async (trx) => {
    if (!(await deleteTokenById(trx, token.id))) throw new NotFound();
    if (token.kind === 'organization')
      recordToken(trx, ctx, { kind: 'organization', organizationId: token.organization_id! }, token, 'destroy');
  });
  return token;
}

/** Who a request's token stands for (`GET /current-token`): its kind, its words, and its organization's name (none for the site administrator). */
export interface CurrentToken {
  tokenId: string;
  kind: 'team' | 'organization' | 'site-admin';
  description: string;
  organizationName: string | null;
}

export async function describeCurrentToken(ctx: Context): Promise<CurrentToken> {
  const { subject } = ctx;
  const organizationName =
    subject.kind === 'site-admin' ? null : ((await organizationNameById(ctx, subject.organizationId)) ?? null);
  return { tokenId: subject.tokenId, kind: subject.kind, description: subject.description, organizationName };
}
