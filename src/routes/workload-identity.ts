import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { contextOf } from '../http/context.js';
import { Document, Responses } from '../jsonapi/schemas.js';
import {
  DiscoveryDocument,
  JwksDocument,
  MintTokenBody,
  WorkloadIdentityTokenResource,
} from '../workload-identity/schemas.js';
import { discoveryDocument, mintRunToken, publishedJwks, type IssuerOptions } from '../workload-identity/service.js';
import { tagged } from '../jsonapi/tags.js';

/** How long relying parties may keep the key set; a rotation's lead is longer (docs/workload-identity.md). */
const JWKS_MAX_AGE_S = 300;

/** The issuer's public documents, at the server's root (where `iss` points): no token needed. */
export const issuerRoutes: FastifyPluginAsyncTypebox<{ issuer: IssuerOptions }> = async (app, { issuer }) => {
  app.addHook('onRoute', tagged('workloadIdentity'));
  const document = discoveryDocument(issuer.issuer);
  const open = { config: { public: true }, schema: { security: [] } };
  app.get(
    '/.well-known/openid-configuration',
    { ...open, schema: { ...open.schema, response: { 200: DiscoveryDocument } } },
    async (_request, reply) => {
      void reply.header('cache-control', `public, max-age=${JWKS_MAX_AGE_S}`);
      return document;
    },
  );
  app.get(
    '/.well-known/jwks',
    { ...open, schema: { ...open.schema, response: { 200: JwksDocument } } },
    async (request, reply) => {
      void reply.header('cache-control', `public, max-age=${JWKS_MAX_AGE_S}`);
      return publishedJwks(request.server.store.db);
    },
  );
};

const IdParams = Type.Object({ id: Type.String() });

/** varsetd's own extension: a run's workload identity token, for the token that created the run only. */
export const workloadIdentityRoutes: FastifyPluginAsyncTypebox<{ issuer: IssuerOptions }> = async (api, { issuer }) => {
  api.addHook('onRoute', tagged('workloadIdentity'));
  api.post(
    '/runs/:id/actions/workload-identity-token',
    {
      config: { fields: { phase: '/phase', target: '/target', alias: '/alias' } },
      schema: {
        params: IdParams,
        body: MintTokenBody,
        response: Responses({ 200: Document(WorkloadIdentityTokenResource) }),
      },
    },
    async (request, reply) => {
      const minted = await mintRunToken(contextOf(request), issuer, request.params.id, request.body.phase, {
        target: request.body.target,
        alias: request.body.alias ?? null,
      });
      void reply.header('cache-control', 'no-store');
      return {
        data: {
          id: minted.jti,
          type: 'workload-identity-tokens' as const,
          attributes: { token: minted.token, audience: minted.audience, 'expires-at': minted.expiresAt },
        },
      };
    },
  );
};
