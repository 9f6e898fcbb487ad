import type { FastifyInstance } from 'fastify';
import { contextOf } from '../context.js';
import { API_PREFIX, listDocument } from '../jsonapi/document.js';
import { parseInclude, parsePage, type Query } from '../jsonapi/query.js';
import { serializeRun } from './serialize.js';
import { createRun, getRun, listWorkspaceRuns, runPermissions } from './service.js';

type IdParams = { Params: { id: string } };

export async function runRoutes(api: FastifyInstance): Promise<void> {
  api.post('/runs', async (request, reply) => {
    const { run, permissions } = await createRun(contextOf(request), request.body);
    return reply.code(201).send({ data: serializeRun(run, permissions) });
  });

  api.get<IdParams>('/runs/:id', async (request) => {
    // Plans, applies and the rest of what HCP Terraform can include do not exist here.
    parseInclude(request.query as Query, []);
    const ctx = contextOf(request);
    const { run, target } = await getRun(ctx, request.params.id);
    return { data: serializeRun(run, runPermissions(ctx, target)) };
  });

  api.get<IdParams>('/workspaces/:id/runs', async (request) => {
    const query = request.query as Query;
    parseInclude(query, []);
    const page = parsePage(query);
    const { rows, total, permissions } = await listWorkspaceRuns(contextOf(request), request.params.id, page);
    const path = `${API_PREFIX}/workspaces/${encodeURIComponent(request.params.id)}/runs`;
    return listDocument(path, query, page, total, rows.map((run) => serializeRun(run, permissions)));
  });
}
