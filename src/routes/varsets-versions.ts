import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { contextOf } from '../http/context.js';
import { API_PREFIX, listDocument } from '../jsonapi/document.js';
import { parsePage } from '../jsonapi/query.js';
import { Document, ListDocument, PageQuery, Query, Responses } from '../jsonapi/schemas.js';
import { listDeletedVarsets, listVarsetVersions, showVarsetVersion } from '../varsets/service.js';
import { VarsetVersionResource } from '../varsets/versions/schemas.js';
import { serializeVarsetVersion } from '../varsets/versions/serialize.js';
import { tagged } from '../jsonapi/tags.js';

const IdParams = Type.Object({ id: Type.String() });

/**
 * varsetd's own: the versions of a set (rolling back to one is a set's action, in varsets.ts),
 * and an organization's deleted sets, each as its deletion.
 */
export const varsetVersionRoutes: FastifyPluginAsyncTypebox = async (api) => {
  api.addHook('onRoute', tagged('varsetVersions'));
  api.get(
    '/varsets/:id/versions',
    {
      schema: {
        params: IdParams,
        querystring: Query(PageQuery),
        response: Responses({ 200: ListDocument(VarsetVersionResource) }),
      },
    },
    async (request) => {
      const page = parsePage(request.query);
      const { rows, total } = await listVarsetVersions(contextOf(request), request.params.id, page);
      return listDocument(
        `${API_PREFIX}/varsets/${encodeURIComponent(request.params.id)}/versions`,
        request.query,
        page,
        total,
        rows.map(serializeVarsetVersion),
      );
    },
  );

  api.get(
    '/organizations/:organization/deleted-varsets',
    {
      schema: {
        params: Type.Object({ organization: Type.String() }),
        querystring: Query(PageQuery),
        response: Responses({ 200: ListDocument(VarsetVersionResource) }),
      },
    },
    async (request) => {
      const page = parsePage(request.query);
      const { rows, total } = await listDeletedVarsets(contextOf(request), request.params.organization, page);
      return listDocument(
        `${API_PREFIX}/organizations/${encodeURIComponent(request.params.organization)}/deleted-varsets`,
        request.query,
        page,
        total,
        rows.map(serializeVarsetVersion),
      );
    },
  );

  api.get(
    '/varset-versions/:id',
    {
      schema: {
        params: IdParams,
        querystring: Query({}),
        response: Responses({ 200: Document(VarsetVersionResource) }),
      },
    },
    async (request) => {
      return { data: serializeVarsetVersion(await showVarsetVersion(contextOf(request), request.params.id)) };
    },
  );
};
