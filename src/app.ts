import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyError } from 'fastify';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Store } from './db/connect.js';
import { isForeignKeyViolation, isUniqueViolation } from './db/connect.js';
import { ConcurrentChangeError } from './db/transaction.js';
import { validationError } from './jsonapi/validation.js';
import { NoContent, Responses } from './jsonapi/schemas.js';
import Type from 'typebox';
import { VERSION } from './version.js';
import type { Subject } from './auth/subject.js';
import type { DestinationStream } from 'pino';
import { createSealer, generateKey, type Sealer } from './secrets/sealer.js';
import { DEFAULT_RESPONSE_CACHE_MB, ResponseCache } from './cache/response-cache.js';
import { authenticate } from './auth/tokens.js';
import { ApiError, conflict, notFound, unauthorized } from './jsonapi/errors.js';
import { API_PREFIX, MEDIA_TYPE } from './jsonapi/document.js';
import { organizationRoutes } from './organizations/routes.js';
import { projectRoutes } from './projects/routes.js';
import { workspaceRoutes } from './workspaces/routes.js';
import { teamRoutes } from './teams/routes.js';
import { tokenRoutes } from './tokens/routes.js';
import { teamAccessRoutes } from './team-access/routes.js';
import { varsetRoutes } from './varsets/routes.js';
import { configurationVersionRoutes } from './configuration-versions/routes.js';
import { runRoutes } from './runs/routes.js';
import { runEventRoutes } from './run-events/routes.js';
import { commentRoutes } from './comments/routes.js';
import { workspaceVariableRoutes } from './workspace-variables/routes.js';
import { effectiveVariableRoutes } from './effective/routes.js';

declare module 'fastify' {
  interface FastifyRequest {
    subject: Subject | null;
  }
  interface FastifyContextConfig {
    /** Routes reachable without a bearer token. */
    public?: boolean;
  }
  interface FastifyInstance {
    store: Store;
    sealer: Sealer;
    responses: ResponseCache;
  }
}

export interface AppOptions {
  store: Store;
  /** Absolute base URL for links that must be absolute (upload URLs); derived from the request when unset. */
  publicUrl?: string | undefined;
  logger?: boolean | { level: string; stream?: DestinationStream };
  /** Seals sensitive values at rest. `varsetd serve` passes the configured key; without one, a random key lives as long as the process. */
  sealer?: Sealer;
  /** Characters of rendered variable-set responses the process keeps (see `ResponseCache`); 0 keeps none. DEFAULT_RESPONSE_CACHE_MB Mi unless set. */
  responseCacheSize?: number;
}

/** Request bodies above this size are refused with 413. A set of variables at the 256 KiB value limit fits. */
export const BODY_LIMIT = 5 * 1024 * 1024;

