/**
 * Queries per request: the same requests answered by an in-process varsetd on the same
 * database, whose Kysely handle counts every statement it runs (BEGIN/COMMIT aside), with a
 * response cache of the size the measured server has, once it knows the token.
 */
import { buildApp } from '../src/app.js';
import type { Store } from '../src/db/connect.js';
import { QueryCounter } from '../src/db/query-counter.js';

export interface CountedRequest {
  method: 'GET' | 'POST' | 'DELETE' | 'PATCH';
  url: string;
  body?: unknown;
}

export interface RequestQueries {
  /** Statements run to answer the request; its response must be a 2xx. */
  count(request: CountedRequest): Promise<{ queries: number; status: number; body: any }>;
  close(): Promise<void>;
}

export async function queryCounter(
  store: Store,
  authorization: string,
  responseCacheSize: number,
): Promise<RequestQueries> {
  const counter = new QueryCounter();
  const app = await buildApp({
    store: { ...store, db: store.db.withPlugin(counter) },
    publicUrl: 'http://127.0.0.1:1',
    logger: false,
    responseCacheSize,
  });
  await app.ready();
  // A token's first request in a process also loads its subject, and one a minute records its use:
  // a request just before each counted one does both, so counts are those of every other request.
  const knowToken = async () => {
    const known = await app.inject({ method: 'GET', url: '/api/v2/organizations', headers: { authorization } });
    if (known.statusCode !== 200)
      throw new Error(`GET /api/v2/organizations answered ${known.statusCode} in process: ${known.body.slice(0, 300)}`);
  };
  return {
    async count(request) {
      await knowToken();
      counter.count = 0;
      const res = await app.inject({
        method: request.method,
        url: request.url,
        headers: { authorization, 'content-type': 'application/vnd.api+json' },
        ...(request.body === undefined ? {} : { payload: JSON.stringify(request.body) }),
      });
      if (res.statusCode < 200 || res.statusCode > 299)
        throw new Error(
          `${request.method} ${request.url} answered ${res.statusCode} in process: ${res.body.slice(0, 300)}`,
        );
      return {
        queries: counter.count,
        status: res.statusCode,
        body: res.body === '' ? undefined : JSON.parse(res.body),
      };
    },
    close: () => app.close(),
  };
}
