import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestApp } from './support/app.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';

/**
 * No query parameter is ever silently ignored: every /api/v2 route refuses one it does not
 * declare with a 400 naming it, and says which it supports.
 */
describe(`query parameters (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
  });
  after(async () => t.close());

  it('refuses an undeclared parameter with a 400 naming it on every route, before anything is done', async () => {
    const document = (await t.get('/api/v2/openapi.json', { token: null })).body;
    const routes: [string, string][] = [['GET', '/api/v2/openapi.json']];
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, unknown>>)) {
      if (!path.startsWith('/api/v2/')) continue;
      for (const method of Object.keys(item)) routes.push([method.toUpperCase(), path]);
    }
    assert.ok(routes.length > 60, `only ${routes.length} routes`);
    for (const [method, path] of routes) {
      // Path parameters name nothing that exists: the query is refused before any lookup.
      const url = `${path.replace(/\{[^}]+\}/g, 'x-missing')}?color=blue`;
      const res = await t.request(
        method,
        url,
        method === 'GET' || method === 'DELETE' ? {} : { body: { data: { type: 'x' } } },
      );
      assert.equal(res.status, 400, `${method} ${url}: ${JSON.stringify(res.body)}`);
      const [error] = res.body.errors;
      assert.equal(error.source.parameter, 'color', `${method} ${url}`);
      assert.match(
        error.detail,
        /^color is not a query parameter of this endpoint; it (supports .+|takes no query parameters)$/,
        `${method} ${url}`,
      );
    }
    // Nothing was created by any of those requests.
    assert.equal((await t.get(`/api/v2/organizations/${org}/workspaces`)).body.data.length, 0);
  });

  it('names the parameters an endpoint supports', async () => {
    const res = await t.get(`/api/v2/projects/prj-missing/varsets?sort=name`);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.errors[0], {
      status: '400',
      title: 'bad request',
      detail: 'sort is not a query parameter of this endpoint; it supports page[number], page[size], include, q',
      source: { parameter: 'sort' },
    });
    const none = await t.get('/api/v2/ping?page%5Bsize%5D=2');
    assert.equal(none.status, 400);
    assert.equal(
      none.body.errors[0].detail,
      'page[size] is not a query parameter of this endpoint; it takes no query parameters',
    );
  });

  it('keeps what go-tfe sends working: an empty include, percent-encoded page parameters', async () => {
    expectStatus(
      await t.get(`/api/v2/organizations/${org}/varsets?include=&page%5Bnumber%5D=1&page%5Bsize%5D=10`),
      200,
    );
    expectStatus(await t.get(`/api/v2/organizations/${org}/teams?include=&q=own`), 200);
  });

  it('refuses an include the endpoint cannot honour in the words go-tfe recognises', async () => {
    const workspace = await t.createWorkspace(org);
    for (const url of [
      `/api/v2/workspaces/${workspace}/runs?include=plan`,
      `/api/v2/workspaces/${workspace}/configuration-versions?include=run`,
    ]) {
      const res = await t.get(url);
      assert.equal(res.status, 400, url);
      assert.equal(res.body.errors[0].source.parameter, 'include');
      assert.match(res.body.errors[0].detail, /is not a valid include parameter of this endpoint; it supports /);
    }
  });
});
