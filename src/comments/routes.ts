import type { FastifyInstance } from 'fastify';
import { contextOf } from '../context.js';
import { API_PREFIX, listDocument } from '../jsonapi/document.js';
import { parseInclude, parsePage, type Query } from '../jsonapi/query.js';
import { serializeComment } from './serialize.js';
import { createComment, getComment, listCommentsOfRun } from './service.js';

type IdParams = { Params: { id: string } };

export async function commentRoutes(api: FastifyInstance): Promise<void> {
  api.get<IdParams>('/runs/:id/comments', async (request) => {
    const query = request.query as Query;
    parseInclude(query, []);
    const page = parsePage(query);
    const { rows, total } = await listCommentsOfRun(contextOf(request), request.params.id, page);
    const path = `${API_PREFIX}/runs/${encodeURIComponent(request.params.id)}/comments`;
    return listDocument(path, query, page, total, rows.map(serializeComment));
  });

  api.post<IdParams>('/runs/:id/comments', async (request, reply) => {
    const comment = await createComment(contextOf(request), request.params.id, request.body);
    return reply.code(201).send({ data: serializeComment(comment) });
  });

  api.get<IdParams>('/comments/:id', async (request) => {
    parseInclude(request.query as Query, []);
    return { data: serializeComment(await getComment(contextOf(request), request.params.id)) };
  });
}
