import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { contextOf } from '../http/context.js';
import { API_PREFIX, listDocument } from '../jsonapi/document.js';
import { parseInclude, parsePage } from '../jsonapi/query.js';
import { Document, IncludeQuery, ListDocument, PageQuery, Query, Responses } from '../jsonapi/schemas.js';
import { CommentBody, CommentResource } from '../comments/schemas.js';
import { serializeComment } from '../comments/serialize.js';
import { createComment, getComment, listCommentsOfRun } from '../comments/service.js';
import { tagged } from '../jsonapi/tags.js';

const IdParams = Type.Object({ id: Type.String() });
const NO_INCLUDES: readonly string[] = [];

export const commentRoutes: FastifyPluginAsyncTypebox = async (api) => {
  api.addHook('onRoute', tagged('comments'));
  api.get(
    '/runs/:id/comments',
    {
      schema: {
        params: IdParams,
        querystring: Query({ ...PageQuery, ...IncludeQuery(NO_INCLUDES) }),
        response: Responses({ 200: ListDocument(CommentResource) }),
      },
    },
    async (request) => {
      parseInclude(request.query, NO_INCLUDES);
      const page = parsePage(request.query);
      const { rows, total } = await listCommentsOfRun(contextOf(request), request.params.id, page);
      const path = `${API_PREFIX}/runs/${encodeURIComponent(request.params.id)}/comments`;
      return listDocument(path, request.query, page, total, rows.map(serializeComment));
    },
  );

  api.post(
    '/runs/:id/comments',
    { schema: { params: IdParams, body: CommentBody, response: Responses({ 201: Document(CommentResource) }) } },
    async (request, reply) => {
      const comment = await createComment(
        contextOf(request),
        request.params.id,
        request.body.data.attributes?.body ?? undefined,
      );
      return reply.code(201).send({ data: serializeComment(comment) });
    },
  );

  api.get(
    '/comments/:id',
    {
      schema: {
        params: IdParams,
        querystring: Query(IncludeQuery(NO_INCLUDES)),
        response: Responses({ 200: Document(CommentResource) }),
      },
    },
    async (request) => {
      parseInclude(request.query, NO_INCLUDES);
      return { data: serializeComment(await getComment(contextOf(request), request.params.id)) };
    },
  );
};
