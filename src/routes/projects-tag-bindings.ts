import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { contextOf } from '../http/context.js';
import { CollectionDocument, Responses } from '../jsonapi/schemas.js';
import { checkedBindings } from '../tag-bindings/model.js';
import { EffectiveTagBindingResource, TagBindingResource, TagBindingsBody } from '../tag-bindings/schemas.js';
import { serializeEffectiveTagBinding, serializeTagBinding } from '../tag-bindings/serialize.js';
import {
  addProjectTagBindings,
  listProjectEffectiveTagBindings,
  listProjectTagBindings,
} from '../projects/tag-bindings.js';
import { tagged } from '../jsonapi/tags.js';

const IdParams = Type.Object({ id: Type.String() });
/** The body is the list of bindings itself. */
const LIST_BODY = { 'tag-bindings': '/data' };
const Bindings = Responses({ 200: CollectionDocument(TagBindingResource) });

export const projectTagBindingRoutes: FastifyPluginAsyncTypebox = async (api) => {
  api.addHook('onRoute', tagged('projects'));
  api.get('/projects/:id/tag-bindings', { schema: { params: IdParams, response: Bindings } }, async (request) => {
    return { data: (await listProjectTagBindings(contextOf(request), request.params.id)).map(serializeTagBinding) };
  });
  api.patch(
    '/projects/:id/tag-bindings',
    { config: { fields: LIST_BODY }, schema: { params: IdParams, body: TagBindingsBody, response: Bindings } },
    async (request) => {
      const bindings = checkedBindings(request.body.data.map((b) => b.attributes));
      return {
        data: (await addProjectTagBindings(contextOf(request), request.params.id, bindings)).map(serializeTagBinding),
      };
    },
  );
  api.get(
    '/projects/:id/effective-tag-bindings',
    { schema: { params: IdParams, response: Responses({ 200: CollectionDocument(EffectiveTagBindingResource) }) } },
    async (request) => {
      return {
        data: (await listProjectEffectiveTagBindings(contextOf(request), request.params.id)).map(
          serializeEffectiveTagBinding,
        ),
      };
    },
  );
};
