import type { FastifyInstance } from 'fastify';
import { contextOf } from '../context.js';
import { listDocument } from '../jsonapi/document.js';
import { ResourceInput } from '../jsonapi/payload.js';
import { parsePage, parseSearch, single, type Query } from '../jsonapi/query.js';
import { serializeProject } from './serialize.js';
import { createProject, deleteProject, getProject, listOrganizationProjects, updateProject } from './service.js';

type OrgParams = { Params: { organization: string } };
type IdParams = { Params: { id: string } };

export async function projectRoutes(api: FastifyInstance): Promise<void> {
  api.post<OrgParams>('/organizations/:organization/projects', async (request, reply) => {
    const { project, organization } = await createProject(contextOf(request), request.params.organization, ResourceInput.read(request.body, 'projects'));
    return reply.code(201).send({ data: serializeProject(project, organization.name) });
  });

  api.get<OrgParams>('/organizations/:organization/projects', async (request) => {
    const query = request.query as Query;
    const page = parsePage(query);
    const names = single(query, 'filter[names]');
    const filter = { search: parseSearch(query), names: names === undefined || names === '' ? undefined : names.split(',') };
    const { organization, rows, total } = await listOrganizationProjects(contextOf(request), request.params.organization, filter, page);
    const path = `/api/v2/organizations/${encodeURIComponent(organization.name)}/projects`;
    return listDocument(path, query, page, total, rows.map((p) => serializeProject(p, organization.name)));
  });

  api.get<IdParams>('/projects/:id', async (request) => {
    const { project, organization } = await getProject(contextOf(request), request.params.id);
    return { data: serializeProject(project, organization.name) };
  });

  api.patch<IdParams>('/projects/:id', async (request) => {
    const { project, organization } = await updateProject(contextOf(request), request.params.id, ResourceInput.read(request.body, 'projects'));
    return { data: serializeProject(project, organization.name) };
  });

  api.delete<IdParams>('/projects/:id', async (request, reply) => {
    await deleteProject(contextOf(request), request.params.id);
    return reply.code(204).send();
  });
}
