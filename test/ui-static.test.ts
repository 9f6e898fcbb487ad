import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UI_PAGES } from '../src/ui/pages.js';
import { TestApp } from './support/app.js';
import { storeKind } from './support/store.js';

/**
 * How varsetd serves the web UI's files (src/ui/static.ts), on a folder shaped like Vite's
 * output: caching, security headers, the page fallback for client routes, and the API's own
 * 404s left alone. The built UI itself is tested in ui-browser.test.ts and ui-bundle.test.ts.
 */

const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';

function uiFolder(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-ui-'));
  fs.mkdirSync(path.join(root, 'assets'));
  fs.writeFileSync(path.join(root, 'index.html'), INDEX);
  fs.writeFileSync(path.join(root, 'assets', 'index-abc123.js'), 'console.log("ui")\n');
  return root;
}

describe(`serving the web UI (${storeKind})`, () => {
  let t: TestApp;
  let root: string;

  before(async () => {
    root = uiFolder();
    t = await TestApp.start({ uiRoot: root });
  });

  after(async () => {
    await t.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('serves index.html at / revalidated on every load, under a strict Content-Security-Policy', async () => {
    const res = await t.getRaw('/');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.equal(res.body, INDEX);
    assert.equal(res.headers['cache-control'], 'no-cache');
    const csp = String(res.headers['content-security-policy']);
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "frame-ancestors 'none'",
      "object-src 'none'",
      "base-uri 'none'",
    ]) {
      assert.ok(csp.split('; ').includes(directive), `CSP lacks ${directive}: ${csp}`);
    }
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['referrer-policy'], 'no-referrer');
    assert.equal(res.headers['x-frame-options'], 'DENY');
  });

  it('serves hashed assets as immutable for a year, and revalidates them by ETag', async () => {
    const res = await t.getRaw('/assets/index-abc123.js');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /javascript/);
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers.vary, 'Accept-Encoding');
    const again = await t.getRaw('/assets/index-abc123.js', { 'if-none-match': String(res.headers.etag) });
    assert.equal(again.statusCode, 304);
  });

  it('answers a client route with index.html, and a missing file with a 404', async () => {
    for (const url of ['/organizations/acme/varsets', '/varsets/varset-abc?x=1', '/workspaces/ws-1']) {
      const res = await t.getRaw(url);
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.body, INDEX, url);
      assert.equal(res.headers['cache-control'], 'no-cache', url);
      assert.match(String(res.headers['content-security-policy']), /default-src 'self'/, url);
    }
    const missing = await t.getRaw('/assets/index-gone.js');
    assert.equal(missing.statusCode, 404);
    assert.match(String(missing.headers['content-type']), /^application\/vnd\.api\+json/);
  });

  it('answers the page at the path of every page of the UI, and a 404 at any other unknown path', async () => {
    for (const page of UI_PAGES) {
      const url = page.replace(/:[a-z]+/g, 'acme');
      const res = await t.getRaw(url);
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.body, INDEX, url);
    }
    // A load balancer's check sent to a mistyped path must fail.
    for (const url of [
      '/health',
      '/status',
      '/metrics/x',
      '/healthz/more',
      '/organizations',
      '/varsets/varset-abc/nothing',
      '/organizations/acme/varsets/new/more',
    ]) {
      const res = await t.getRaw(url);
      assert.equal(res.statusCode, 404, url);
      assert.match(String(res.headers['content-type']), /^application\/vnd\.api\+json/, url);
      assert.deepEqual(JSON.parse(res.body), { errors: [{ status: '404', title: 'not found' }] }, url);
    }
  });

  it('leaves /api and /.well-known to the API: their unknown paths keep their JSON:API 404s', async () => {
    for (const url of ['/api/v2/no-such-thing', '/api/nothing', '/api/anything', '/api', '/.well-known/nothing']) {
      const res = await t.getRaw(url);
      assert.equal(res.statusCode, 404, url);
      assert.match(String(res.headers['content-type']), /^application\/vnd\.api\+json/, url);
      assert.deepEqual(JSON.parse(res.body), { errors: [{ status: '404', title: 'not found' }] }, url);
    }
    const ping = await t.app.inject({ method: 'GET', url: '/api/v2/ping' });
    assert.equal(ping.statusCode, 204);
    const discovery = await t.getRaw('/.well-known/terraform.json');
    assert.equal(discovery.statusCode, 200);
  });

  it('answers other methods on a page path as before: a JSON:API 404', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/organizations/acme/varsets',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    assert.equal(res.statusCode, 404);
    assert.match(String(res.headers['content-type']), /^application\/vnd\.api\+json/);
  });
});

describe(`a varsetd whose web UI was not built (${storeKind})`, () => {
  let t: TestApp;
  let empty: string;

  before(async () => {
    empty = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-no-ui-'));
    t = await TestApp.start({ uiRoot: empty });
  });

  after(async () => {
    await t.close();
    fs.rmSync(empty, { recursive: true, force: true });
  });

  it('still serves the API, and says at / how to build the UI', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/' });
    assert.equal(page.statusCode, 404);
    assert.match(String(page.headers['content-type']), /^text\/plain/);
    assert.match(page.body, /has not been built: run `npm run build`/);
    const organizations = await t.get('/api/v2/organizations');
    assert.equal(organizations.status, 200);
    for (const url of ['/api/v2/no-such-thing', '/health']) {
      const unknown = await t.app.inject({ method: 'GET', url });
      assert.equal(unknown.statusCode, 404, url);
      assert.match(String(unknown.headers['content-type']), /^application\/vnd\.api\+json/, url);
    }
  });
});
