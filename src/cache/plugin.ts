import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { VersionedRead } from '../common/versioned-read.js';
import type { ResponseCache } from './response-cache.js';

/** A route's read: told the version of the body kept for the request, if any, it reads the version and decides the caller's permission. */
type Start<T> = (versionHeld: number | undefined) => Promise<VersionedRead<T>>;

declare module 'fastify' {
  interface FastifyInstance {
    responses: ResponseCache;
  }
  interface FastifyReply {
    /**
     * Sends the body kept for the request's path and query (and `variant`, what else the body
     * depends on) at the version `start` reads, or renders what the read returns through the
     * route's response schema, keeps it and sends it.
     */
    sendCached<T>(variant: string, start: Start<T>, render: (value: T) => unknown): Promise<FastifyReply>;
  }
}

function sendCachedFrom(cache: ResponseCache) {
  return async function sendCached<T>(
    this: FastifyReply,
    variant: string,
    start: Start<T>,
    render: (value: T) => unknown,
  ): Promise<FastifyReply> {
    const key = `${this.request.url}\n${variant}`;
    const versioned = await start(cache.versionHeld(key));
    const serialize = (document: unknown) => this.serialize(document) as string;
    const body = await cache.through(key, versioned.version, async () => render(await versioned.read()), serialize);
    // Already serialized through the route's response schema: sent as it is.
    return this.send(body);
  };
}

/** Keeps the rendered bodies of versioned reads in `cache` and serves them (`reply.sendCached`). */
export const responseCache: FastifyPluginAsync<{ cache: ResponseCache }> = async (app, { cache }) => {
  app.decorate('responses', cache);
  app.decorateReply('sendCached', sendCachedFrom(cache));
};
// Not encapsulated: its decorators serve every route of the app (what fastify-plugin marks a plugin with).
Object.assign(responseCache, { [Symbol.for('skip-override')]: true });
