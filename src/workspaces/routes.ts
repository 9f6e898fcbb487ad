import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import Type from 'typebox';
import { contextOf } from '../context.js';
import { listDocument } from '../jsonapi/document.js';
import { parsePage, parseSearch, single } from '../jsonapi/query.js';
import { Document, ListDocument, NoContent, PageQuery, Query, Responses } from '../jsonapi/schemas.js';
import type { WorkspaceChanges } from './model.js';
import { WorkspaceBody, WorkspaceResource } from './schemas.js';
import { serializeWorkspace } from './serialize.js';
import { createWorkspace, deleteWorkspace, getWorkspace, listOrganizationWorkspaces, updateWorkspace } from './service.js';

const OrganizationParams = Type.Object({ organization: Type.String() });
const NameParams = Type.Object({ organization: Type.String(), name: Type.String() });
const IdParams = Type.Object({ id: Type.String() });
const ListQuery = Query({
  ...PageQuery,
  'search[name]': Type.Optional(Type.String({ description: 'workspaces whose name contains it, ignoring case' })),
  'filter[project][id]': Type.Optional(Type.String({ description: 'workspaces of this project' })),
});

const One = Responses({ 200: Document(WorkspaceResource) });
const Deleted = Responses({ 204: NoContent });

function changesOf(body: Static<typeof WorkspaceBody>): WorkspaceChanges {
  const { attributes, relationships } = body.data;
  return { name: attributes?.name ?? undefined, description: attributes?.description ?? undefined, projectId: relationships?.project?.data?.id };
}

const byName = (params: Static<typeof NameParams>) => ({ organizationName: params.organization, name: params.name });

export const workspaceRoutes: FastifyPluginAsyncTypebox = async (api) => {
  api.post(
    '/organizations/:organization/workspaces',
    { schema: { params: OrganizationParams, body: WorkspaceBody, response: Responses({ 201: Document(WorkspaceResource) }) } },
    async (request, reply) => {
      const { workspace, organization } = await createWorkspace(contextOf(request), request.params.organization, changesOf(request.body));
      return reply.code(201).send({ data: serializeWorkspace(workspace, organization.name) });
    },
  );

  api.get(
    '/organizations/:organization/workspaces',
    { schema: { params: OrganizationParams, querystring: ListQuery, response: Responses({ 200: ListDocument(WorkspaceResource) }) } },
    async (request) => {
      const query = request.query;
      const page = parsePage(query);
      const filter = { search: parseSearch(query, 'search[name]'), projectId: single(query, 'filter[project][id]') || undefined };
      const { organization, rows, total } = await listOrganizationWorkspaces(contextOf(request), request.params.organization, filter, page);
      const path = `/api/v2/organizations/${encodeURIComponent(organization.name)}/workspaces`;
      return listDocument(path, query, page, total, rows.map((w) => serializeWorkspace(w, organization.name)));
    },
  );

  api.get('/organizations/:organization/workspaces/:name', { schema: { params: NameParams, response: One } }, async (request) => {
    const { workspace, organization } = await getWorkspace(contextOf(request), byName(request.params));
    return { data: serializeWorkspace(workspace, organization.name) };
  });

  api.patch('/organizations/:organization/workspaces/:name', { schema: { params: NameParams, body: WorkspaceBody, response: One } }, async (request) => {
    const { workspace, organization } = await updateWorkspace(contextOf(request), byName(request.params), changesOf(request.body));
    return { data: serializeWorkspace(workspace, organization.name) };
  });

  api.delete('/organizations/:organization/workspaces/:name', { schema: { params: NameParams, response: Deleted } }, async (request, reply) => {
    await deleteWorkspace(contextOf(request), byName(request.params));
    return reply.code(204).send(null);
  });

  api.get('/workspaces/:id', { schema: { params: IdParams, response: One } }, async (request) => {
    const { workspace, organization } = await getWorkspace(contextOf(request), { id: request.params.id });
    return { data: serializeWorkspace(workspace, organization.name) };
  });

  api.patch('/workspaces/:id', { schema: { params: IdParams, body: WorkspaceBody, response: One } }, async (request) => {
    const { workspace, organization } = await updateWorkspace(contextOf(request), { id: request.params.id }, changesOf(request.body));
    return { data: serializeWorkspace(workspace, organization.name) };
  });

  api.delete('/workspaces/:id', { schema: { params: IdParams, response: Deleted } }, async (request, reply) => {
    await deleteWorkspace(contextOf(request), { id: request.params.id });
    return reply.code(204).send(null);
  });
};
