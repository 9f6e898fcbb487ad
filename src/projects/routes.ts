import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import Type from 'typebox';
import { contextOf } from '../context.js';
import { listDocument } from '../jsonapi/document.js';
import { parsePage, parseSearch, single } from '../jsonapi/query.js';
import { Document, ListDocument, NoContent, PageQuery, Query, Responses } from '../jsonapi/schemas.js';
import { checkedBindings } from '../tag-bindings/model.js';
import type { ProjectChanges } from './model.js';
import { ProjectBody, ProjectResource } from './schemas.js';
import { serializeProject } from './serialize.js';
import { createProject, deleteProject, getProject, listOrganizationProjects, updateProject } from './service.js';

const OrganizationParams = Type.Object({ organization: Type.String() });
const IdParams = Type.Object({ id: Type.String() });
const ListQuery = Query({
  ...PageQuery,
  q: Type.Optional(Type.String({ description: 'projects whose name contains it, ignoring case' })),
  'filter[names]': Type.Optional(Type.String({ description: 'comma-separated names' })),
});

function changesOf(body: Static<typeof ProjectBody>): ProjectChanges {
  const attributes = body.data.attributes;
  const bindings = body.data.relationships?.['tag-bindings']?.data;
  return {
    name: attributes?.name ?? undefined,
    description: attributes?.description ?? undefined,
    tagBindings: bindings === undefined ? undefined : checkedBindings(bindings.map((b) => b.attributes), '/data/relationships/tag-bindings/data'),
  };
}

export const projectRoutes: FastifyPluginAsyncTypebox = async (api) => {
  api.post(
    '/organizations/:organization/projects',
    { schema: { params: OrganizationParams, body: ProjectBody, response: Responses({ 201: Document(ProjectResource) }) } },
    async (request, reply) => {
      const { project, organization } = await createProject(contextOf(request), request.params.organization, changesOf(request.body));
      return reply.code(201).send({ data: serializeProject(project, organization.name) });
    },
  );

  api.get(
    '/organizations/:organization/projects',
    { schema: { params: OrganizationParams, querystring: ListQuery, response: Responses({ 200: ListDocument(ProjectResource) }) } },
    async (request) => {
      const query = request.query;
      const page = parsePage(query);
      const names = single(query, 'filter[names]');
      const filter = { search: parseSearch(query), names: names === undefined || names === '' ? undefined : names.split(',') };
      const { organization, rows, total } = await listOrganizationProjects(contextOf(request), request.params.organization, filter, page);
      const path = `/api/v2/organizations/${encodeURIComponent(organization.name)}/projects`;
      return listDocument(path, query, page, total, rows.map((p) => serializeProject(p, organization.name)));
    },
  );

  api.get('/projects/:id', { schema: { params: IdParams, response: Responses({ 200: Document(ProjectResource) }) } }, async (request) => {
    const { project, organization } = await getProject(contextOf(request), request.params.id);
    return { data: serializeProject(project, organization.name) };
  });

  api.patch(
    '/projects/:id',
    { schema: { params: IdParams, body: ProjectBody, response: Responses({ 200: Document(ProjectResource) }) } },
    async (request) => {
      const { project, organization } = await updateProject(contextOf(request), request.params.id, changesOf(request.body));
      return { data: serializeProject(project, organization.name) };
    },
  );

  api.delete('/projects/:id', { schema: { params: IdParams, response: Responses({ 204: NoContent }) } }, async (request, reply) => {
    await deleteProject(contextOf(request), request.params.id);
    return reply.code(204).send(null);
  });
};
