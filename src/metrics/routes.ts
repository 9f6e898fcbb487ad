import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from '../http/errors.js';
import { unauthorized } from '../jsonapi/errors.js';
import { AppMetrics } from './app-metrics.js';
import { answerPrimary, metricsOfEveryWorker } from './cluster.js';
import { bearerToken } from '../http/bearer.js';

export interface MetricsOptions {
  /** When set, `GET /metrics` answers only `Authorization: Bearer <token>`. */
  token?: string | undefined;
  /** The app serves in a worker of `varsetd serve`: /metrics answers for every worker, gathered by the primary. */
  inCluster?: boolean;
}

/** Path of the metrics, outside the API: it speaks Prometheus' text format, not JSON:API. */
export const METRICS_PATH = '/metrics';

/**
 * Counts every request the app answers and serves `GET /metrics` in Prometheus' text format.
 * Registered on the root instance, so its hook sees every route's requests and the 404s.
 */
export function registerMetrics(app: FastifyInstance, metrics: AppMetrics, options: MetricsOptions): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observe({
      route: request.routeOptions.url,
      method: request.method,
      status: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
    });
    done();
  });

  const allowed = options.token === undefined ? () => true : bearerMatcher(options.token);
  if (options.inCluster) {
    const stopAnswering = answerPrimary(metrics.registry);
    app.addHook('onClose', async () => stopAnswering());
  }

  app.get(
    METRICS_PATH,
    { config: { public: true }, schema: { hide: true } },
    async (request: FastifyRequest, reply: FastifyReply) => {
      if (!allowed(request.headers.authorization))
        return sendError(reply.header('WWW-Authenticate', 'Bearer'), unauthorized());
      const text = options.inCluster ? await metricsOfEveryWorker() : await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).send(text);
    },
  );
}

/** Whether an Authorization header bears `token`, compared in constant time (of digests, so the lengths never differ). */
function bearerMatcher(token: string): (header: string | undefined) => boolean {
  const expected = digest(token);
  return (header) => {
    const presented = bearerToken(header);
    return timingSafeEqual(digest(presented ?? ''), expected) && presented !== undefined;
  };
}

const digest = (text: string) => createHash('sha256').update(text).digest();
