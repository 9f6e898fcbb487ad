import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { contextOf } from '../http/context.js';
import { API_PREFIX, listDocument } from '../jsonapi/document.js';
import { parsePage, parseSearch, type Query as RawQuery } from '../jsonapi/query.js';
import {
  CollectionDocument,
  Document,
  ListDocument,
  Maybe,
  NoContent,
  OptionalBody,
  PageQuery,
  Resource,
  Responses,
  ToManyInput,
} from '../jsonapi/schemas.js';
import { checkedBindings } from '../tag-bindings/model.js';
import { EffectiveTagBindingResource, TagBindingResource, TagBindingsBody } from '../tag-bindings/schemas.js';
import { serializeEffectiveTagBinding, serializeTagBinding } from '../tag-bindings/serialize.js';
import { forceUnlockWorkspace, lockWorkspace, safeDeleteWorkspace, unlockWorkspace } from '../workspaces/actions.js';
import {
  addWorkspaceTagBindings,
  addWorkspaceTags,
  changeRemoteStateConsumers,
  listOrganizationTags,
  listRemoteStateConsumers,
  listWorkspaceEffectiveTagBindings,
  listWorkspaceTagBindings,
  listWorkspaceTags,
  removeWorkspaceTags,
  type ConsumerChange,
} from '../workspaces/relations.js';
import { tagsOf } from './workspaces.js';
import { TagsBody, WorkspaceResource } from '../workspaces/schemas.js';
import { serializeWorkspace } from '../workspaces/serialize.js';
import { describeWorkspace, describeWorkspaces } from '../workspaces/service.js';
import { tagged } from '../jsonapi/tags.js';

const IdParams = Type.Object({ id: Type.String() });
const OrganizationParams = Type.Object({ organization: Type.String() });
const NameParams = Type.Object({ organization: Type.String(), name: Type.String() });
const One = Responses({ 200: Document(WorkspaceResource) });
const Done = Responses({ 204: NoContent });
const LockBody = OptionalBody(Type.Object({ reason: Maybe(Type.String({ maxLength: 512 })) }));

const TagResource = Resource(
  'tags',
  { name: Type.String(), 'instance-count': Type.Optional(Type.Integer()), 'created-at': Type.Optional(Type.String()) },
  undefined,
  null,
);
const TagListQuery = Type.Object({
  ...PageQuery,
  name: Type.Optional(Type.String({ description: 'tags whose name contains it, ignoring case' })),
});
const OrganizationTagQuery = Type.Object({
  ...PageQuery,
  q: Type.Optional(Type.String({ description: 'tags whose name contains it, ignoring case' })),
});

