import type { FastifyInstance } from 'fastify';
import { contextOf } from '../context.js';
import { listDocument } from '../jsonapi/document.js';
import { ResourceInput } from '../jsonapi/payload.js';
import { parsePage, parseSearch, single, type Query } from '../jsonapi/query.js';
import { serializeWorkspace } from './serialize.js';
import { createWorkspace, deleteWorkspace, getWorkspace, listOrganizationWorkspaces, updateWorkspace } from './service.js';

type OrgParams = { Params: { organization: string } };
type NameParams = { Params: { organization: string; name: string } };
type IdParams = { Params: { id: string } };

export async function workspaceRoutes(api: FastifyInstance): Promise<void> {
  api.post<OrgParams>('/organizations/:organization/workspaces', async (request, reply) => {
    const { workspace, organization } = await createWorkspace(contextOf(request), request.params.organization, ResourceInput.read(request.body, 'workspaces'));
    return reply.code(201).send({ data: serializeWorkspace(workspace, organization.name) });
  });

  api.get<OrgParams>('/organizations/:organization/workspaces', async (request) => {
    const query = request.query as Query;
    const page = parsePage(query);
    const filter = { search: parseSearch(query, 'search[name]'), projectId: single(query, 'filter[project][id]') || undefined };
    const { organization, rows, total } = await listOrganizationWorkspaces(contextOf(request), request.params.organization, filter, page);
    const path = `/api/v2/organizations/${encodeURIComponent(organization.name)}/workspaces`;
    return listDocument(path, query, page, total, rows.map((w) => serializeWorkspace(w, organization.name)));
  });

  const byName = (params: NameParams['Params']) => ({ organizationName: params.organization, name: params.name });

  api.get<NameParams>('/organizations/:organization/workspaces/:name', async (request) => {
    const { workspace, organization } = await getWorkspace(contextOf(request), byName(request.params));
    return { data: serializeWorkspace(workspace, organization.name) };
  });

  api.patch<NameParams>('/organizations/:organization/workspaces/:name', async (request) => {
    const { workspace, organization } = await updateWorkspace(contextOf(request), byName(request.params), ResourceInput.read(request.body, 'workspaces'));
    return { data: serializeWorkspace(workspace, organization.name) };
  });

  api.delete<NameParams>('/organizations/:organization/workspaces/:name', async (request, reply) => {
    await deleteWorkspace(contextOf(request), byName(request.params));
    return reply.code(204).send();
  });

  api.get<IdParams>('/workspaces/:id', async (request) => {
    const { workspace, organization } = await getWorkspace(contextOf(request), { id: request.params.id });
    return { data: serializeWorkspace(workspace, organization.name) };
  });

  api.patch<IdParams>('/workspaces/:id', async (request) => {
    const { workspace, organization } = await updateWorkspace(contextOf(request), { id: request.params.id }, ResourceInput.read(request.body, 'workspaces'));
    return { data: serializeWorkspace(workspace, organization.name) };
  });

  api.delete<IdParams>('/workspaces/:id', async (request, reply) => {
    await deleteWorkspace(contextOf(request), { id: request.params.id });
    return reply.code(204).send();
  });
}
