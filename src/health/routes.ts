import type { FastifyInstance } from 'fastify';
import { RETRY_AFTER_SECONDS } from '../http/outage.js';
import type { Readiness } from './readiness.js';

/**
 * `GET /healthz` (liveness: the process answers; touches nothing else) and `GET /readyz`
 * (readiness: see `Readiness`). Outside /api/v2 and without a token, for load balancers and
 * orchestrators; their small JSON bodies name no version, host or error. Not in the OpenAPI
 * document: they are not part of the HCP Terraform API.
 */
export async function healthRoutes(app: FastifyInstance, options: { readiness: Readiness }): Promise<void> {
  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
    return reply.header('Cache-Control', 'no-store').type('application/json').send({ status: 'ok' });
  });
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const report = await options.readiness.check();
    reply.header('Cache-Control', 'no-store').type('application/json');
    if (report.ready) return reply.send({ status: 'ok' });
    return reply
      .code(503)
      .header('Retry-After', String(RETRY_AFTER_SECONDS))
      .send({ status: 'unavailable', checks: report.checks });
  });
}
