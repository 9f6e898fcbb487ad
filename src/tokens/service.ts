import type { Kysely, Selectable } from 'kysely';
import type { Context } from '../context.js';
import { ensure } from '../auth/policy.js';
import { issueToken, type IssuedToken } from '../auth/tokens.js';
import type { Database, TokenTable } from '../db/schema.js';
import { invalidAttribute, notFound } from '../jsonapi/errors.js';
import { ResourceInput } from '../jsonapi/payload.js';
import { getOrganization } from '../organizations/service.js';
import { getTeam } from '../teams/service.js';

const DESCRIPTION_MAX = 512;

/** The optional attributes of a token create body; an empty body means none. */
function readOptions(body: unknown): { description: string; expiredAt: string | null } {
  if (body === undefined || body === null) return { description: '', expiredAt: null };
  const input = ResourceInput.read(body, 'authentication-tokens');
  const description = input.string('description', { maxLength: DESCRIPTION_MAX }) ?? '';
  const raw = input.string('expired-at');
  if (raw === undefined) return { description, expiredAt: null };
  const pointer = input.attributePointer('expired-at');
  const time = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(raw) ? Date.parse(raw) : NaN;
  if (Number.isNaN(time)) throw invalidAttribute('expired-at must be an ISO 8601 date and time, e.g. 2030-01-31T12:00:00.000Z', pointer);
  if (time <= Date.now()) throw invalidAttribute('expired-at must be in the future', pointer);
  return { description, expiredAt: new Date(time).toISOString() };
}

function findToken(db: Kysely<Database>, owner: { teamId: string } | { organizationId: string }): Promise<Selectable<TokenTable> | undefined> {
  const query = db.selectFrom('tokens').selectAll();
  return ('teamId' in owner
    ? query.where('kind', '=', 'team').where('team_id', '=', owner.teamId)
    : query.where('kind', '=', 'organization').where('organization_id', '=', owner.organizationId)
  ).executeTakeFirst();
}

/** Creates the team's token, replacing the one it had. */
export async function createTeamToken(ctx: Context, teamId: string, body: unknown): Promise<IssuedToken> {
  const { team } = await getTeam(ctx, teamId, 'team-token:manage');
  const options = readOptions(body);
  return ctx.store.db.transaction().execute((trx) => issueToken(trx, { kind: 'team', organizationId: team.organization_id, teamId: team.id }, options));
}

export async function getTeamToken(ctx: Context, teamId: string): Promise<Selectable<TokenTable>> {
  const { team } = await getTeam(ctx, teamId, 'team-token:read');
  const token = await findToken(ctx.store.db, { teamId: team.id });
  if (!token) throw notFound();
  return token;
}

export async function deleteTeamToken(ctx: Context, teamId: string): Promise<void> {
  const { team } = await getTeam(ctx, teamId, 'team-token:manage');
  const { numDeletedRows } = await ctx.store.db.deleteFrom('tokens').where('kind', '=', 'team').where('team_id', '=', team.id).executeTakeFirstOrThrow();
  if (Number(numDeletedRows) === 0) throw notFound();
}

async function organizationFor(ctx: Context, organizationName: string) {
  const organization = await getOrganization(ctx, organizationName);
  ensure(ctx.subject, 'organization-token:manage', { organizationId: organization.id });
  return organization;
}

/** Creates the organization's token, replacing the one it had. */
export async function createOrganizationToken(ctx: Context, organizationName: string, body: unknown): Promise<IssuedToken> {
  const organization = await organizationFor(ctx, organizationName);
  const options = readOptions(body);
  return ctx.store.db.transaction().execute((trx) => issueToken(trx, { kind: 'organization', organizationId: organization.id }, options));
}

export async function getOrganizationToken(ctx: Context, organizationName: string): Promise<Selectable<TokenTable>> {
  const organization = await organizationFor(ctx, organizationName);
  const token = await findToken(ctx.store.db, { organizationId: organization.id });
  if (!token) throw notFound();
  return token;
}

export async function deleteOrganizationToken(ctx: Context, organizationName: string): Promise<void> {
  const organization = await organizationFor(ctx, organizationName);
  const { numDeletedRows } = await ctx.store.db
    .deleteFrom('tokens')
    .where('kind', '=', 'organization')
    .where('organization_id', '=', organization.id)
    .executeTakeFirstOrThrow();
  if (Number(numDeletedRows) === 0) throw notFound();
}
