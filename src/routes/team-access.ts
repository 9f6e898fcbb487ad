import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import Type from 'typebox';
import { contextOf } from '../http/context.js';
import { API_PREFIX, listDocument } from '../jsonapi/document.js';
import { badQueryParameter } from '../jsonapi/errors.js';
import { parsePage, single } from '../jsonapi/query.js';
import { Document, ListDocument, NoContent, PageQuery, Query, Responses } from '../jsonapi/schemas.js';
import type { TeamProjectChanges, TeamWorkspaceChanges } from '../team-access/model.js';
import {
  NewTeamProjectBody,
  NewTeamWorkspaceBody,
  ProjectAccessInput,
  ProjectWorkspaceAccessInput,
  TeamProjectBody,
  TeamProjectResource,
  TeamWorkspaceBody,
  TeamWorkspaceResource,
  workspacePermissions,
} from '../team-access/schemas.js';
import { serializeTeamProject, serializeTeamWorkspace } from '../team-access/serialize.js';
import {
  createTeamProject,
  createTeamWorkspace,
  deleteTeamProject,
  deleteTeamWorkspace,
  getTeamProject,
  getTeamWorkspace,
  listTeamProjectGrants,
  listTeamWorkspaceGrants,
  updateTeamProject,
  updateTeamWorkspace,
  type GrantListFilter,
} from '../team-access/service.js';
import { tagged } from '../jsonapi/tags.js';

const IdParams = Type.Object({ id: Type.String() });
const TeamFilter = { 'filter[team][id]': Type.Optional(Type.String({ description: 'grants of this team' })) };
const TeamWorkspaceQuery = Query({
  ...PageQuery,
  ...TeamFilter,
  'filter[workspace][id]': Type.Optional(Type.String({ description: 'grants on this workspace' })),
});
const TeamProjectQuery = Query({
  ...PageQuery,
  ...TeamFilter,
  'filter[project][id]': Type.Optional(Type.String({ description: 'grants on this project' })),
});
const Deleted = Responses({ 204: NoContent });

/** The members `schema` names that `values` gives: left-out, null and unknown members are not given. */
function given<T extends object>(values: object | null | undefined, schema: { properties: object }): Partial<T> {
  const source = (values ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(schema.properties).flatMap((name) =>
      source[name] === undefined || source[name] === null ? [] : [[name, source[name]]],
    ),
  ) as Partial<T>;
}

function workspaceChanges(body: Static<typeof TeamWorkspaceBody>): TeamWorkspaceChanges {
  const attributes = body.data.attributes;
  return {
    access: attributes?.access ?? undefined,
    permissions: given(attributes, { properties: workspacePermissions }),
  };
}

function projectChanges(body: Static<typeof TeamProjectBody>): TeamProjectChanges {
  const attributes = body.data.attributes;
  return {
    access: attributes?.access ?? undefined,
    project: given(attributes?.['project-access'], ProjectAccessInput),
    workspace: given(attributes?.['workspace-access'], ProjectWorkspaceAccessInput),
  };
}

/** The list filters: one of the resource's and the team's is required. */
function listFilter(query: Record<string, string | undefined>, resourceFilter: string): GrantListFilter {
  const teamId = single(query, 'filter[team][id]') || undefined;
  const resourceId = single(query, resourceFilter) || undefined;
  if (resourceId !== undefined) return { teamId, resourceId };
  if (teamId !== undefined) return { teamId };
  throw badQueryParameter(resourceFilter, `${resourceFilter} (or filter[team][id]) is required`);
}

