import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { TestApp } from './support/app.js';
import { storeKind, withStoreMigratedTo } from './support/store.js';

/** `/healthz` and `/readyz` in one process, on either store; outages and draining: postgres-outage.test.ts, sqlite-outage.test.ts. */
describe(`health endpoints (${storeKind})`, () => {
  let t: TestApp;
  let uiRoot: string;

  before(async () => {
    // A built UI answers the paths of its pages with its index.html: it must not answer these.
    uiRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-ui-'));
    fs.writeFileSync(path.join(uiRoot, 'index.html'), '<!doctype html><title>ui</title>');
    t = await TestApp.start({ uiRoot });
  });

  after(async () => {
    await t.close();
    fs.rmSync(uiRoot, { recursive: true, force: true });
  });

  for (const route of ['/healthz', '/readyz']) {
    it(`${route} answers a small JSON body without a token, whatever token is sent, and is kept by no cache`, async () => {
      for (const authorization of [undefined, 'Bearer not-a-token']) {
        const res = await t.app.inject({ method: 'GET', url: route, headers: authorization ? { authorization } : {} });
        assert.equal(res.statusCode, 200, res.body);
        assert.match(String(res.headers['content-type']), /^application\/json/);
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.deepEqual(res.json(), { status: 'ok' });
      }
      const head = await t.app.inject({ method: 'HEAD', url: route });
      assert.equal(head.statusCode, 200);
    });
  }

  it('keeps them out of the OpenAPI document and out of /api/v2', async () => {
    const document = (await t.get('/api/v2/openapi.json')).body;
    assert.deepEqual(
      Object.keys(document.paths).filter((p) => /healthz|readyz/.test(p)),
      [],
    );
    assert.equal((await t.get('/api/v2/readyz')).status, 404);
  });

  it('is not ready on a store whose migrations are not those of this version', async () => {
    await withStoreMigratedTo('0001_core', async (store) => {
      const app = await buildApp({ store });
      try {
        const res = await app.inject({ method: 'GET', url: '/readyz' });
        assert.equal(res.statusCode, 503);
        assert.match(String(res.headers['retry-after']), /^\d+$/);
        assert.deepEqual(res.json(), { status: 'unavailable', checks: { migrations: 'mismatch' } });
        assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
      } finally {
        await app.close();
      }
    });
  });
});
