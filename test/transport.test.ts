import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestApp } from './support/app.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';

describe(`transport (${storeKind})`, () => {
  let t: TestApp;
  before(async () => {
    t = await TestApp.start();
  });
  after(async () => t.close());

  it('answers ping without a token, with the API version headers', async () => {
    const res = await t.get('/api/v2/ping', { token: null });
    assert.equal(res.status, 204);
    assert.equal(res.headers['tfp-api-version'], '2.6');
    assert.equal(res.headers['tfp-appname'], 'varsetd');
  });

  it('serves service discovery without a token', async () => {
    const res = await t.get('/.well-known/terraform.json', { token: null });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { 'tfe.v2': '/api/v2/', 'tfe.v2.1': '/api/v2/', 'tfe.v2.2': '/api/v2/' });
  });

  it('refuses a missing, malformed or unknown token with 401', async () => {
    for (const token of [null, 'nope']) {
      const res = await t.get('/api/v2/organizations', { token });
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, { errors: [{ status: '401', title: 'unauthorized' }] });
    }
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v2/organizations',
      headers: { authorization: 'Basic abc' },
    });
    assert.equal(res.statusCode, 401);
  });

  it('answers JSON:API documents with the JSON:API media type', async () => {
    const res = await t.get('/api/v2/organizations');
    expectStatus(res, 200);
    assert.match(String(res.headers['content-type']), /^application\/vnd\.api\+json/);
  });

  it('answers an unknown path with a JSON:API 404', async () => {
    const res = await t.get('/api/v2/nothing-here');
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { errors: [{ status: '404', title: 'not found' }] });
  });

  it('accepts application/json as well as the JSON:API media type', async () => {
    const res = await t.post(
      '/api/v2/organizations',
      { data: { type: 'organizations', attributes: { name: 'json-org', email: 'a@example.com' } } },
      { contentType: 'application/json' },
    );
    expectStatus(res, 201);
  });

  it('refuses another content type with 415, malformed JSON with 400, an oversized body with 413', async () => {
    let res = await t.post('/api/v2/organizations', 'name=x', { contentType: 'text/plain' });
    assert.equal(res.status, 415);
    assert.equal(res.body.errors[0].status, '415');
    res = await t.post('/api/v2/organizations', '{"data":', {});
    assert.equal(res.status, 400);
    res = await t.post(
      '/api/v2/organizations',
      JSON.stringify({
        data: { type: 'organizations', attributes: { name: 'big', email: 'x'.repeat(6 * 1024 * 1024) } },
      }),
    );
    assert.equal(res.status, 413);
    const list = await t.get('/api/v2/organizations');
    assert.ok(!list.body.data.some((o: { id: string }) => o.id === 'big'));
  });

  it('answers 400 for a bad page parameter and 400 for a repeated one', async () => {
    for (const query of [
      'page%5Bnumber%5D=abc',
      'page%5Bsize%5D=0',
      'page%5Bsize%5D=101',
      'page%5Bnumber%5D=1&page%5Bnumber%5D=2',
    ]) {
      const res = await t.get(`/api/v2/organizations?${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.errors[0].status, '400');
    }
  });

  it('accepts an empty body with the JSON:API content type, and a body on DELETE', async () => {
    const org = await t.createOrganization();
    const res = await t.request('DELETE', `/api/v2/organizations/${org}`, { contentType: 'application/vnd.api+json' });
    assert.equal(res.status, 204);
    const org2 = await t.createOrganization();
    const res2 = await t.delete(`/api/v2/organizations/${org2}`, { data: [] });
    assert.equal(res2.status, 204);
  });
});
