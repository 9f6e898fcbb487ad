import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import Type from 'typebox';
import type { Token } from '../auth/tokens.js';
import type { Page } from '../common/page.js';
import { contextOf } from '../http/context.js';
import { API_PREFIX, listDocument } from '../jsonapi/document.js';
import { badQueryParameter } from '../jsonapi/errors.js';
import { parsePage, parseSearch, single, type Query as QueryValues } from '../jsonapi/query.js';
import { Document, ListDocument, NoContent, PageQuery, Query, Responses } from '../jsonapi/schemas.js';
import { CurrentTokenResource, TokenBody, TokenResource } from '../tokens/schemas.js';
import { serializeCurrentToken, serializeToken } from '../tokens/serialize.js';
import {
  createDescribedTeamToken,
  createOrganizationToken,
  createTeamToken,
  deleteOrganizationToken,
  describeCurrentToken,
  deleteTeamToken,
  deleteTeamTokenById,
  getOrganizationToken,
  getTeamToken,
  getTeamTokenById,
  listOrganizationTeamTokens,
  listTeamTokensOfTeam,
  type TeamTokenListOptions,
  type TokenOptions,
} from '../tokens/service.js';
import { tagged } from '../jsonapi/tags.js';

const IdParams = Type.Object({ id: Type.String() });
const OrganizationParams = Type.Object({ organization: Type.String() });
const OrganizationTokenQuery = Query({
  token: Type.Optional(
    Type.String({
      description:
        "HCP Terraform's other kinds of organization token (audit-trails); varsetd has only the default one, so only an empty value is accepted",
    }),
  ),
});
const TEAM_TOKEN_SORTS = ['team-name', 'created-by', 'expired-at', 'last-used-at', 'created-at'] as const;
const TeamTokenListQuery = Query({
  ...PageQuery,
  q: Type.Optional(Type.String({ description: "part of the team's name, ignoring case" })),
  sort: Type.Optional(
    Type.String({ description: `${TEAM_TOKEN_SORTS.join(', ')}; a leading "-" sorts descending (default created-at)` }),
  ),
});
const Created = Responses({ 201: Document(TokenResource) });
const Shown = Responses({ 200: Document(TokenResource) });
const Listed = Responses({ 200: ListDocument(TokenResource) });
const Deleted = Responses({ 204: NoContent });

function optionsOf(body: Static<typeof TokenBody> | undefined): TokenOptions {
  const attributes = body?.data.attributes;
  return { description: attributes?.description ?? undefined, expiredAt: attributes?.['expired-at'] ?? undefined };
}

/** `token=audit-trails` selects a kind of organization token varsetd does not have. */
function defaultOrganizationTokenOnly(query: Static<typeof OrganizationTokenQuery>): void {
  const kind = single(query, 'token');
  if (kind !== undefined && kind !== '')
    throw badQueryParameter('token', 'only the default organization token exists; omit the token parameter');
}

function listOptionsOf(query: QueryValues): TeamTokenListOptions {
  const raw = single(query, 'sort') || 'created-at';
  const descending = raw.startsWith('-');
  const sort = descending ? raw.slice(1) : raw;
  if (!(TEAM_TOKEN_SORTS as readonly string[]).includes(sort))
    throw badQueryParameter('sort', `sort must be one of ${TEAM_TOKEN_SORTS.join(', ')}, optionally after "-"`);
  return { teamName: parseSearch(query), sort: sort as TeamTokenListOptions['sort'], descending };
}

/**
 * Team tokens (a legacy one the singular endpoints replace, and any number with a description
 * each) and the organization's token, the secret shown only when created.
 */
/** A page of team tokens as a list document: every list of them is answered so. */
const tokenList = (
  path: string,
  query: Parameters<typeof listDocument>[1],
  page: Page,
  { rows, total, organizationName }: { rows: Token[]; total: number; organizationName: string },
) =>
  listDocument(
    path,
    query,
    page,
    total,
    rows.map((token) => serializeToken(token, organizationName)),
  );

