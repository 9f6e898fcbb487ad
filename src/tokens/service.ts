import type { Context } from '../context.js';
import { ensure } from '../auth/policy.js';
import { findOwnedToken, issueToken, deleteOwnedToken, type IssuedToken, type Token, type TokenOwner } from '../auth/tokens.js';
import { transaction } from '../db/transaction.js';
import { invalidAttribute, notFound } from '../jsonapi/errors.js';
import { getOrganization } from '../organizations/service.js';
import { getTeam } from '../teams/service.js';

/** What a client may set on a new token; `expiredAt` as written in the request (ISO 8601). */
export interface TokenOptions {
  description?: string | undefined;
  expiredAt?: string | undefined;
}

/** The expiry of a new token: a real time, in the future, written back with milliseconds in UTC. */
function expiry(text: string | undefined): string | null {
  if (text === undefined) return null;
  const time = Date.parse(text);
  const pointer = '/data/attributes/expired-at';
  if (Number.isNaN(time)) throw invalidAttribute('expired-at must be an ISO 8601 date and time, e.g. 2030-01-31T12:00:00.000Z', pointer);
  if (time <= Date.now()) throw invalidAttribute('expired-at must be in the future', pointer);
  return new Date(time).toISOString();
}

async function issue(ctx: Context, owner: TokenOwner, options: TokenOptions): Promise<IssuedToken> {
  const settings = { description: options.description ?? '', expiredAt: expiry(options.expiredAt) };
  return transaction(ctx.store, (trx) => issueToken(trx, owner, settings));
}

async function shown(ctx: Context, owner: TokenOwner): Promise<Token> {
  const token = await findOwnedToken(ctx.store.db, owner);
  if (!token) throw notFound();
  return token;
}

async function revoke(ctx: Context, owner: TokenOwner): Promise<void> {
  await transaction(ctx.store, async (trx) => {
    if (!(await deleteOwnedToken(trx, owner))) throw notFound();
  });
}

async function teamOwner(ctx: Context, teamId: string, action: 'team-token:read' | 'team-token:manage'): Promise<TokenOwner> {
  const { team } = await getTeam(ctx, teamId, action);
  return { kind: 'team', organizationId: team.organization_id, teamId: team.id };
}

async function organizationOwner(ctx: Context, organizationName: string): Promise<TokenOwner> {
  const organization = await getOrganization(ctx, organizationName);
  ensure(ctx.subject, 'organization-token:manage', { organizationId: organization.id });
  return { kind: 'organization', organizationId: organization.id };
}

/** Creates the team's token, replacing the one it had. */
export async function createTeamToken(ctx: Context, teamId: string, options: TokenOptions): Promise<IssuedToken> {
  return issue(ctx, await teamOwner(ctx, teamId, 'team-token:manage'), options);
}

export async function getTeamToken(ctx: Context, teamId: string): Promise<Token> {
  return shown(ctx, await teamOwner(ctx, teamId, 'team-token:read'));
}

export async function deleteTeamToken(ctx: Context, teamId: string): Promise<void> {
  await revoke(ctx, await teamOwner(ctx, teamId, 'team-token:manage'));
}

/** Creates the organization's token, replacing the one it had. */
export async function createOrganizationToken(ctx: Context, organizationName: string, options: TokenOptions): Promise<IssuedToken> {
  return issue(ctx, await organizationOwner(ctx, organizationName), options);
}

export async function getOrganizationToken(ctx: Context, organizationName: string): Promise<Token> {
  return shown(ctx, await organizationOwner(ctx, organizationName));
}

export async function deleteOrganizationToken(ctx: Context, organizationName: string): Promise<void> {
  await revoke(ctx, await organizationOwner(ctx, organizationName));
}
