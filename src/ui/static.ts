import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIX } from '../common/api-prefix.js';
import { isUiPage } from './pages.js';

/** Where `npm run build` puts the web UI (ui/): dist/web, from src/ui/ as from dist/ui/. */
export const DEFAULT_UI_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'web');

/** The page may load only what varsetd serves, run no inline code and be framed by nobody. The API reference (src/api-docs) runs under it too. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/** File names under assets/ carry a hash of their content, so they never change. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Whether a request is for a page of the UI opened directly (one of its routes): anything else no route answered is a 404. */
function isPageRequest(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  return isUiPage(request.url.split('?')[0]!);
}

/**
 * Serves the web UI built into `root` at `/`: its files, and its index.html for the paths of its
 * pages (src/ui/pages.ts: the UI routes them in the browser). Returns the handler for requests no route answered:
 * a page of the UI, or `null` when the request is not one (the caller answers its 404).
 * When the UI has not been built, varsetd serves the API alone and says so.
 */
export async function serveUi(
  app: FastifyInstance,
  root: string,
): Promise<(request: FastifyRequest, reply: FastifyReply) => FastifyReply | null> {
  if (!existsSync(path.join(root, 'index.html'))) {
    app.log.warn({ folder: root }, 'the web UI has not been built (run npm run build): serving the API only');
    return (request, reply) => {
      if (!isPageRequest(request)) return null;
      return reply
        .code(404)
        .headers(SECURITY_HEADERS)
        .header('Cache-Control', 'no-cache')
        .type('text/plain; charset=utf-8')
        .send(
          `varsetd's web UI has not been built: run \`npm run build\`, then restart varsetd. The API is at ${API_PREFIX}.\n`,
        );
    };
  }
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    wildcard: false,
    index: ['index.html'],
    // The build writes .br and .gz copies of each asset beside it.
    preCompressed: true,
    cacheControl: false,
    etag: true,
    lastModified: true,
    setHeaders(res, filePath) {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
      const inAssets = path.relative(root, filePath).split(path.sep)[0] === 'assets';
      res.setHeader('Cache-Control', inAssets ? IMMUTABLE : 'no-cache');
      // The same path is sent brotli- or gzip-compressed or plain, as the request accepts.
      res.setHeader('Vary', 'Accept-Encoding');
    },
  });
  return (request, reply) => (isPageRequest(request) ? reply.sendFile('index.html') : null);
}