export const tokenRoutes: FastifyPluginAsyncTypebox = async (api) => {
  api.addHook('onRoute', tagged('tokens'));

  // varsetd's own: who the request's token stands for (the web UI's header).
  api.get(
    '/current-token',
    { schema: { querystring: Query({}), response: Responses({ 200: Document(CurrentTokenResource) }) } },
    async (request) => ({ data: serializeCurrentToken(await describeCurrentToken(contextOf(request))) }),
  );
  api.post(
    '/teams/:id/authentication-token',
    { schema: { params: IdParams, body: TokenBody, response: Created } },
    async (request, reply) => {
      const { row, secret, organizationName } = await createTeamToken(
        contextOf(request),
        request.params.id,
        optionsOf(request.body),
      );
      return reply.code(201).send({ data: serializeToken(row, organizationName, secret) });
    },
  );

  api.get('/teams/:id/authentication-token', { schema: { params: IdParams, response: Shown } }, async (request) => {
    const { token, organizationName } = await getTeamToken(contextOf(request), request.params.id);
    return { data: serializeToken(token, organizationName) };
  });

  api.delete(
    '/teams/:id/authentication-token',
    { schema: { params: IdParams, response: Deleted } },
    async (request, reply) => {
      await deleteTeamToken(contextOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  api.post(
    '/teams/:id/authentication-tokens',
    { schema: { params: IdParams, body: TokenBody, response: Created } },
    async (request, reply) => {
      const { row, secret, organizationName } = await createDescribedTeamToken(
        contextOf(request),
        request.params.id,
        optionsOf(request.body),
      );
      return reply.code(201).send({ data: serializeToken(row, organizationName, secret) });
    },
  );

  api.get(
    '/teams/:id/authentication-tokens',
    { schema: { params: IdParams, querystring: TeamTokenListQuery, response: Listed } },
    async (request) => {
      const page = parsePage(request.query);
      return tokenList(
        `${API_PREFIX}/teams/${encodeURIComponent(request.params.id)}/authentication-tokens`,
        request.query,
        page,
        await listTeamTokensOfTeam(contextOf(request), request.params.id, listOptionsOf(request.query), page),
      );
    },
  );

  api.get(
    '/organizations/:organization/team-tokens',
    { schema: { params: OrganizationParams, querystring: TeamTokenListQuery, response: Listed } },
    async (request) => {
      const page = parsePage(request.query);
      return tokenList(
        `${API_PREFIX}/organizations/${encodeURIComponent(request.params.organization)}/team-tokens`,
        request.query,
        page,
        await listOrganizationTeamTokens(
          contextOf(request),
          request.params.organization,
          listOptionsOf(request.query),
          page,
        ),
      );
    },
  );

  api.get('/authentication-tokens/:id', { schema: { params: IdParams, response: Shown } }, async (request) => {
    const { token, organizationName } = await getTeamTokenById(contextOf(request), request.params.id);
    return { data: serializeToken(token, organizationName) };
  });

  api.delete(
    '/authentication-tokens/:id',
    { schema: { params: IdParams, response: Deleted } },
    async (request, reply) => {
      await deleteTeamTokenById(contextOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  api.post(
    '/organizations/:organization/authentication-token',
    { schema: { params: OrganizationParams, querystring: OrganizationTokenQuery, body: TokenBody, response: Created } },
    async (request, reply) => {
      defaultOrganizationTokenOnly(request.query);
      const { row, secret, organizationName } = await createOrganizationToken(
        contextOf(request),
        request.params.organization,
        optionsOf(request.body),
      );
      return reply.code(201).send({ data: serializeToken(row, organizationName, secret) });
    },
  );

  api.get(
    '/organizations/:organization/authentication-token',
    { schema: { params: OrganizationParams, querystring: OrganizationTokenQuery, response: Shown } },
    async (request) => {
      defaultOrganizationTokenOnly(request.query);
      const { token, organizationName } = await getOrganizationToken(contextOf(request), request.params.organization);
      return { data: serializeToken(token, organizationName) };
    },
  );

  api.delete(
    '/organizations/:organization/authentication-token',
    { schema: { params: OrganizationParams, querystring: OrganizationTokenQuery, response: Deleted } },
    async (request, reply) => {
      defaultOrganizationTokenOnly(request.query);
      await deleteOrganizationToken(contextOf(request), request.params.organization);
      return reply.code(204).send(null);
    },
  );
};
