import type { FastifyInstance } from 'fastify';
import { contextOf } from '../context.js';
import { ResourceInput } from '../jsonapi/payload.js';
import { serializeWorkspaceVariable } from './serialize.js';
import { createWorkspaceVariable, deleteWorkspaceVariable, listWorkspaceVariables, showWorkspaceVariable, updateWorkspaceVariable } from './service.js';

type WorkspaceParams = { Params: { id: string } };
type VarParams = { Params: { id: string; varId: string } };

export async function workspaceVariableRoutes(api: FastifyInstance): Promise<void> {
  api.post<WorkspaceParams>('/workspaces/:id/vars', async (request, reply) => {
    const variable = await createWorkspaceVariable(contextOf(request), request.params.id, ResourceInput.read(request.body, 'vars'));
    return reply.code(201).send({ data: serializeWorkspaceVariable(variable) });
  });

  // HCP Terraform answers with every variable of the workspace, unpaginated.
  api.get<WorkspaceParams>('/workspaces/:id/vars', async (request) => {
    const variables = await listWorkspaceVariables(contextOf(request), request.params.id);
    return { data: variables.map(serializeWorkspaceVariable) };
  });

  api.get<VarParams>('/workspaces/:id/vars/:varId', async (request) => {
    return { data: serializeWorkspaceVariable(await showWorkspaceVariable(contextOf(request), request.params.id, request.params.varId)) };
  });

  api.patch<VarParams>('/workspaces/:id/vars/:varId', async (request) => {
    const variable = await updateWorkspaceVariable(contextOf(request), request.params.id, request.params.varId, ResourceInput.read(request.body, 'vars'));
    return { data: serializeWorkspaceVariable(variable) };
  });

  api.delete<VarParams>('/workspaces/:id/vars/:varId', async (request, reply) => {
    await deleteWorkspaceVariable(contextOf(request), request.params.id, request.params.varId);
    return reply.code(204).send();
  });
}