export async function buildApp(options: AppOptions) {
  const app = Fastify({
    logger:
      options.logger === undefined || options.logger === false
        ? false
        : typeof options.logger === 'object'
          ? { ...loggerOptions, level: options.logger.level, ...(options.logger.stream ? { stream: options.logger.stream } : {}) }
          : { ...loggerOptions, level: 'info' },
    bodyLimit: BODY_LIMIT,
    // Route schemas check requests as they are sent: no coercion ("true" is not a boolean), no
    // defaults filled in and nothing removed, so a route sees exactly what the client sent.
    ajv: { customOptions: { coerceTypes: false, useDefaults: false, removeAdditional: false } },
    // Clients percent-encode brackets (`page%5Bnumber%5D`); the default parser decodes keys too.
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.decorate('store', options.store);
  app.decorate('sealer', options.sealer ?? createSealer(generateKey()));
  app.decorate('responses', new ResponseCache(options.responseCacheSize ?? DEFAULT_RESPONSE_CACHE_MB * 1024 * 1024));
  app.decorateRequest('subject', null);

  registerJsonParser(app);
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'varsetd', version: VERSION, description: 'The HCP Terraform API for variable sets and run comments, as varsetd serves it.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((_request, reply) => sendError(reply, notFound()));

  const discovery = Type.Object({ 'tfe.v2': Type.String(), 'tfe.v2.1': Type.String(), 'tfe.v2.2': Type.String() });
  app.get('/.well-known/terraform.json', { config: { public: true }, schema: { security: [], response: { 200: discovery } } }, async () => ({
    'tfe.v2': `${API_PREFIX}/`,
    'tfe.v2.1': `${API_PREFIX}/`,
    'tfe.v2.2': `${API_PREFIX}/`,
  }));

  await app.register(
    async (api) => {
      api.addHook('onRequest', async (request, reply) => {
        reply.type(MEDIA_TYPE);
        if (request.routeOptions.config.public) return;
        const secret = bearerSecret(request);
        const subject = secret === undefined ? null : await authenticate(options.store, secret);
        if (!subject) throw unauthorized();
        request.subject = subject;
      });

      api.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
        return reply.type('application/json').send(app.swagger());
      });

      api.get('/ping', { config: { public: true }, schema: { security: [], response: Responses({ 204: NoContent }) } }, async (_request, reply) => {
        reply.header('TFP-API-Version', '2.6').header('TFP-AppName', 'varsetd').code(204).send();
      });

      await api.register(organizationRoutes);
      await api.register(projectRoutes);
      await api.register(workspaceRoutes);
      await api.register(teamRoutes);
      await api.register(tokenRoutes);
      await api.register(teamAccessRoutes);
      await api.register(varsetRoutes);
      await api.register(configurationVersionRoutes, { publicUrl: options.publicUrl });
      await api.register(runRoutes);
      await api.register(runEventRoutes);
      await api.register(commentRoutes);
      await api.register(workspaceVariableRoutes);
      await api.register(effectiveVariableRoutes);
    },
    { prefix: API_PREFIX },
  );

  return app;
}

function bearerSecret(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/** JSON:API and plain JSON bodies; an empty body is allowed (clients send one with DELETE and POST actions). */
function registerJsonParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser([MEDIA_TYPE, 'application/json'], { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new ApiError(400, [{ status: '400', title: 'bad request', detail: 'the request body is not valid JSON' }]), undefined);
    }
  });
}

function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply.code(error.status).type(MEDIA_TYPE).send(error.toDocument());
}

/** Translates every error into a JSON:API error document; only an unexpected failure is a 500, and it never shows internals. */
function handleError(error: FastifyError | ApiError | ConcurrentChangeError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof ApiError) return sendError(reply, error);
  if (error instanceof ConcurrentChangeError || isUniqueViolation(error) || isForeignKeyViolation(error)) {
    // A concurrent change broke a unique index or a foreign key after the request's checks
    // passed (twice, for a write run by `transaction`): not bad input, and a retry sees the new state.
    request.log.warn({ code: (error as { code?: unknown }).code }, 'request lost a race with a concurrent change');
    return sendError(reply, conflict('the request conflicts with a concurrent change; try again'));
  }
  if (error.validation) return sendError(reply, validationError(error.validation, error.validationContext));
  const status = error.statusCode ?? 500;
  if (status === 415) {
    return sendError(reply, new ApiError(415, [{ status: '415', title: 'unsupported media type', detail: `send the request body as ${MEDIA_TYPE}` }]));
  }
  if (status === 413) {
    return sendError(reply, new ApiError(413, [{ status: '413', title: 'payload too large', detail: `the request body may be at most ${BODY_LIMIT} bytes` }]));
  }
  if (status >= 400 && status < 500) {
    return sendError(reply, new ApiError(status, [{ status: String(status), title: 'bad request', detail: error.message }]));
  }
  request.log.error({ err: error }, 'request failed');
  return sendError(reply, new ApiError(500, [{ status: '500', title: 'internal server error' }]));
}

/** Log lines never carry the Authorization header or an upload credential. */
const loggerOptions = {
  redact: ['req.headers.authorization'],
  serializers: {
    req(request: FastifyRequest) {
      return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
    },
  },
};

export function redactUrl(url: string): string {
  return url.replace(/\/uploads\/[^/?#]+/, '/uploads/[redacted]');
}
