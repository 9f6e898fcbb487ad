import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import Type from 'typebox';
import { contextOf } from '../context.js';
import { listDocument } from '../jsonapi/document.js';
import { parsePage } from '../jsonapi/query.js';
import { Document, ListDocument, NoContent, PageQuery, Query, Responses } from '../jsonapi/schemas.js';
import type { OrganizationChanges } from './model.js';
import { OrganizationBody, OrganizationParams, OrganizationResource } from './schemas.js';
import { serializeOrganization } from './serialize.js';
import { createOrganization, deleteOrganization, getOrganization, listVisibleOrganizations, updateOrganization } from './service.js';

function changesOf(body: Static<typeof OrganizationBody>): OrganizationChanges {
  const attributes = body.data.attributes;
  return { name: attributes?.name ?? undefined, email: attributes?.email ?? undefined };
}

export const organizationRoutes: FastifyPluginAsyncTypebox = async (api) => {
  api.post(
    '/organizations',
    { schema: { body: OrganizationBody, response: Responses({ 201: Document(OrganizationResource) }) } },
    async (request, reply) => {
      const organization = await createOrganization(contextOf(request), changesOf(request.body));
      return reply.code(201).send({ data: serializeOrganization(organization) });
    },
  );

  api.get(
    '/organizations',
    { schema: { querystring: Query(PageQuery), response: Responses({ 200: ListDocument(OrganizationResource) }) } },
    async (request) => {
      const page = parsePage(request.query);
      const { rows, total } = await listVisibleOrganizations(contextOf(request), page);
      return listDocument('/api/v2/organizations', request.query, page, total, rows.map(serializeOrganization));
    },
  );

  api.get(
    '/organizations/:name',
    { schema: { params: OrganizationParams, response: Responses({ 200: Document(OrganizationResource) }) } },
    async (request) => ({ data: serializeOrganization(await getOrganization(contextOf(request), request.params.name)) }),
  );

  // PATCH and PUT are the same partial update, as in HCP Terraform.
  for (const method of ['patch', 'put'] as const) {
    api[method](
      '/organizations/:name',
      { schema: { params: OrganizationParams, body: OrganizationBody, response: Responses({ 200: Document(OrganizationResource) }) } },
      async (request) => {
        const organization = await updateOrganization(contextOf(request), request.params.name, changesOf(request.body));
        return { data: serializeOrganization(organization) };
      },
    );
  }

  api.delete(
    '/organizations/:name',
    { schema: { params: OrganizationParams, response: Responses({ 204: NoContent }) } },
    async (request, reply) => {
      await deleteOrganization(contextOf(request), request.params.name);
      return reply.code(204).send(null);
    },
  );

  // Stacks are outside varsetd's scope; clients that look for them find none.
  api.get(
    '/organizations/:name/stacks',
    { schema: { params: OrganizationParams, querystring: Query(PageQuery), response: Responses({ 200: ListDocument(Type.Unknown()) }) } },
    async (request) => {
      const page = parsePage(request.query);
      await getOrganization(contextOf(request), request.params.name);
      return listDocument(`/api/v2/organizations/${encodeURIComponent(request.params.name)}/stacks`, request.query, page, 0, []);
    },
  );
};
