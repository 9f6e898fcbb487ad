import type { FastifyRequest } from 'fastify';
import type { Context } from '../auth/context.js';
import { unauthorized } from '../jsonapi/errors.js';

/** The context of an authenticated request's service calls. */
export function contextOf(request: FastifyRequest): Context {
  if (!request.subject) throw unauthorized();
  return {
    store: request.server.store,
    subject: request.subject,
    sealer: request.server.sealer,
    requestId: request.id,
    ...(request.credentialsUnconfirmed !== undefined ? { credentialsUnconfirmed: request.credentialsUnconfirmed } : {}),
  };
}
