import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import Type from 'typebox';
import { contextOf } from '../context.js';
import { badQueryParameter } from '../jsonapi/errors.js';
import { single } from '../jsonapi/query.js';
import { Document, NoContent, Query, Responses } from '../jsonapi/schemas.js';
import { TokenBody, TokenResource } from './schemas.js';
import { serializeToken } from './serialize.js';
import {
  createOrganizationToken,
  createTeamToken,
  deleteOrganizationToken,
  deleteTeamToken,
  getOrganizationToken,
  getTeamToken,
  type TokenOptions,
} from './service.js';

const TeamParams = Type.Object({ id: Type.String() });
const OrganizationParams = Type.Object({ organization: Type.String() });
const OrganizationTokenQuery = Query({
  token: Type.Optional(Type.String({ description: "HCP Terraform's other kinds of organization token (audit-trails); varsetd has only the default one, so only an empty value is accepted" })),
});
const Created = Responses({ 201: Document(TokenResource) });
const Shown = Responses({ 200: Document(TokenResource) });
const Deleted = Responses({ 204: NoContent });

function optionsOf(body: Static<typeof TokenBody> | undefined): TokenOptions {
  const attributes = body?.data.attributes;
  return { description: attributes?.description ?? undefined, expiredAt: attributes?.['expired-at'] ?? undefined };
}

/** `token=audit-trails` selects a kind of organization token varsetd does not have. */
function defaultOrganizationTokenOnly(query: Static<typeof OrganizationTokenQuery>): void {
  const kind = single(query, 'token');
  if (kind !== undefined && kind !== '') throw badQueryParameter('token', 'only the default organization token exists; omit the token parameter');
}

/** Team tokens and organization tokens: one of each at most, the secret shown only when created. */
export const tokenRoutes: FastifyPluginAsyncTypebox = async (api) => {
  api.post('/teams/:id/authentication-token', { schema: { params: TeamParams, body: TokenBody, response: Created } }, async (request, reply) => {
    const { row, secret } = await createTeamToken(contextOf(request), request.params.id, optionsOf(request.body));
    return reply.code(201).send({ data: serializeToken(row, secret) });
  });

  api.get('/teams/:id/authentication-token', { schema: { params: TeamParams, response: Shown } }, async (request) => {
    return { data: serializeToken(await getTeamToken(contextOf(request), request.params.id)) };
  });

  api.delete('/teams/:id/authentication-token', { schema: { params: TeamParams, response: Deleted } }, async (request, reply) => {
    await deleteTeamToken(contextOf(request), request.params.id);
    return reply.code(204).send(null);
  });

  api.post(
    '/organizations/:organization/authentication-token',
    { schema: { params: OrganizationParams, querystring: OrganizationTokenQuery, body: TokenBody, response: Created } },
    async (request, reply) => {
      defaultOrganizationTokenOnly(request.query);
      const { row, secret } = await createOrganizationToken(contextOf(request), request.params.organization, optionsOf(request.body));
      return reply.code(201).send({ data: serializeToken(row, secret) });
    },
  );

  api.get(
    '/organizations/:organization/authentication-token',
    { schema: { params: OrganizationParams, querystring: OrganizationTokenQuery, response: Shown } },
    async (request) => {
      defaultOrganizationTokenOnly(request.query);
      return { data: serializeToken(await getOrganizationToken(contextOf(request), request.params.organization)) };
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
