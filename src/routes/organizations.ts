import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import Type from 'typebox';
import { organizationPermissions } from '../auth/permissions.js';
import type { Context } from '../auth/context.js';
import { contextOf } from '../http/context.js';
import { API_PREFIX, listDocument } from '../jsonapi/document.js';
import { parseInclude, parsePage, parseSearch } from '../jsonapi/query.js';
import { Document, IncludeQuery, ListDocument, NoContent, PageQuery, Query, Responses } from '../jsonapi/schemas.js';
import { includedDefaultProjects } from './includes.js';
import type { OrganizationChanges, OrganizationRecord, OrganizationSettings } from '../organizations/model.js';
import {
  EntitlementSetResource,
  OrganizationBody,
  OrganizationParams,
  OrganizationResource,
} from '../organizations/schemas.js';
import { serializeEntitlementSet, serializeOrganization } from '../organizations/serialize.js';
import {
  createOrganization,
  deleteOrganization,
  getOrganization,
  getOrganizationRecord,
  listVisibleOrganizations,
  updateOrganization,
} from '../organizations/service.js';
import { tagged } from '../jsonapi/tags.js';

const INCLUDES = ['default-project'] as const;
const SHOW_INCLUDES = ['default-project', 'entitlement_set'] as const;
const ShowQuery = Type.Object(IncludeQuery(SHOW_INCLUDES), { additionalProperties: false });
const NoQuery = Type.Object({}, { additionalProperties: false });
const ListQuery = Type.Object(
  {
    ...PageQuery,
    ...IncludeQuery(INCLUDES),
    q: Type.Optional(Type.String({ description: 'organizations whose name or email contains it, ignoring case' })),
    'q[name]': Type.Optional(Type.String({ description: 'organizations whose name contains it, ignoring case' })),
    'q[email]': Type.Optional(Type.String({ description: 'organizations whose email contains it, ignoring case' })),
  },
  { additionalProperties: false },
);

function changesOf(body: Static<typeof OrganizationBody>): OrganizationChanges {
  const { name, email, ...given } = body.data.attributes ?? {};
  // null counts as left out, as for every attribute.
  const settings = Object.fromEntries(
    Object.entries(given).filter(([, value]) => value !== null),
  ) as Partial<OrganizationSettings>;
  if (settings['owners-team-saml-role-id'] === '') settings['owners-team-saml-role-id'] = null;
  const pool = body.data.relationships?.['default-agent-pool']?.data;
  return { name: name ?? undefined, email: email ?? undefined, settings, defaultAgentPoolId: pool?.id };
}

const serialize = (ctx: Context) => (organization: OrganizationRecord) =>
  serializeOrganization(organization, organizationPermissions(ctx.subject, organization.id));

export const organizationRoutes: FastifyPluginAsyncTypebox = async (api) => {
  api.addHook('onRoute', tagged('organizations'));
  api.post(
    '/organizations',
    { schema: { body: OrganizationBody, response: Responses({ 201: Document(OrganizationResource) }) } },
    async (request, reply) => {
      const ctx = contextOf(request);
      const organization = await createOrganization(ctx, changesOf(request.body));
      return reply.code(201).send({ data: serialize(ctx)(organization) });
    },
  );

  api.get(
    '/organizations',
    { schema: { querystring: ListQuery, response: Responses({ 200: ListDocument(OrganizationResource) }) } },
    async (request) => {
      const ctx = contextOf(request);
      const query = request.query;
      const page = parsePage(query);
      const include = parseInclude(query, INCLUDES);
      const filter = {
        search: parseSearch(query),
        name: parseSearch(query, 'q[name]'),
        email: parseSearch(query, 'q[email]'),
      };
      const { rows, total } = await listVisibleOrganizations(ctx, filter, page);
      const included = include.has('default-project') ? await includedDefaultProjects(ctx, rows) : undefined;
      return listDocument(`${API_PREFIX}/organizations`, query, page, total, rows.map(serialize(ctx)), included);
    },
  );

  api.get(
    '/organizations/:name',
    {
      schema: {
        params: OrganizationParams,
        querystring: ShowQuery,
        response: Responses({ 200: Document(OrganizationResource) }),
      },
    },
    async (request) => {
      const ctx = contextOf(request);
      const include = parseInclude(request.query, SHOW_INCLUDES);
      const organization = await getOrganizationRecord(ctx, request.params.name);
      const included = [
        ...(include.has('default-project') ? await includedDefaultProjects(ctx, [organization]) : []),
        ...(include.has('entitlement_set') ? [serializeEntitlementSet(organization)] : []),
      ];
      return { data: serialize(ctx)(organization), ...(include.size ? { included } : {}) };
    },
  );

  // PATCH and PUT are the same partial update, as in HCP Terraform.
  for (const method of ['patch', 'put'] as const) {
    api[method](
      '/organizations/:name',
      {
        schema: {
          params: OrganizationParams,
          body: OrganizationBody,
          response: Responses({ 200: Document(OrganizationResource) }),
        },
      },
      async (request) => {
        const ctx = contextOf(request);
        const organization = await updateOrganization(ctx, request.params.name, changesOf(request.body));
        return { data: serialize(ctx)(organization) };
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

  api.get(
    '/organizations/:name/entitlement-set',
    {
      schema: {
        params: OrganizationParams,
        querystring: NoQuery,
        response: Responses({ 200: Document(EntitlementSetResource) }),
      },
    },
    async (request) => ({
      data: serializeEntitlementSet(await getOrganization(contextOf(request), request.params.name)),
    }),
  );

  // Stacks are outside varsetd's scope; clients that look for them find none.
  api.get(
    '/organizations/:name/stacks',
    {
      schema: {
        params: OrganizationParams,
        querystring: Query(PageQuery),
        response: Responses({ 200: ListDocument(Type.Unknown()) }),
      },
    },
    async (request) => {
      const page = parsePage(request.query);
      await getOrganization(contextOf(request), request.params.name);
      return listDocument(
        `${API_PREFIX}/organizations/${encodeURIComponent(request.params.name)}/stacks`,
        request.query,
        page,
        0,
        [],
      );
    },
  );
};
