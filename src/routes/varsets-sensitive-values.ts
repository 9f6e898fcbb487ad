import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { contextOf } from '../http/context.js';
import { CollectionDocument, Query, Responses } from '../jsonapi/schemas.js';
import { tagged } from '../jsonapi/tags.js';
import { SensitiveValueResource } from '../variables/schemas.js';
import { serializeSensitiveValue } from '../varsets/serialize.js';
import { readVarsetSensitiveValues } from '../varsets/service.js';

const IdParams = Type.Object({ id: Type.String() });

/**
 * varsetd's own: a set's sensitive values opened, to the site administrator alone, for
 * `varsetd import --include-sensitive` from this server. Never kept, by the response cache or
 * by anything between (`Cache-Control: no-store`).
 */
export const varsetSensitiveValueRoutes: FastifyPluginAsyncTypebox = async (api) => {
  api.addHook('onRoute', tagged('varsets'));
  api.get(
    '/varsets/:id/sensitive-values',
    {
      schema: {
        description:
          "varsetd's own: the set's sensitive values opened, to the site-admin token alone (403 to any other), each read an audit event; Cache-Control: no-store",
        params: IdParams,
        querystring: Query({}),
        response: Responses({ 200: CollectionDocument(SensitiveValueResource) }),
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const values = await readVarsetSensitiveValues(contextOf(request), request.params.id);
      return { data: values.map(serializeSensitiveValue) };
    },
  );
};
