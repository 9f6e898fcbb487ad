import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { contextOf } from '../context.js';
import { API_PREFIX, listDocument } from '../jsonapi/document.js';
import { invalidAttribute } from '../jsonapi/errors.js';
import { parseInclude, parsePage } from '../jsonapi/query.js';
import { CollectionDocument, Document, IncludeQuery, ListDocument, PageQuery, Query, Responses } from '../jsonapi/schemas.js';
import { FinishRunBody, OpenedVariableResource, RunBody, RunResource } from './schemas.js';
import { serializeOpenedVariable, serializeRun } from './serialize.js';
import { createRun, finishRun, getRun, listWorkspaceRuns, openOwnRunVariables, runPermissions, startRun } from './service.js';

const IdParams = Type.Object({ id: Type.String() });
/** Plans, applies and the rest of what HCP Terraform can include do not exist here. */
const NO_INCLUDES: readonly string[] = [];

export const runRoutes: FastifyPluginAsyncTypebox = async (api) => {
  api.post('/runs', { schema: { body: RunBody, response: Responses({ 201: Document(RunResource) }) } }, async (request, reply) => {
    const { attributes, relationships } = request.body.data;
    const workspaceId = relationships?.workspace?.data?.id;
    if (workspaceId === undefined) throw invalidAttribute('workspace is required', '/data/relationships/workspace');
    const { run, permissions } = await createRun(contextOf(request), {
      workspaceId,
      configurationVersionId: relationships?.['configuration-version']?.data?.id,
      message: attributes?.message ?? undefined,
      isDestroy: attributes?.['is-destroy'] ?? undefined,
      variables: attributes?.variables ?? [],
    });
    return reply.code(201).send({ data: serializeRun(run, permissions) });
  });

  api.get(
    '/runs/:id',
    { schema: { params: IdParams, querystring: Query(IncludeQuery(NO_INCLUDES)), response: Responses({ 200: Document(RunResource) }) } },
    async (request) => {
      parseInclude(request.query, NO_INCLUDES);
      const ctx = contextOf(request);
      const { run, location } = await getRun(ctx, request.params.id);
      return { data: serializeRun(run, runPermissions(ctx, location)) };
    },
  );

  api.get(
    '/workspaces/:id/runs',
    { schema: { params: IdParams, querystring: Query({ ...PageQuery, ...IncludeQuery(NO_INCLUDES) }), response: Responses({ 200: ListDocument(RunResource) }) } },
    async (request) => {
      parseInclude(request.query, NO_INCLUDES);
      const page = parsePage(request.query);
      const { rows, total, permissions } = await listWorkspaceRuns(contextOf(request), request.params.id, page);
      const path = `${API_PREFIX}/workspaces/${encodeURIComponent(request.params.id)}/runs`;
      return listDocument(path, request.query, page, total, rows.map((run) => serializeRun(run, permissions)));
    },
  );

  // varsetd's own extension: what `varsetd exec` reports and reads, for the token that created the run only.
  api.post('/runs/:id/actions/start', { schema: { params: IdParams, response: Responses({ 200: Document(RunResource) }) } }, async (request) => {
    const { run, permissions } = await startRun(contextOf(request), request.params.id);
    return { data: serializeRun(run, permissions) };
  });

  api.post(
    '/runs/:id/actions/finish',
    { schema: { params: IdParams, body: FinishRunBody, response: Responses({ 200: Document(RunResource) }) } },
    async (request) => {
      const { run, permissions } = await finishRun(contextOf(request), request.params.id, request.body['exit-code']);
      return { data: serializeRun(run, permissions) };
    },
  );

  api.get('/runs/:id/opened-variables', { schema: { params: IdParams, response: Responses({ 200: CollectionDocument(OpenedVariableResource) }) } }, async (request, reply) => {
    const variables = await openOwnRunVariables(contextOf(request), request.params.id);
    void reply.header('cache-control', 'no-store');
    return { data: variables.map(serializeOpenedVariable) };
  });
};