/** Locks, safe deletion, tags, tag bindings and remote state consumers of a workspace. */
export const workspaceActionRoutes: FastifyPluginAsyncTypebox = async (api) => {
  api.addHook('onRoute', tagged('workspaces'));
  api.post(
    '/workspaces/:id/actions/lock',
    { schema: { params: IdParams, body: LockBody, response: One } },
    async (request) => {
      const ctx = contextOf(request);
      return {
        data: serializeWorkspace(
          await describeWorkspace(ctx, await lockWorkspace(ctx, request.params.id, request.body?.reason ?? undefined)),
        ),
      };
    },
  );
  api.post('/workspaces/:id/actions/unlock', { schema: { params: IdParams, response: One } }, async (request) => {
    const ctx = contextOf(request);
    return { data: serializeWorkspace(await describeWorkspace(ctx, await unlockWorkspace(ctx, request.params.id))) };
  });
  api.post('/workspaces/:id/actions/force-unlock', { schema: { params: IdParams, response: One } }, async (request) => {
    const ctx = contextOf(request);
    return {
      data: serializeWorkspace(await describeWorkspace(ctx, await forceUnlockWorkspace(ctx, request.params.id))),
    };
  });
  api.post(
    '/workspaces/:id/actions/safe-delete',
    { schema: { params: IdParams, response: Done } },
    async (request, reply) => {
      await safeDeleteWorkspace(contextOf(request), { id: request.params.id });
      return reply.code(204).send(null);
    },
  );
  api.post(
    '/organizations/:organization/workspaces/:name/actions/safe-delete',
    { schema: { params: NameParams, response: Done } },
    async (request, reply) => {
      await safeDeleteWorkspace(contextOf(request), {
        organizationName: request.params.organization,
        name: request.params.name,
      });
      return reply.code(204).send(null);
    },
  );

  // --- tags
  api.get(
    '/workspaces/:id/relationships/tags',
    {
      schema: { params: IdParams, querystring: TagListQuery, response: Responses({ 200: ListDocument(TagResource) }) },
    },
    async (request) => {
      const query = request.query as RawQuery;
      const page = parsePage(query);
      const { rows, total } = await listWorkspaceTags(
        contextOf(request),
        request.params.id,
        parseSearch(query, 'name'),
        page,
      );
      const data = rows.map((t) => ({ id: t.id, type: 'tags' as const, attributes: { name: t.name } }));
      return listDocument(`${API_PREFIX}/workspaces/${request.params.id}/relationships/tags`, query, page, total, data);
    },
  );
  api.post(
    '/workspaces/:id/relationships/tags',
    { config: { fields: { tags: '/data' } }, schema: { params: IdParams, body: TagsBody, response: Done } },
    async (request, reply) => {
      await addWorkspaceTags(contextOf(request), request.params.id, tagsOf(request.body.data));
      return reply.code(204).send(null);
    },
  );
  api.delete(
    '/workspaces/:id/relationships/tags',
    { schema: { params: IdParams, body: TagsBody, response: Done } },
    async (request, reply) => {
      await removeWorkspaceTags(contextOf(request), request.params.id, tagsOf(request.body.data));
      return reply.code(204).send(null);
    },
  );
  api.get(
    '/organizations/:organization/tags',
    {
      schema: {
        params: OrganizationParams,
        querystring: OrganizationTagQuery,
        response: Responses({ 200: ListDocument(TagResource) }),
      },
    },
    async (request) => {
      const query = request.query as RawQuery;
      const page = parsePage(query);
      const { organization, rows, total } = await listOrganizationTags(
        contextOf(request),
        request.params.organization,
        parseSearch(query),
        page,
      );
      const data = rows.map((t) => ({
        id: t.id,
        type: 'tags' as const,
        attributes: { name: t.name, 'instance-count': t.instance_count, 'created-at': t.created_at },
      }));
      return listDocument(
        `${API_PREFIX}/organizations/${encodeURIComponent(organization.name)}/tags`,
        query,
        page,
        total,
        data,
      );
    },
  );

  // --- tag bindings
  api.get(
    '/workspaces/:id/tag-bindings',
    { schema: { params: IdParams, response: Responses({ 200: CollectionDocument(TagBindingResource) }) } },
    async (request) => {
      return { data: (await listWorkspaceTagBindings(contextOf(request), request.params.id)).map(serializeTagBinding) };
    },
  );
  api.patch(
    '/workspaces/:id/tag-bindings',
    {
      config: { fields: { 'tag-bindings': '/data' } },
      schema: {
        params: IdParams,
        body: TagBindingsBody,
        response: Responses({ 200: CollectionDocument(TagBindingResource) }),
      },
    },
    async (request) => {
      const bindings = checkedBindings(request.body.data.map((b) => b.attributes));
      return {
        data: (await addWorkspaceTagBindings(contextOf(request), request.params.id, bindings)).map(serializeTagBinding),
      };
    },
  );
  api.get(
    '/workspaces/:id/effective-tag-bindings',
    { schema: { params: IdParams, response: Responses({ 200: CollectionDocument(EffectiveTagBindingResource) }) } },
    async (request) => {
      return {
        data: (await listWorkspaceEffectiveTagBindings(contextOf(request), request.params.id)).map(
          serializeEffectiveTagBinding,
        ),
      };
    },
  );

  // --- remote state consumers
  api.get(
    '/workspaces/:id/relationships/remote-state-consumers',
    {
      schema: {
        params: IdParams,
        querystring: Type.Object({ ...PageQuery }),
        response: Responses({ 200: ListDocument(WorkspaceResource) }),
      },
    },
    async (request) => {
      const ctx = contextOf(request);
      const query = request.query as RawQuery;
      const page = parsePage(query);
      const { organization, rows, total } = await listRemoteStateConsumers(ctx, request.params.id, page);
      const { views } = await describeWorkspaces(ctx, organization, rows);
      return listDocument(
        `${API_PREFIX}/workspaces/${request.params.id}/relationships/remote-state-consumers`,
        query,
        page,
        total,
        views.map(serializeWorkspace),
      );
    },
  );
  const consumers = (method: 'post' | 'delete' | 'patch', change: ConsumerChange) =>
    api[method](
      '/workspaces/:id/relationships/remote-state-consumers',
      {
        config: { fields: { 'remote-state-consumers': '/data' } },
        schema: { params: IdParams, body: ToManyInput('workspaces'), response: Done },
      },
      async (request, reply) => {
        const body = request.body;
        await changeRemoteStateConsumers(
          contextOf(request),
          request.params.id,
          change,
          body.data.map((w) => w.id),
        );
        return reply.code(204).send(null);
      },
    );
  consumers('post', 'add');
  consumers('delete', 'remove');
  consumers('patch', 'replace');
};
