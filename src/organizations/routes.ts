import type { FastifyInstance } from 'fastify';
import { contextOf } from '../context.js';
import { listDocument } from '../jsonapi/document.js';
import { ResourceInput } from '../jsonapi/payload.js';
import { parsePage, type Query } from '../jsonapi/query.js';
import { serializeOrganization } from './serialize.js';
import { createOrganization, deleteOrganization, getOrganization, listVisibleOrganizations, updateOrganization } from './service.js';

type OrgParams = { Params: { name: string } };

export async function organizationRoutes(api: FastifyInstance): Promise<void> {
  api.post('/organizations', async (request, reply) => {
    const org = await createOrganization(contextOf(request), ResourceInput.read(request.body, 'organizations'));
    return reply.code(201).send({ data: serializeOrganization(org) });
  });

  api.get('/organizations', async (request) => {
    const query = request.query as Query;
    const page = parsePage(query);
    const { rows, total } = await listVisibleOrganizations(contextOf(request), page);
    return listDocument('/api/v2/organizations', query, page, total, rows.map(serializeOrganization));
  });

  api.get<OrgParams>('/organizations/:name', async (request) => {
    return { data: serializeOrganization(await getOrganization(contextOf(request), request.params.name)) };
  });

  api.patch<OrgParams>('/organizations/:name', async (request) => {
    const org = await updateOrganization(contextOf(request), request.params.name, ResourceInput.read(request.body, 'organizations'));
    return { data: serializeOrganization(org) };
  });

  api.delete<OrgParams>('/organizations/:name', async (request, reply) => {
    await deleteOrganization(contextOf(request), request.params.name);
    return reply.code(204).send();
  });

  // Stacks are outside varsetd's scope; clients that look for them find none.
  api.get<OrgParams>('/organizations/:name/stacks', async (request) => {
    const query = request.query as Query;
    const page = parsePage(query);
    await getOrganization(contextOf(request), request.params.name);
    return listDocument(`/api/v2/organizations/${encodeURIComponent(request.params.name)}/stacks`, query, page, 0, []);
  });
}
