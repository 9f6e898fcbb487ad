import type { FastifyInstance } from 'fastify';
import { contextOf } from '../context.js';
import { listDocument } from '../jsonapi/document.js';
import { parsePage, type Query } from '../jsonapi/query.js';
import { serializeTeamProject, serializeTeamWorkspace } from './serialize.js';
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
} from './service.js';

type IdParams = { Params: { id: string } };

/** Team access to workspaces (`team-workspaces`) and to projects (`team-projects`). */
export async function teamAccessRoutes(api: FastifyInstance): Promise<void> {
  api.post('/team-workspaces', async (request, reply) => {
    return reply.code(201).send({ data: serializeTeamWorkspace(await createTeamWorkspace(contextOf(request), request.body)) });
  });

  api.get('/team-workspaces', async (request) => {
    const query = request.query as Query;
    const page = parsePage(query);
    const { rows, total } = await listTeamWorkspaceGrants(contextOf(request), query, page);
    return listDocument('/api/v2/team-workspaces', query, page, total, rows.map(serializeTeamWorkspace));
  });

  api.get<IdParams>('/team-workspaces/:id', async (request) => {
    return { data: serializeTeamWorkspace(await getTeamWorkspace(contextOf(request), request.params.id)) };
  });

  api.patch<IdParams>('/team-workspaces/:id', async (request) => {
    return { data: serializeTeamWorkspace(await updateTeamWorkspace(contextOf(request), request.params.id, request.body)) };
  });

  api.delete<IdParams>('/team-workspaces/:id', async (request, reply) => {
    await deleteTeamWorkspace(contextOf(request), request.params.id);
    return reply.code(204).send();
  });

  api.post('/team-projects', async (request, reply) => {
    return reply.code(201).send({ data: serializeTeamProject(await createTeamProject(contextOf(request), request.body)) });
  });

  api.get('/team-projects', async (request) => {
    const query = request.query as Query;
    const page = parsePage(query);
    const { rows, total } = await listTeamProjectGrants(contextOf(request), query, page);
    return listDocument('/api/v2/team-projects', query, page, total, rows.map(serializeTeamProject));
  });

  api.get<IdParams>('/team-projects/:id', async (request) => {
    return { data: serializeTeamProject(await getTeamProject(contextOf(request), request.params.id)) };
  });

  api.patch<IdParams>('/team-projects/:id', async (request) => {
    return { data: serializeTeamProject(await updateTeamProject(contextOf(request), request.params.id, request.body)) };
  });

  api.delete<IdParams>('/team-projects/:id', async (request, reply) => {
    await deleteTeamProject(contextOf(request), request.params.id);
    return reply.code(204).send();
  });
}
