import type { FastifyInstance } from 'fastify';
import { contextOf } from '../context.js';
import { badQueryParameter } from '../jsonapi/errors.js';
import { single, type Query } from '../jsonapi/query.js';
import { serializeToken } from './serialize.js';
import {
  createOrganizationToken,
  createTeamToken,
  deleteOrganizationToken,
  deleteTeamToken,
  getOrganizationToken,
  getTeamToken,
} from './service.js';

type TeamParams = { Params: { id: string } };
type OrgParams = { Params: { organization: string } };

/** HCP Terraform's `token=audit-trails` selects a kind of organization token varsetd does not have. */
function defaultOrganizationTokenOnly(query: Query): void {
  const kind = single(query, 'token');
  if (kind !== undefined && kind !== '') throw badQueryParameter('token', 'only the default organization token exists; omit the token parameter');
}

/** Team tokens and organization tokens: one of each at most, the secret shown only when created. */
export async function tokenRoutes(api: FastifyInstance): Promise<void> {
  api.post<TeamParams>('/teams/:id/authentication-token', async (request, reply) => {
    const { row, secret } = await createTeamToken(contextOf(request), request.params.id, request.body);
    return reply.code(201).send({ data: serializeToken(row, secret) });
  });

  api.get<TeamParams>('/teams/:id/authentication-token', async (request) => {
    return { data: serializeToken(await getTeamToken(contextOf(request), request.params.id)) };
  });

  api.delete<TeamParams>('/teams/:id/authentication-token', async (request, reply) => {
    await deleteTeamToken(contextOf(request), request.params.id);
    return reply.code(204).send();
  });

  api.post<OrgParams>('/organizations/:organization/authentication-token', async (request, reply) => {
    defaultOrganizationTokenOnly(request.query as Query);
    const { row, secret } = await createOrganizationToken(contextOf(request), request.params.organization, request.body);
    return reply.code(201).send({ data: serializeToken(row, secret) });
  });

  api.get<OrgParams>('/organizations/:organization/authentication-token', async (request) => {
    defaultOrganizationTokenOnly(request.query as Query);
    return { data: serializeToken(await getOrganizationToken(contextOf(request), request.params.organization)) };
  });

  api.delete<OrgParams>('/organizations/:organization/authentication-token', async (request, reply) => {
    defaultOrganizationTokenOnly(request.query as Query);
    await deleteOrganizationToken(contextOf(request), request.params.organization);
    return reply.code(204).send();
  });
}
