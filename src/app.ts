import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Store } from './db/connect.js';
import type { FieldPointers } from './http/domain-errors.js';
import { handleClientError, handleError, handleFrameworkError, sendError } from './http/errors.js';
import { StoreOutage } from './http/outage.js';
import { Readiness } from './health/readiness.js';
import { healthRoutes } from './health/routes.js';
import { bearerToken } from './http/bearer.js';
import { assertSafeBody, assertSafeUrl } from './http/text.js';
import { BODY_LIMIT, PATH_SEGMENT_LIMIT } from './http/limits.js';
import { assertWithinLimits } from './http/json-limits.js';
import { createServerFactory, type Timeouts } from './http/server.js';
import type { TlsCredentials } from './http/tls.js';
import type { TrustProxy } from './config.js';
import { NoContent, Responses } from './jsonapi/schemas.js';
import Type from 'typebox';
import { VERSION } from './version.js';
import type { Subject } from './auth/subject.js';
import type { DestinationStream } from 'pino';
import { createKeyring, keyringKey, type Keyring } from './secrets/keyring.js';
import { generateKey } from './secrets/sealer.js';
import { DEFAULT_RESPONSE_CACHE_MB, ResponseCache } from './cache/response-cache.js';
import { responseCache } from './cache/plugin.js';
import { SubjectCache } from './auth/subject-cache.js';
import { ApiError, notFound, unauthorized } from './jsonapi/errors.js';
import { API_PREFIX, MEDIA_TYPE } from './jsonapi/document.js';
import { closeQuerystring } from './jsonapi/closed-query.js';
import { organizationRoutes } from './routes/organizations.js';
import { subscribeFeatures } from './subscribers.js';
import { projectRoutes } from './routes/projects.js';
import { projectTagBindingRoutes } from './routes/projects-tag-bindings.js';
import { workspaceRoutes } from './routes/workspaces.js';
import { workspaceActionRoutes } from './routes/workspaces-actions.js';
import { teamRoutes } from './routes/teams.js';
import { tokenRoutes } from './routes/tokens.js';
import { teamAccessRoutes } from './routes/team-access.js';
import { varsetRoutes } from './routes/varsets.js';
import { varsetVersionRoutes } from './routes/varsets-versions.js';
import { varsetVariableRoutes } from './routes/varsets-variables.js';
import { varsetSensitiveValueRoutes } from './routes/varsets-sensitive-values.js';
import { configurationVersionRoutes } from './routes/configuration-versions.js';
import { runRoutes } from './routes/runs.js';
import { runEventRoutes } from './routes/run-events.js';
import { commentRoutes } from './routes/comments.js';
import { workspaceVariableRoutes } from './routes/workspace-variables.js';
import { effectiveVariableRoutes } from './routes/effective.js';
import { auditRoutes } from './routes/audit.js';
import { notificationRoutes } from './routes/notifications.js';
import { importRoutes } from './routes/imports.js';
import { Deliverer, type DelivererOptions } from './notifications/deliverer.js';
import { previewRoutes } from './routes/effective-preview.js';
import { DEFAULT_UI_ROOT, serveUi } from './ui/static.js';
import { withJsonApiMediaTypes } from './api-docs/media-types.js';
import { apiReference } from './api-docs/reference.js';
import { AppMetrics } from './metrics/app-metrics.js';
import { registerMetrics, type MetricsOptions } from './metrics/routes.js';
import { issuerRoutes, workloadIdentityRoutes } from './routes/workload-identity.js';
import type { IssuerOptions } from './workload-identity/service.js';
import { API_TAGS, TAG_LIST } from './jsonapi/tags.js';

declare module 'fastify' {
  interface FastifyRequest {
    subject: Subject | null;
    /** The credentials version the subject was kept at, not read for this request (`credentialsInRead`). */
    credentialsUnconfirmed: number | undefined;
  }
  interface FastifyContextConfig {
    /** Routes reachable without a bearer token. */
    public?: boolean;
    /**
     * The route's read reads the credentials version in its own statement and confirms a kept
     * subject with it (src/http/credentials.ts), so the request does not read it first.
     */
    credentialsInRead?: boolean;
    /** Where the fields of domain errors are in this route's body, where it is not a create or update document (http/domain-errors.ts). */
    fields?: FieldPointers;
  }
  interface FastifyInstance {
    store: Store;
    outage: StoreOutage;
    sealer: Keyring;
    readiness: Readiness;
    subjects: SubjectCache;
  }
}

