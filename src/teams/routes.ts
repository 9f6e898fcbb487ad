import type { FastifyInstance } from 'fastify';
import { contextOf } from '../context.js';
import { listDocument } from '../jsonapi/document.js';
import { ResourceInput } from '../jsonapi/payload.js';
import { parseInclude, parsePage, parseSearch, single, type Query } from '../jsonapi/query.js';
import { serializeTeam } from './serialize.js';
import { createTeam, deleteTeam, getTeam, listOrganizationTeams, permissionsOn, updateTeam } from './service.js';

type OrgParams = { Params: { organization: string } };
type IdParams = { Params: { id: string } };

/** varsetd has no users: `users` and `organization-memberships` are accepted and are always empty. */
const INCLUDES = ['users', 'organization-memberships'] as const;

export async function teamRoutes(api: FastifyInstance): Promise<void> {
  api.post<OrgParams>('/organizations/:organization/teams', async (request) => {
    const ctx = contextOf(request);
    const { team, organization } = await createTeam(ctx, request.params.organization, ResourceInput.read(request.body, 'teams'));
    return { data: serializeTeam(team, organization.name, permissionsOn(ctx, team)) };
  });

  api.get<OrgParams>('/organizations/:organization/teams', async (request) => {
    const ctx = contextOf(request);
    const query = request.query as Query;
    const page = parsePage(query);
    parseInclude(query, INCLUDES);
    const names = single(query, 'filter[names]');
    const filter = { search: parseSearch(query), names: names === undefined || names === '' ? undefined : names.split(',') };
    const { organization, rows, total } = await listOrganizationTeams(ctx, request.params.organization, filter, page);
    const path = `/api/v2/organizations/${encodeURIComponent(organization.name)}/teams`;
    return listDocument(path, query, page, total, rows.map((team) => serializeTeam(team, organization.name, permissionsOn(ctx, team))));
  });

  api.get<IdParams>('/teams/:id', async (request) => {
    const ctx = contextOf(request);
    parseInclude(request.query as Query, INCLUDES);
    const { team, organization } = await getTeam(ctx, request.params.id);
    return { data: serializeTeam(team, organization.name, permissionsOn(ctx, team)) };
  });

  api.patch<IdParams>('/teams/:id', async (request) => {
    const ctx = contextOf(request);
    const { team, organization } = await updateTeam(ctx, request.params.id, ResourceInput.read(request.body, 'teams'));
    return { data: serializeTeam(team, organization.name, permissionsOn(ctx, team)) };
  });

  api.delete<IdParams>('/teams/:id', async (request, reply) => {
    await deleteTeam(contextOf(request), request.params.id);
    return reply.code(204).send();
  });
}
