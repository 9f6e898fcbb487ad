import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { contextOf } from '../http/context.js';
import { CollectionDocument, Query, Responses } from '../jsonapi/schemas.js';
import { VarsetVariableResource } from '../varsets/schemas.js';
import { WorkspaceVariableResource } from '../workspace-variables/schemas.js';
import { EffectiveVariablesDocument, ExplainQuery } from '../effective/schemas.js';
import { serializeEffectiveVariables, serializeWinningVariable } from '../effective/serialize.js';
import { listAllVariables, showRunEffectiveVariables, showWorkspaceEffectiveVariables } from '../effective/service.js';
import { tagged } from '../jsonapi/tags.js';

const IdParams = Type.Object({ id: Type.String() });
const NoQuery = Query({});
const EffectiveVariables = Responses({ 200: EffectiveVariablesDocument });

/** All three answer every variable at once, unpaginated, as HCP Terraform's all-vars does. */
export const effectiveVariableRoutes: FastifyPluginAsyncTypebox = async (api) => {
  api.addHook('onRoute', tagged('effectiveVariables'));
  api.get(
    '/workspaces/:id/all-vars',
    {
      schema: {
        params: IdParams,
        querystring: NoQuery,
        response: Responses({
          200: CollectionDocument(Type.Union([VarsetVariableResource, WorkspaceVariableResource])),
        }),
      },
    },
    async (request) => {
      return { data: (await listAllVariables(contextOf(request), request.params.id)).map(serializeWinningVariable) };
    },
  );

  api.get(
    '/workspaces/:id/effective-variables',
    { schema: { params: IdParams, querystring: ExplainQuery, response: EffectiveVariables } },
    async (request) => {
      return serializeEffectiveVariables(
        await showWorkspaceEffectiveVariables(contextOf(request), request.params.id),
        request.query.explain === 'true',
      );
    },
  );

  api.get(
    '/runs/:id/effective-variables',
    { schema: { params: IdParams, querystring: ExplainQuery, response: EffectiveVariables } },
    async (request) => {
      return serializeEffectiveVariables(
        await showRunEffectiveVariables(contextOf(request), request.params.id),
        request.query.explain === 'true',
      );
    },
  );
};
