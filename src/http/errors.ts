import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isForeignKeyViolation, isStoreUnavailable, isUniqueViolation } from '../db/connect.js';
import { ConcurrentChangeError } from '../db/transaction.js';
import { NewerSchemaError } from '../db/schema-guard.js';
import { MEDIA_TYPE } from '../jsonapi/document.js';
import { ApiError, badRequest, conflict, newerSchema, notFound, serviceUnavailable } from '../jsonapi/errors.js';
import { validationError } from '../jsonapi/validation.js';
import { BODY_LIMIT, HEADERS_LIMIT } from './limits.js';
import { RETRY_AFTER_SECONDS } from './outage.js';
import { DomainError } from '../common/errors.js';
import { apiErrorOf } from './domain-errors.js';

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply.code(error.status).type(MEDIA_TYPE).send(error.toDocument());
}

/** The 503 of a request the store cannot serve now, or of a process that is shutting down. */
export function sendUnavailable(reply: FastifyReply): FastifyReply {
  return sendError(reply.header('Retry-After', String(RETRY_AFTER_SECONDS)), serviceUnavailable());
}

/**
 * Translates every error into a JSON:API error document; only an unexpected failure is a 500,
 * and it never shows internals. A store that cannot serve (down, read-only, too slow) is a 503,
 * logged once per outage (`StoreOutage`).
 */
export function handleError(
  error: FastifyError | ApiError | DomainError | ConcurrentChangeError | NewerSchemaError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (error instanceof ApiError) return sendError(reply, error);
  if (error instanceof DomainError) return sendError(reply, apiErrorOf(error, request.routeOptions.config.fields));
  if (error instanceof NewerSchemaError) {
    request.log.warn({ schema: error.schema }, 'write refused: the store has a schema this varsetd does not know');
    return sendError(reply.header('Retry-After', String(RETRY_AFTER_SECONDS)), newerSchema());
  }
  if (isStoreUnavailable(error)) {
    request.server.outage.refused(error, Date.now() - reply.elapsedTime);
    return sendUnavailable(reply);
  }
  if (error instanceof ConcurrentChangeError || isUniqueViolation(error) || isForeignKeyViolation(error)) {
    // A concurrent change broke a unique index or a foreign key after the request's checks
    // passed (twice, for a write run by `transaction`): not bad input, and a retry sees the new state.
    request.log.warn({ code: (error as { code?: unknown }).code }, 'request lost a race with a concurrent change');
    return sendError(reply, conflict('the request conflicts with a concurrent change; try again'));
  }
  if (error.validation) return sendError(reply, validationError(error.validation, error.validationContext));
  const status = error.statusCode ?? 500;
  if (status === 415) {
    return sendError(
      reply,
      new ApiError(415, [
        { status: '415', title: 'unsupported media type', detail: `send the request body as ${MEDIA_TYPE}` },
      ]),
    );
  }
  if (status === 413) {
    return sendError(
      reply,
      new ApiError(413, [
        { status: '413', title: 'payload too large', detail: `the request body may be at most ${BODY_LIMIT} bytes` },
      ]),
    );
  }
  if (status >= 400 && status < 500) {
    return sendError(
      reply,
      new ApiError(status, [{ status: String(status), title: 'bad request', detail: error.message }]),
    );
  }
  request.log.error({ err: error }, 'request failed');
  return sendError(reply, new ApiError(500, [{ status: '500', title: 'internal server error' }]));
}

/**
 * What the router refuses before any route runs: a path that is not valid percent-encoded
 * UTF-8 (400), or a path segment longer than any id or name (404: nothing is named by it).
 */
export function handleFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendError(reply, notFound());
  if (error.code === 'FST_ERR_BAD_URL')
    return sendError(reply, badRequest('the URL is not valid percent-encoded UTF-8'));
  return sendError(reply, new ApiError(400, [{ status: '400', title: 'bad request', detail: error.message }]));
}

/**
 * What Node's HTTP parser refuses before Fastify sees a request: a request that took longer
 * than the timeouts allow (408), headers or a URL larger than Node accepts (431), anything
 * malformed (400). Answered as JSON:API documents, then the connection is closed.
 */
export function handleClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, detail] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'the request was not received in time']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, `the request line and headers may be at most ${HEADERS_LIMIT / 1024} KiB`]
        : [400, 'the request is not valid HTTP'];
  const body = JSON.stringify(
    new ApiError(status, [
      { status: String(status), title: http.STATUS_CODES[status]!.toLowerCase(), detail },
    ]).toDocument(),
  );
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: ${MEDIA_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
