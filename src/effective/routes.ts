import type { FastifyInstance } from 'fastify';
import { contextOf } from '../context.js';
import { serializeEffectiveVariable, serializeWinningVariable } from './serialize.js';
import { listAllVariables, showRunEffectiveVariables, showWorkspaceEffectiveVariables } from './service.js';

type IdParams = { Params: { id: string } };

/** All three answer every variable at once, unpaginated, as HCP Terraform's all-vars does. */
export async function effectiveVariableRoutes(api: FastifyInstance): Promise<void> {
  api.get<IdParams>('/workspaces/:id/all-vars', async (request) => {
    return { data: (await listAllVariables(contextOf(request), request.params.id)).map(serializeWinningVariable) };
  });

  api.get<IdParams>('/workspaces/:id/effective-variables', async (request) => {
    return { data: (await showWorkspaceEffectiveVariables(contextOf(request), request.params.id)).map(serializeEffectiveVariable) };
  });

  api.get<IdParams>('/runs/:id/effective-variables', async (request) => {
    return { data: (await showRunEffectiveVariables(contextOf(request), request.params.id)).map(serializeEffectiveVariable) };
  });
}