export interface AppOptions {
  store: Store;
  /** Absolute base URL for links that must be absolute (upload URLs); derived from the request when unset. */
  publicUrl?: string | undefined;
  logger?: boolean | { level: string; stream?: DestinationStream };
  /** Seals sensitive values at rest. `varsetd serve` passes the configured keyring; without one, a random key lives as long as the process. */
  sealer?: Keyring;
  /** Characters of rendered variable-set responses the process keeps (see `ResponseCache`); 0 keeps none. DEFAULT_RESPONSE_CACHE_MB Mi unless set. */
  responseCacheSize?: number;
  /** How long a client may take to send a request and to keep an idle connection; DEFAULT_TIMEOUTS unless set. */
  timeouts?: Timeouts;
  /** Serves HTTPS with this certificate; plain HTTP without. */
  tls?: TlsCredentials | undefined;
  /** The peers whose X-Forwarded-Proto and X-Forwarded-Host make absolute URLs; none unless set. */
  trustProxy?: TrustProxy;
  /** The folder of the built web UI, served at `/`; DEFAULT_UI_ROOT unless set. */
  uiRoot?: string;
  /** Who may read `GET /metrics`, and whether it answers for every worker; open, for this process alone, unless set. */
  metrics?: MetricsOptions;
  /** Notifications of variable-set changes: whether private addresses may be destinations (not unless set), and whether this process sends the queued ones (`varsetd serve` does; not unless set). */
  notifications?: {
    allowPrivateAddresses?: boolean;
    deliver?: Omit<DelivererOptions, 'allowPrivateAddresses'> | false;
  };
  /** The origins the import may read a named source from (VARSETD_IMPORT_SOURCES); https://app.terraform.io unless set. */
  importSources?: readonly string[];
  /** varsetd as the OpenID Connect issuer of runs' workload identity tokens; not one unless set. */
  workloadIdentity?: IssuerOptions | undefined;
}

