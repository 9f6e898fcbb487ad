import http from 'node:http';
import https from 'node:https';
import type { FastifyServerFactory } from 'fastify';
import { HEADERS_LIMIT } from './limits.js';
import type { TlsCredentials } from './tls.js';

/** How long clients may take, in milliseconds. */
export interface Timeouts {
  /** To send a whole request, headers and body (408 after it). */
  requestMs: number;
  /** To send the request line and headers (408 after it). */
  headersMs: number;
  /** An idle keep-alive connection stays open this long. */
  keepAliveMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { requestMs: 60_000, headersMs: 10_000, keepAliveMs: 5_000 };

/**
 * The HTTP server, or the HTTPS one when given a certificate, with its timeouts. Node checks
 * them every `connectionsCheckingInterval` (30 s by default, so a slow client could hold a
 * connection far past its limit): here it checks every second, or more often when a timeout
 * is shorter. The TLS handshake, which comes before the headers, gets the headers' time too
 * (Node's default is 120 s).
 */
export function createServerFactory(timeouts: Timeouts = DEFAULT_TIMEOUTS, tls?: TlsCredentials): FastifyServerFactory {
  return (handler) => {
    const headersTimeout = Math.min(timeouts.headersMs, timeouts.requestMs);
    const options: http.ServerOptions = {
      requestTimeout: timeouts.requestMs,
      headersTimeout,
      maxHeaderSize: HEADERS_LIMIT,
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, timeouts.headersMs / 4)),
    };
    const server = tls
      ? https.createServer({ ...options, cert: tls.cert, key: tls.key, handshakeTimeout: headersTimeout }, handler)
      : http.createServer(options, handler);
    server.keepAliveTimeout = timeouts.keepAliveMs;
    return server;
  };
}
