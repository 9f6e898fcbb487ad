import http from 'node:http';
import type { FastifyServerFactory } from 'fastify';

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
 * The HTTP server, with its timeouts. Node checks them every `connectionsCheckingInterval`
 * (30 s by default, so a slow client could hold a connection far past its limit): here it
 * checks every second, or more often when a timeout is shorter.
 */
export function createServerFactory(timeouts: Timeouts = DEFAULT_TIMEOUTS): FastifyServerFactory {
  return (handler) => {
    const server = http.createServer(
      {
        requestTimeout: timeouts.requestMs,
        headersTimeout: Math.min(timeouts.headersMs, timeouts.requestMs),
        connectionsCheckingInterval: Math.max(100, Math.min(1_000, timeouts.headersMs / 4)),
      },
      handler,
    );
    server.keepAliveTimeout = timeouts.keepAliveMs;
    return server;
  };
}
