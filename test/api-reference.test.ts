import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TestApp } from './support/app.js';
import { storeKind } from './support/store.js';

/**
 * The interactive API reference at /api/docs (src/api-docs): a page and its assets, served by
 * varsetd itself without a token and under a strict Content-Security-Policy, that renders the
 * OpenAPI document. That it renders in a browser is tested in ui-browser.test.ts.
 */

const DOCUMENT_URL = '/api/v2/openapi.json';

/** Every source a directive allows is varsetd itself (or a data: image): no remote origin, no eval, no inline code. */
function assertStrictPolicy(csp: string, url: string): void {
  const directives = new Map(
    csp.split('; ').map((directive) => {
      const [name, ...sources] = directive.split(' ');
      return [name!, sources] as const;
    }),
  );
  for (const name of ['default-src', 'script-src', 'style-src', 'connect-src', 'font-src'])
    assert.deepEqual(directives.get(name), ["'self'"], `${url}: ${name} in ${csp}`);
  assert.deepEqual(directives.get('object-src'), ["'none'"], `${url}: ${csp}`);
  assert.deepEqual(directives.get('base-uri'), ["'none'"], `${url}: ${csp}`);
  assert.deepEqual(directives.get('frame-ancestors'), ["'none'"], `${url}: ${csp}`);
  for (const sources of directives.values()) {
    for (const source of sources)
      assert.ok(["'self'", "'none'", 'data:'].includes(source), `${url}: ${source} in ${csp}`);
  }
}

describe(`the API reference at /api/docs (${storeKind})`, () => {
  let t: TestApp;
  let uiRoot: string;

  before(async () => {
    uiRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-ui-'));
    fs.writeFileSync(path.join(uiRoot, 'index.html'), '<!doctype html><title>ui</title>');
    t = await TestApp.start({ uiRoot });
  });

  after(async () => {
    await t.close();
    fs.rmSync(uiRoot, { recursive: true, force: true });
  });

  it('answers without a token an HTML page that names the OpenAPI document, under a strict Content-Security-Policy', async () => {
    for (const url of ['/api/docs', '/api/docs/']) {
      const res = await t.getRaw(url);
      assert.equal(res.statusCode, 200, url);
      assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/, url);
      assertStrictPolicy(String(res.headers['content-security-policy']), url);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['x-frame-options'], 'DENY');
      assert.equal(res.headers['cache-control'], 'no-cache');
      assert.ok(res.body.includes(`data-document="${DOCUMENT_URL}"`), res.body);
      assert.doesNotMatch(
        res.body,
        /<script>|<style|style=|https?:\/\//,
        'the page has inline code or names another origin',
      );
    }
    const document = await t.getRaw(DOCUMENT_URL);
    assert.equal(document.statusCode, 200);
    assert.equal(JSON.parse(document.body).info.title, 'varsetd');
  });

  it("serves each script and style sheet the page loads, from varsetd, with its type and the page's headers", async () => {
    const page = (await t.getRaw('/api/docs')).body;
    // The icon is an empty data: URL, so that the browser asks for no favicon: it is no asset.
    const assets = [...page.matchAll(/(?:src|href)="([^"]+)"/g)]
      .map((match) => match[1]!)
      .filter((url) => url !== 'data:,');
    assert.deepEqual(assets.map((asset) => path.extname(asset)).sort(), ['.css', '.js', '.js']);
    for (const asset of assets) {
      assert.match(asset, /^\/api\/docs\/assets\//);
      const res = await t.getRaw(asset);
      assert.equal(res.statusCode, 200, asset);
      assert.match(
        String(res.headers['content-type']),
        asset.endsWith('.css') ? /^text\/css/ : /^(text|application)\/javascript/,
        asset,
      );
      assert.ok(res.body.length > 100, asset);
      assertStrictPolicy(String(res.headers['content-security-policy']), asset);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', asset);
      if (asset.includes('/swagger-ui')) {
        const again = await t.getRaw(asset, { 'if-none-match': String(res.headers.etag) });
        assert.equal(again.statusCode, 304, `${asset} is revalidated by ETag`);
      }
    }
  });

  it("serves none of the renderer package's other files, and keeps /api's JSON:API 404s", async () => {
    for (const url of [
      '/api/docs/assets/index.html',
      '/api/docs/assets/swagger-initializer.js',
      '/api/docs/assets/package.json',
      '/api/docs/assets/../package.json',
      '/api/docs/nothing',
    ]) {
      const res = await t.getRaw(url);
      assert.equal(res.statusCode, 404, url);
      assert.match(String(res.headers['content-type']), /^application\/vnd\.api\+json/, url);
    }
  });

  it('leaves the web UI its pages, and is no operation of the OpenAPI document', async () => {
    const uiPage = await t.getRaw('/organizations/acme/varsets');
    assert.equal(uiPage.statusCode, 200);
    assert.match(uiPage.body, /<title>ui<\/title>/);
    const paths = Object.keys(JSON.parse((await t.getRaw(DOCUMENT_URL)).body).paths);
    assert.ok(paths.length > 10);
    assert.deepEqual(
      paths.filter((p) => p.includes('/docs') || (!p.startsWith('/api/v2/') && p !== '/.well-known/terraform.json')),
      [],
    );
  });
});
