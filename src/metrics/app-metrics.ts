import type { FastifyReply } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolUse } from '../db/connect.js';
import type { ResponseCache } from '../cache/response-cache.js';
import { processRegistry } from './process-metrics.js';

/** Label of a request no route matched (a 404, or a page of the web UI). */
export const UNMATCHED_ROUTE = 'unmatched';

/** Methods named as they are in labels; any other becomes `other`, so a client cannot add series by inventing methods. */
export const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** From 1 ms to 5 s: most requests take a few milliseconds, and a client gives up long before the last bucket. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export interface AnsweredRequest {
  /** The pattern of the route that answered (`/api/v2/varsets/:varset_id`), never the URL; undefined when none matched. */
  route: string | undefined;
  method: string;
  status: number;
  seconds: number;
}

/** The metrics of one app (its requests, its response cache, its store's pool) with those of its process. */
export class AppMetrics {
  readonly registry: Registry;
  private readonly requests: Counter<'route' | 'method' | 'status'>;
  private readonly latency: Histogram<'route' | 'method'>;
  private readonly authFailures: Counter;

  constructor(sources: { responses: ResponseCache; poolUse: (() => PoolUse) | undefined }) {
    const own = new Registry();
    const registers = [own];
    this.requests = new Counter({
      name: 'varsetd_http_requests_total',
      help: 'Requests answered, by route pattern, method and status code.',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.latency = new Histogram({
      name: 'varsetd_http_request_duration_seconds',
      help: 'Time from receiving a request to sending its response, by route pattern and method.',
      labelNames: ['route', 'method'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.authFailures = new Counter({
      name: 'varsetd_auth_failures_total',
      help: 'Requests refused with 401: a missing, unknown, expired or wrong bearer token.',
      registers,
    });

    const { outcomes } = sources.responses;
    new Counter({
      name: 'varsetd_response_cache_requests_total',
      help: 'Variable-set reads through the response cache: hit (a kept body served), miss (rendered and kept), uncacheable (rendered for this caller alone).',
      labelNames: ['result'],
      registers,
      collect() {
        this.reset();
        for (const result of ['hit', 'miss', 'uncacheable'] as const) this.inc({ result }, outcomes[result]);
      },
    });
    new Gauge({
      name: 'varsetd_response_cache_entries',
      help: 'Rendered responses the response cache holds.',
      registers,
      collect() {
        this.set(sources.responses.held.entries);
      },
    });
    new Gauge({
      name: 'varsetd_response_cache_characters',
      help: 'Characters the kept responses and their keys hold; VARSETD_RESPONSE_CACHE_MB Mi of them at most.',
      registers,
      collect() {
        this.set(sources.responses.held.characters);
      },
    });

    const poolUse = sources.poolUse;
    if (poolUse) {
      const gauge = (name: string, help: string, read: (use: PoolUse) => number) =>
        new Gauge({
          name,
          help,
          registers,
          collect() {
            this.set(read(poolUse()));
          },
        });
      gauge(
        'varsetd_db_pool_clients',
        'PostgreSQL connection pool: clients connected to the server, busy or idle.',
        (use) => use.total,
      );
      gauge(
        'varsetd_db_pool_idle_clients',
        'PostgreSQL connection pool: connected clients not running a statement.',
        (use) => use.idle,
      );
      gauge(
        'varsetd_db_pool_waiting_requests',
        'PostgreSQL connection pool: requests for a client waiting because every client is busy and the pool is full.',
        (use) => use.waiting,
      );
      gauge('varsetd_db_pool_max_clients', 'PostgreSQL connection pool: the most clients it opens.', (use) => use.max);
    }
    this.registry = Registry.merge([processRegistry(), own]);
  }

  /** A request the router refused before matching any route (a path that is not valid UTF-8, a segment longer than any name). */
  observeRefused(reply: FastifyReply): FastifyReply {
    this.observe({
      route: undefined,
      method: reply.request.method,
      status: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
    });
    return reply;
  }

  observe(request: AnsweredRequest): void {
    const route = request.route ?? UNMATCHED_ROUTE;
    const method = METHODS.has(request.method) ? request.method : 'other';
    this.requests.inc({ route, method, status: String(request.status) });
    this.latency.observe({ route, method }, request.seconds);
    if (request.status === 401) this.authFailures.inc();
  }
}