export async function buildApp(options: AppOptions) {
  // What features do in each other's writes, once per process (src/events/registry.ts).
  subscribeFeatures();
  const responses = new ResponseCache(options.responseCacheSize ?? DEFAULT_RESPONSE_CACHE_MB * 1024 * 1024);
  const metrics = new AppMetrics({ responses, poolUse: options.store.poolUse?.bind(options.store) });
  const app = Fastify({
    logger:
      options.logger === undefined || options.logger === false
        ? false
        : typeof options.logger === 'object'
          ? {
              ...loggerOptions,
              level: options.logger.level,
              ...(options.logger.stream ? { stream: options.logger.stream } : {}),
            }
          : { ...loggerOptions, level: 'info' },
    bodyLimit: BODY_LIMIT,
    // Unique across workers and restarts: histories and the audit trail name a write's request by it.
    genReqId: () => randomUUID(),
    // Route schemas check requests as they are sent: no coercion ("true" is not a boolean), no
    // defaults filled in and nothing removed, so a route sees exactly what the client sent;
    // `verbose` gives an error its schema, whose description words the error (validation.ts).
    ajv: { customOptions: { coerceTypes: false, useDefaults: false, removeAdditional: false, verbose: true } },
    // Clients percent-encode brackets (`page%5Bnumber%5D`); the default parser decodes keys too.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: PATH_SEGMENT_LIMIT },
    serverFactory: createServerFactory(options.timeouts, options.tls),
    trustProxy: options.trustProxy ?? false,
    // Refused before routing, where no hook runs: counted here.
    frameworkErrors: (error, request, reply) => {
      metrics.observeRefused(handleFrameworkError(error, request, reply));
    },
    clientErrorHandler: handleClientError,
    // Draining is answered below, as JSON:API with Retry-After, and /readyz says so itself.
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.decorate('store', options.store);
  app.decorate('sealer', options.sealer ?? createKeyring([keyringKey(generateKey())]));
  await app.register(responseCache, { cache: responses });
  app.decorateRequest('subject', null);
  app.decorateRequest('credentialsUnconfirmed', undefined);
  const subjects = new SubjectCache(options.store);
  app.decorate('subjects', subjects);
  registerMetrics(app, metrics, options.metrics ?? {});
  const outage = new StoreOutage(options.store, app.log);
  app.decorate('outage', outage);
  const readiness = new Readiness(options.store, outage);
  app.decorate('readiness', readiness);
  // Not ready from the moment closing starts at the latest (`varsetd serve` says so earlier, on SIGTERM).
  app.addHook('preClose', async () => readiness.stop());
  app.addHook('onClose', async () => outage.stop());
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  // A process that is going still answers every request that reaches it, on a connection it
  // accepted, but closes the connection after the answer: a client sends its next request
  // elsewhere, and no kept-alive connection is left to close under a request on its way.
  app.addHook('onSend', async (_request, reply) => {
    if (readiness.isStopping) reply.header('Connection', 'close');
  });

  const allowPrivateAddresses = options.notifications?.allowPrivateAddresses ?? false;
  const deliver = options.notifications?.deliver ?? false;
  if (deliver) {
    const deliverer = new Deliverer(options.store, app.sealer, app.log, { ...deliver, allowPrivateAddresses });
    app.addHook('onReady', async () => deliverer.start());
    // Claims nothing more once closing starts; what is being sent finishes or is given back.
    app.addHook('preClose', async () => deliverer.stop());
  }

  registerJsonParser(app);
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'varsetd',
        version: VERSION,
        description: 'The HCP Terraform API for variable sets and run comments, as varsetd serves it.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
      tags: TAG_LIST,
    },
    transformObject: (documents) =>
      'openapiObject' in documents ? withJsonApiMediaTypes(documents.openapiObject) : documents.swaggerObject,
  });
  app.setErrorHandler(handleError);
  await app.register(apiReference, { documentUrl: `${API_PREFIX}/openapi.json` });
  const uiPage = await serveUi(app, options.uiRoot ?? DEFAULT_UI_ROOT);
  app.setNotFoundHandler((request, reply) => uiPage(request, reply) ?? sendError(reply, notFound()));

  await app.register(healthRoutes, { readiness });

  const discovery = Type.Object({ 'tfe.v2': Type.String(), 'tfe.v2.1': Type.String(), 'tfe.v2.2': Type.String() });
  app.get(
    '/.well-known/terraform.json',
    { config: { public: true }, schema: { security: [], tags: [API_TAGS.service.name], response: { 200: discovery } } },
    async () => ({
      'tfe.v2': `${API_PREFIX}/`,
      'tfe.v2.1': `${API_PREFIX}/`,
      'tfe.v2.2': `${API_PREFIX}/`,
    }),
  );

  if (options.workloadIdentity) await app.register(issuerRoutes, { issuer: options.workloadIdentity });

  await app.register(
    async (api) => {
      api.addHook('onRequest', async (request, reply) => {
        reply.type(MEDIA_TYPE);
        if (request.routeOptions.config.public) return;
        const secret = bearerToken(request.headers.authorization);
        if (secret !== undefined && request.routeOptions.config.credentialsInRead) {
          const kept = await subjects.kept(secret);
          if (kept) {
            request.subject = kept.subject;
            request.credentialsUnconfirmed = kept.version;
            return;
          }
        }
        const subject = secret === undefined ? null : await subjects.authenticate(secret);
        if (!subject) throw unauthorized();
        request.subject = subject;
      });
      api.addHook('preValidation', async (request) => assertSafeUrl(request));
      api.addHook('onRoute', closeQuerystring);

      api.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
        return reply.type('application/json').send(app.swagger());
      });

      api.get(
        '/ping',
        {
          config: { public: true },
          schema: { security: [], tags: [API_TAGS.service.name], response: Responses({ 204: NoContent }) },
        },
        async (_request, reply) => {
          reply.header('TFP-API-Version', '2.6').header('TFP-AppName', 'varsetd').code(204).send();
        },
      );

      await api.register(organizationRoutes);
      await api.register(projectRoutes);
      await api.register(projectTagBindingRoutes);
      await api.register(workspaceRoutes);
      await api.register(workspaceActionRoutes);
      await api.register(teamRoutes);
      await api.register(tokenRoutes);
      await api.register(teamAccessRoutes);
      await api.register(varsetRoutes);
      await api.register(varsetVersionRoutes);
      await api.register(varsetVariableRoutes);
      await api.register(varsetSensitiveValueRoutes);
      await api.register(configurationVersionRoutes, { publicUrl: options.publicUrl });
      await api.register(runRoutes);
      await api.register(runEventRoutes);
      await api.register(commentRoutes);
      await api.register(workspaceVariableRoutes);
      await api.register(effectiveVariableRoutes);
      await api.register(auditRoutes);
      await api.register(notificationRoutes, {
        policy: { allowPrivateAddresses, timeoutMs: deliver ? deliver.timeoutMs : undefined },
      });
      await api.register(previewRoutes);
      await api.register(importRoutes, { allowedSources: options.importSources ?? ['https://app.terraform.io'] });
      if (options.workloadIdentity) await api.register(workloadIdentityRoutes, { issuer: options.workloadIdentity });
    },
    { prefix: API_PREFIX },
  );

  return app;
}

/** JSON:API and plain JSON bodies; an empty body is allowed (clients send one with DELETE and POST actions). */
function registerJsonParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser([MEDIA_TYPE, 'application/json'], { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    let parsed: unknown;
    try {
      // Before JSON.parse, so that nothing from here on meets a body too deep or too wide.
      assertWithinLimits(text);
    } catch (error) {
      return done(error as ApiError, undefined);
    }
    try {
      parsed = JSON.parse(text);
    } catch {
      return done(
        new ApiError(400, [{ status: '400', title: 'bad request', detail: 'the request body is not valid JSON' }]),
        undefined,
      );
    }
    try {
      assertSafeBody(parsed);
    } catch (error) {
      return done(error as ApiError, undefined);
    }
    done(null, parsed);
  });
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
