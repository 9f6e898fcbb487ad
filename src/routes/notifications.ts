import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type, { type Static } from 'typebox';
import { contextOf } from '../http/context.js';
import { API_PREFIX, listDocument } from '../jsonapi/document.js';
import { parsePage } from '../jsonapi/query.js';
import { Document, ListDocument, NoContent, PageQuery, Query, Responses } from '../jsonapi/schemas.js';
import { ConfigurationBody, ConfigurationResource, CONFIGURATION_TYPE } from '../notifications/schemas.js';
import { serializeConfiguration } from '../notifications/serialize.js';
import {
  createConfiguration,
  deleteConfigurationOf,
  listConfigurations,
  showConfiguration,
  updateConfigurationOf,
  verifyConfiguration,
  type ConfigurationCommand,
  type DestinationPolicy,
} from '../notifications/service.js';
import { tagged } from '../jsonapi/tags.js';

const OrganizationParams = Type.Object({ organization: Type.String() });
const IdParams = Type.Object({ id: Type.String() });

/** A body's attributes as a command: null means not given. */
function commandOf(body: Static<typeof ConfigurationBody>): ConfigurationCommand {
  const a = body.data.attributes ?? {};
  return {
    name: a.name ?? undefined,
    destinationType: a['destination-type'] ?? undefined,
    url: a.url ?? undefined,
    token: a.token ?? undefined,
    enabled: a.enabled ?? undefined,
    triggers: a.triggers ?? undefined,
  };
}

/** varsetd's own: where an organization's variable-set changes are sent. */
export const notificationRoutes: FastifyPluginAsyncTypebox<{ policy: DestinationPolicy }> = async (api, { policy }) => {
  api.addHook('onRoute', tagged('notifications'));
  api.get(
    '/organizations/:organization/varset-notification-configurations',
    {
      schema: {
        params: OrganizationParams,
        querystring: Query(PageQuery),
        response: Responses({ 200: ListDocument(ConfigurationResource) }),
      },
    },
    async (request) => {
      const page = parsePage(request.query);
      const { rows, total } = await listConfigurations(contextOf(request), request.params.organization, page);
      const path = `${API_PREFIX}/organizations/${encodeURIComponent(request.params.organization)}/${CONFIGURATION_TYPE}`;
      return listDocument(path, request.query, page, total, rows.map(serializeConfiguration));
    },
  );

  api.post(
    '/organizations/:organization/varset-notification-configurations',
    {
      schema: {
        params: OrganizationParams,
        body: ConfigurationBody,
        response: Responses({ 201: Document(ConfigurationResource) }),
      },
    },
    async (request, reply) => {
      const created = await createConfiguration(
        contextOf(request),
        request.params.organization,
        commandOf(request.body),
        policy,
      );
      return reply.code(201).send({ data: serializeConfiguration(created) });
    },
  );

  api.get(
    '/varset-notification-configurations/:id',
    {
      schema: {
        params: IdParams,
        querystring: Query({}),
        response: Responses({ 200: Document(ConfigurationResource) }),
      },
    },
    async (request) => {
      return { data: serializeConfiguration(await showConfiguration(contextOf(request), request.params.id)) };
    },
  );

  api.patch(
    '/varset-notification-configurations/:id',
    {
      schema: {
        params: IdParams,
        body: ConfigurationBody,
        response: Responses({ 200: Document(ConfigurationResource) }),
      },
    },
    async (request) => {
      return {
        data: serializeConfiguration(
          await updateConfigurationOf(contextOf(request), request.params.id, commandOf(request.body), policy),
        ),
      };
    },
  );

  api.delete(
    '/varset-notification-configurations/:id',
    { schema: { params: IdParams, response: Responses({ 204: NoContent }) } },
    async (request, reply) => {
      await deleteConfigurationOf(contextOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  api.post(
    '/varset-notification-configurations/:id/actions/verify',
    { schema: { params: IdParams, response: Responses({ 200: Document(ConfigurationResource) }) } },
    async (request) => {
      return { data: serializeConfiguration(await verifyConfiguration(contextOf(request), request.params.id, policy)) };
    },
  );
};
