import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { contextOf } from '../http/context.js';
import { CollectionDocument, Document, NoContent, Query, Responses } from '../jsonapi/schemas.js';
import { SensitiveValueResource, VariableBody, variableChanges } from '../variables/schemas.js';
import { WorkspaceVariableResource } from '../workspace-variables/schemas.js';
import { serializeSensitiveValue, serializeWorkspaceVariable } from '../workspace-variables/serialize.js';
import {
  createWorkspaceVariable,
  deleteWorkspaceVariable,
  listWorkspaceVariables,
  readWorkspaceSensitiveValues,
  showWorkspaceVariable,
  updateWorkspaceVariable,
} from '../workspace-variables/service.js';
import { tagged } from '../jsonapi/tags.js';

const WorkspaceParams = Type.Object({ id: Type.String() });
const VariableParams = Type.Object({ id: Type.String(), varId: Type.String() });
const NoQuery = Query({});

export const workspaceVariableRoutes: FastifyPluginAsyncTypebox = async (api) => {
  api.addHook('onRoute', tagged('workspaceVariables'));
  api.post(
    '/workspaces/:id/vars',
    {
      schema: {
        params: WorkspaceParams,
        querystring: NoQuery,
        body: VariableBody,
        response: Responses({ 201: Document(WorkspaceVariableResource) }),
      },
    },
    async (request, reply) => {
      const variable = await createWorkspaceVariable(
        contextOf(request),
        request.params.id,
        variableChanges(request.body.data.attributes),
      );
      return reply.code(201).send({ data: serializeWorkspaceVariable(variable) });
    },
  );

  // HCP Terraform answers with every variable of the workspace, unpaginated.
  api.get(
    '/workspaces/:id/vars',
    {
      schema: {
        params: WorkspaceParams,
        querystring: NoQuery,
        response: Responses({ 200: CollectionDocument(WorkspaceVariableResource) }),
      },
    },
    async (request) => {
      const variables = await listWorkspaceVariables(contextOf(request), request.params.id);
      return { data: variables.map(serializeWorkspaceVariable) };
    },
  );

  // varsetd's own: the workspace's sensitive values opened, to the site administrator alone,
  // for `varsetd import --include-sensitive` from this server; never kept by anything between.
  api.get(
    '/workspaces/:id/sensitive-values',
    {
      schema: {
        description:
          "varsetd's own: the workspace's sensitive values opened, to the site-admin token alone (403 to any other), each read an audit event; Cache-Control: no-store",
        params: WorkspaceParams,
        querystring: NoQuery,
        response: Responses({ 200: CollectionDocument(SensitiveValueResource) }),
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const values = await readWorkspaceSensitiveValues(contextOf(request), request.params.id);
      return { data: values.map(serializeSensitiveValue) };
    },
  );

  api.get(
    '/workspaces/:id/vars/:varId',
    {
      schema: {
        params: VariableParams,
        querystring: NoQuery,
        response: Responses({ 200: Document(WorkspaceVariableResource) }),
      },
    },
    async (request) => {
      return {
        data: serializeWorkspaceVariable(
          await showWorkspaceVariable(contextOf(request), request.params.id, request.params.varId),
        ),
      };
    },
  );

  api.patch(
    '/workspaces/:id/vars/:varId',
    {
      schema: {
        params: VariableParams,
        querystring: NoQuery,
        body: VariableBody,
        response: Responses({ 200: Document(WorkspaceVariableResource) }),
      },
    },
    async (request) => {
      const variable = await updateWorkspaceVariable(
        contextOf(request),
        request.params.id,
        request.params.varId,
        variableChanges(request.body.data.attributes),
      );
      return { data: serializeWorkspaceVariable(variable) };
    },
  );

  api.delete(
    '/workspaces/:id/vars/:varId',
    { schema: { params: VariableParams, querystring: NoQuery, response: Responses({ 204: NoContent }) } },
    async (request, reply) => {
      await deleteWorkspaceVariable(contextOf(request), request.params.id, request.params.varId);
      return reply.code(204).send(null);
    },
  );
};
