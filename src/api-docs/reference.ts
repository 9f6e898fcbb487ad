import path from 'node:path';
import { createRequire } from 'node:module';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { SECURITY_HEADERS } from '../ui/static.js';

/** Where the reference lives; its assets are under `${API_REFERENCE_PATH}/assets/`. */
export const API_REFERENCE_PATH = '/api/docs';

/** Swagger UI's prebuilt files, shipped in the swagger-ui-dist package and served from node_modules. */
const SWAGGER_UI_ROOT = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** Of the package's files, only these two are served: its sample index.html and initializer point at a remote document. */
const SWAGGER_UI_FILES = new Set(['/swagger-ui-bundle.js', '/swagger-ui.css']);

const ASSETS = `${API_REFERENCE_PATH}/assets`;

function page(documentUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>varsetd API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSETS}/swagger-ui.css">
</head>
<body>
<div id="reference" data-document="${documentUrl}"></div>
<script src="${ASSETS}/swagger-ui-bundle.js"></script>
<script src="${ASSETS}/reference.js"></script>
</body>
</html>
`;
}

/**
 * Renders the document the page names, and no other: no top bar to open another, none taken from
 * the query string, and no validator (Swagger UI would send the document to a public one).
 */
const START = `'use strict';
const root = document.getElementById('reference');
window.ui = SwaggerUIBundle({
  domNode: root,
  url: root.dataset.document,
  validatorUrl: null,
  queryConfigEnabled: false,
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

/**
 * An interactive reference of the OpenAPI document at `documentUrl`, rendered by Swagger UI, at
 * /api/docs. Like the document it needs no token, and it loads nothing but what varsetd serves,
 * under the web UI's Content-Security-Policy. Its routes are hidden from the document.
 */
export async function apiReference(app: FastifyInstance, options: { documentUrl: string }): Promise<void> {
  const html = page(options.documentUrl);
  const headers = { ...SECURITY_HEADERS, 'Cache-Control': 'no-cache' };

  app.get(API_REFERENCE_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.headers(headers).type('text/html; charset=utf-8').send(html),
  );
  app.get(`${ASSETS}/reference.js`, { schema: { hide: true } }, async (_request, reply) =>
    reply.headers(headers).type('text/javascript; charset=utf-8').send(START),
  );
  await app.register(fastifyStatic, {
    root: SWAGGER_UI_ROOT,
    prefix: `${ASSETS}/`,
    decorateReply: false,
    index: false,
    allowedPath: (pathname) => SWAGGER_UI_FILES.has(pathname),
    // The package's file names do not change between versions: revalidate by ETag.
    cacheControl: false,
    etag: true,
    lastModified: true,
    setHeaders(res) {
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    },
  });
}
