import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { varsetPermissions } from '../auth/permissions.js';
import { contextOf } from '../http/context.js';
import { Nullable, Query, Responses } from '../jsonapi/schemas.js';
import { tagged } from '../jsonapi/tags.js';
import { VariableWritesBody, VarsetResource, variableWrites } from '../varsets/schemas.js';
import { varsetDocument } from '../varsets/serialize.js';
import { writeVarsetVariables } from '../varsets/service.js';

const IdParams = Type.Object({ id: Type.String() });

const MadeVersion = Nullable(
  Type.Object(
    { id: Type.String(), number: Type.Integer() },
    { description: 'the version the write made; null when it changed nothing' },
  ),
);

const WrittenDocument = Responses({
  200: Type.Object({ data: VarsetResource, meta: Type.Object({ version: MadeVersion }) }),
});

/**
 * varsetd's own: several variables of a set added, changed and removed in one write, so one
 * version and one audit event, all or nothing. `POST /varsets/:id/actions/preview` takes the
 * same body.
 */
export const varsetVariableRoutes: FastifyPluginAsyncTypebox = async (api) => {
  api.addHook('onRoute', tagged('varsets'));
  api.post(
    '/varsets/:id/actions/write-variables',
    {
      // The body is the list of variables itself: `data[2].key` is /data/2/attributes/key.
      config: { fields: { data: '/data' } },
      schema: { params: IdParams, querystring: Query({}), body: VariableWritesBody, response: WrittenDocument },
    },
    async (request) => {
      const ctx = contextOf(request);
      const { view, version } = await writeVarsetVariables(ctx, request.params.id, variableWrites(request.body));
      const permissions = () =>
        varsetPermissions(ctx.subject, {
          organizationId: view.varset.organization_id,
          ownerProjectId: view.varset.project_id,
        });
      const document = varsetDocument(view, { permissions, variableAttributes: true }, undefined);
      return { ...document, meta: { version: version && { id: version.id, number: version.number } } };
    },
  );
};
