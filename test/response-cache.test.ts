import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ResponseCache } from '../src/cache/response-cache.js';
import { TestApp } from './support/app.js';
import { createOrganization } from './support/factories/organizations.js';
import { createVarset } from './support/factories/varsets.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';

describe('response cache', () => {
  const renderer = () => {
    let renders = 0;
    return { render: async () => ({ n: ++renders }), count: () => renders };
  };

  it('renders once per key and version, and again when the version changes', async () => {
    const cache = new ResponseCache(1_000);
    const r = renderer();
    assert.equal(await cache.through('/a', 1, r.render), '{"n":1}');
    assert.equal(await cache.through('/a', 1, r.render), '{"n":1}');
    assert.equal(await cache.through('/a', 2, r.render), '{"n":2}');
    assert.equal(await cache.through('/a', 2, r.render), '{"n":2}');
    assert.equal(await cache.through('/b', 2, r.render), '{"n":3}');
    assert.equal(r.count(), 3);
  });

  it('keeps nothing without a version, or when its size is 0', async () => {
    const r = renderer();
    const cache = new ResponseCache(1_000);
    await cache.through('/a', undefined, r.render);
    await cache.through('/a', undefined, r.render);
    const none = new ResponseCache(0);
    await none.through('/a', 1, r.render);
    await none.through('/a', 1, r.render);
    assert.equal(r.count(), 4);
  });

  it('does not replace a newer rendering with an older one', async () => {
    const cache = new ResponseCache(1_000);
    const r = renderer();
    await cache.through('/a', 5, r.render);
    await cache.through('/a', 4, r.render);
    assert.equal(await cache.through('/a', 5, r.render), '{"n":1}');
  });

  it('drops the least recently used renderings beyond its size', async () => {
    // Each entry is a 2-character key and a 7-character body: three fit in 27.
    const cache = new ResponseCache(27);
    const r = renderer();
    for (const key of ['/a', '/b', '/c']) await cache.through(key, 1, r.render);
    await cache.through('/a', 1, r.render); // used again: /b is now the oldest
    await cache.through('/d', 1, r.render);
    assert.equal(r.count(), 4);
    await cache.through('/a', 1, r.render);
    await cache.through('/c', 1, r.render);
    await cache.through('/d', 1, r.render);
    assert.equal(r.count(), 4);
    await cache.through('/b', 1, r.render);
    assert.equal(r.count(), 5);
  });
});

/**
 * A set is read without its relationships when this process keeps a body of the request at the
 * set's version; should that body be gone by the time it is served, the set is read again whole.
 */
describe(`a set's response when the kept body is gone (${storeKind})`, () => {
  it('is rendered whole from a second read', async () => {
    // A cache that keeps nothing, but says it holds every response at the organization's current version.
    const t = await TestApp.start({ responseCacheSize: 0 });
    try {
      const org = await createOrganization(t);
      const set = await createVarset(t, org, {
        vars: [
          { key: 'region', value: 'eu' },
          { key: 'size', category: 'env' },
        ],
      });
      const url = `/api/v2/varsets/${set.id}?include=vars`;
      const whole = await t.get(url);
      expectStatus(whole, 200);
      assert.equal(whole.body.data.relationships.vars.data.length, 2);
      const { version } = await t.store.db
        .selectFrom('organization_versions')
        .innerJoin('organizations', 'organizations.id', 'organization_versions.organization_id')
        .select('organization_versions.version')
        .where('organizations.name', '=', org)
        .executeTakeFirstOrThrow();
      t.app.responses.versionHeld = () => Number(version);
      const again = await t.get(url);
      expectStatus(again, 200);
      assert.deepEqual(again.body, whole.body);
    } finally {
      await t.close();
    }
  });
});