/** Team access to workspaces (`team-workspaces`) and to projects (`team-projects`). */
export const teamAccessRoutes: FastifyPluginAsyncTypebox = async (api) => {
  api.addHook('onRoute', tagged('teamAccess'));
  api.post(
    '/team-workspaces',
    { schema: { body: NewTeamWorkspaceBody, response: Responses({ 201: Document(TeamWorkspaceResource) }) } },
    async (request, reply) => {
      const { relationships } = request.body.data;
      const command = {
        ...workspaceChanges(request.body),
        teamId: relationships?.team?.data?.id,
        workspaceId: relationships?.workspace?.data?.id,
      };
      return reply
        .code(201)
        .send({ data: serializeTeamWorkspace(await createTeamWorkspace(contextOf(request), command)) });
    },
  );

  api.get(
    '/team-workspaces',
    { schema: { querystring: TeamWorkspaceQuery, response: Responses({ 200: ListDocument(TeamWorkspaceResource) }) } },
    async (request) => {
      const page = parsePage(request.query);
      const { rows, total } = await listTeamWorkspaceGrants(
        contextOf(request),
        listFilter(request.query, 'filter[workspace][id]'),
        page,
      );
      return listDocument(
        `${API_PREFIX}/team-workspaces`,
        request.query,
        page,
        total,
        rows.map(serializeTeamWorkspace),
      );
    },
  );

  api.get(
    '/team-workspaces/:id',
    { schema: { params: IdParams, response: Responses({ 200: Document(TeamWorkspaceResource) }) } },
    async (request) => {
      return { data: serializeTeamWorkspace(await getTeamWorkspace(contextOf(request), request.params.id)) };
    },
  );

  api.patch(
    '/team-workspaces/:id',
    {
      schema: {
        params: IdParams,
        body: TeamWorkspaceBody,
        response: Responses({ 200: Document(TeamWorkspaceResource) }),
      },
    },
    async (request) => {
      return {
        data: serializeTeamWorkspace(
          await updateTeamWorkspace(contextOf(request), request.params.id, workspaceChanges(request.body)),
        ),
      };
    },
  );

  api.delete('/team-workspaces/:id', { schema: { params: IdParams, response: Deleted } }, async (request, reply) => {
    await deleteTeamWorkspace(contextOf(request), request.params.id);
    return reply.code(204).send(null);
  });

  api.post(
    '/team-projects',
    { schema: { body: NewTeamProjectBody, response: Responses({ 201: Document(TeamProjectResource) }) } },
    async (request, reply) => {
      const { relationships } = request.body.data;
      const command = {
        ...projectChanges(request.body),
        teamId: relationships?.team?.data?.id,
        projectId: relationships?.project?.data?.id,
      };
      return reply.code(201).send({ data: serializeTeamProject(await createTeamProject(contextOf(request), command)) });
    },
  );

  api.get(
    '/team-projects',
    { schema: { querystring: TeamProjectQuery, response: Responses({ 200: ListDocument(TeamProjectResource) }) } },
    async (request) => {
      const page = parsePage(request.query);
      const { rows, total } = await listTeamProjectGrants(
        contextOf(request),
        listFilter(request.query, 'filter[project][id]'),
        page,
      );
      return listDocument(`${API_PREFIX}/team-projects`, request.query, page, total, rows.map(serializeTeamProject));
    },
  );

  api.get(
    '/team-projects/:id',
    { schema: { params: IdParams, response: Responses({ 200: Document(TeamProjectResource) }) } },
    async (request) => {
      return { data: serializeTeamProject(await getTeamProject(contextOf(request), request.params.id)) };
    },
  );

  api.patch(
    '/team-projects/:id',
    {
      schema: { params: IdParams, body: TeamProjectBody, response: Responses({ 200: Document(TeamProjectResource) }) },
    },
    async (request) => {
      return {
        data: serializeTeamProject(
          await updateTeamProject(contextOf(request), request.params.id, projectChanges(request.body)),
        ),
      };
    },
  );

  api.delete('/team-projects/:id', { schema: { params: IdParams, response: Deleted } }, async (request, reply) => {
    await deleteTeamProject(contextOf(request), request.params.id);
    return reply.code(204).send(null);
  });
};
