import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import Type from 'typebox';
import { contextOf } from '../http/context.js';
import { API_PREFIX, listDocument } from '../jsonapi/document.js';
import { parseInclude, parsePage, parseSearch, single } from '../jsonapi/query.js';
import { Document, IncludeQuery, ListDocument, NoContent, PageQuery, Query, Responses } from '../jsonapi/schemas.js';
import type { TeamChanges } from '../teams/model.js';
import { TeamBody, TeamResource } from '../teams/schemas.js';
import { serializeTeam } from '../teams/serialize.js';
import { createTeam, deleteTeam, getTeam, listOrganizationTeams, permissionsOn, updateTeam } from '../teams/service.js';
import { tagged } from '../jsonapi/tags.js';

/** varsetd has no users: `users` and `organization-memberships` are accepted and are always empty. */
const INCLUDES = ['users', 'organization-memberships'] as const;

const OrganizationParams = Type.Object({ organization: Type.String() });
const IdParams = Type.Object({ id: Type.String() });
const ListQuery = Query({
  ...PageQuery,
  ...IncludeQuery(INCLUDES),
  q: Type.Optional(Type.String({ description: 'teams whose name contains it, ignoring case' })),
  'filter[names]': Type.Optional(Type.String({ description: 'comma-separated names' })),
});
const ShowQuery = Query(IncludeQuery(INCLUDES));
const One = Responses({ 200: Document(TeamResource) });

function changesOf(body: Static<typeof TeamBody>): TeamChanges {
  const attributes = body.data.attributes;
  return {
    name: attributes?.name ?? undefined,
    visibility: attributes?.visibility ?? undefined,
    ssoTeamId: attributes?.['sso-team-id'],
    allowMemberTokenManagement: attributes?.['allow-member-token-management'] ?? undefined,
    organizationAccess: attributes?.['organization-access'] ?? undefined,
  };
}

export const teamRoutes: FastifyPluginAsyncTypebox = async (api) => {
  api.addHook('onRoute', tagged('teams'));
  // HCP Terraform answers a created team with 200.
  api.post(
    '/organizations/:organization/teams',
    { schema: { params: OrganizationParams, body: TeamBody, response: One } },
    async (request) => {
      const ctx = contextOf(request);
      const { team, organization } = await createTeam(ctx, request.params.organization, changesOf(request.body));
      return { data: serializeTeam(team, organization.name, permissionsOn(ctx, team)) };
    },
  );

  api.get(
    '/organizations/:organization/teams',
    {
      schema: {
        params: OrganizationParams,
        querystring: ListQuery,
        response: Responses({ 200: ListDocument(TeamResource) }),
      },
    },
    async (request) => {
      const ctx = contextOf(request);
      const query = request.query;
      const page = parsePage(query);
      parseInclude(query, INCLUDES);
      const names = single(query, 'filter[names]');
      const filter = {
        search: parseSearch(query),
        names: names === undefined || names === '' ? undefined : names.split(','),
      };
      const { organization, rows, total } = await listOrganizationTeams(ctx, request.params.organization, filter, page);
      const path = `${API_PREFIX}/organizations/${encodeURIComponent(organization.name)}/teams`;
      return listDocument(
        path,
        query,
        page,
        total,
        rows.map((team) => serializeTeam(team, organization.name, permissionsOn(ctx, team))),
      );
    },
  );

  api.get('/teams/:id', { schema: { params: IdParams, querystring: ShowQuery, response: One } }, async (request) => {
    const ctx = contextOf(request);
    parseInclude(request.query, INCLUDES);
    const { team, organization } = await getTeam(ctx, request.params.id);
    return { data: serializeTeam(team, organization.name, permissionsOn(ctx, team)) };
  });

  api.patch('/teams/:id', { schema: { params: IdParams, body: TeamBody, response: One } }, async (request) => {
    const ctx = contextOf(request);
    const { team, organization } = await updateTeam(ctx, request.params.id, changesOf(request.body));
    return { data: serializeTeam(team, organization.name, permissionsOn(ctx, team)) };
  });

  api.delete(
    '/teams/:id',
    { schema: { params: IdParams, response: Responses({ 204: NoContent }) } },
    async (request, reply) => {
      await deleteTeam(contextOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
