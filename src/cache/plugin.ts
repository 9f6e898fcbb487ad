import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { VersionedRead } from '../common/versioned-read.js';
import type { ResponseCache } from './response-cache.js';

declare module 'fastify' {
  interface FastifyInstance {
    responses: ResponseCache;
  }
  interface FastifyReply {
    /**
     * Sends the body kept for the request's path and query (and `variant`, what else the
     * body depends on) at the version `start` reads, or renders `read()` through the route's
     * response schema and keeps it. `start` is told the version of the body kept, if any.
     */
    sendCached<T>(variant: string, start: (versionHeld: number | undefined) => Promise<VersionedRead<T>>, render: (value: T) => unknown): Promise<FastifyReply>;
  }
}

/** Keeps the rendered bodies of versioned reads in `cache` and serves them (`reply.sendCached`), for every route of the app. */
export const responseCache: FastifyPluginAsync<{ cache: ResponseCache }> = async (app, { cache }) => {
  app.decorate('responses', cache);
  app.decorateReply('sendCached', async function <
    T,
  >(this: FastifyReply, variant: string, start: (versionHeld: number | undefined) => Promise<VersionedRead<T>>, render: (value: T) => unknown) {
    const key = `${this.request.url}\n${variant}`;
    const versioned = await start(cache.versionHeld(key));
    const body = await cache.through(
      key,
      versioned.version,
      async () => render(await versioned.read()),
      (document) => this.serialize(document) as string,
    );
    // Already serialized through the route's response schema: sent as it is.
    return this.send(body);
  });
};
// Not encapsulated: the decorators serve the whole app (what fastify-plugin would mark).
Object.assign(responseCache, { [Symbol.for('skip-override')]: true });
