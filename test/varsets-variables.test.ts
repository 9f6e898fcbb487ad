import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestApp } from './support/app.js';
import {
  createVar,
  createVarset,
  expectRejected,
  postVar,
  varResource,
  varsPath,
} from './support/factories/varsets.js';
import { expectStatus, errorOf } from './support/requests.js';
import { storeKind } from './support/store.js';

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe(`variables of a set (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
  });
  after(async () => t.close());

  it('adds a variable with defaults: 200 with every attribute, the varset relationship and a self link', async () => {
    const set = await createVarset(t, org);
    const res = await t.post(varsPath(set.id), {
      data: { type: 'vars', attributes: { key: 'region', category: 'terraform' } },
    });
    expectStatus(res, 200);
    const v = res.body.data;
    assert.match(v.id, /^var-[A-Za-z0-9]{16}$/);
    assert.equal(v.type, 'vars');
    const { 'created-at': createdAt, 'version-id': versionId, ...attributes } = v.attributes;
    assert.match(createdAt, TIMESTAMP);
    assert.ok(typeof versionId === 'string' && versionId.length > 0);
    assert.deepEqual(attributes, {
      key: 'region',
      value: '',
      description: '',
      category: 'terraform',
      hcl: false,
      sensitive: false,
    });
    assert.deepEqual(v.relationships, {
      varset: { data: { id: set.id, type: 'varsets' }, links: { related: `/api/v2/varsets/${set.id}` } },
    });
    assert.deepEqual(v.links, { self: `/api/v2/vars/${v.id}` });
  });

  it('stores every attribute given', async () => {
    const set = await createVarset(t, org);
    const v = await createVar(t, set.id, {
      key: 'AWS_REGION',
      value: 'eu-west-1',
      category: 'env',
      description: 'where',
      hcl: true,
    });
    assert.deepEqual(
      [v.attributes.key, v.attributes.value, v.attributes.category, v.attributes.description, v.attributes.hcl],
      ['AWS_REGION', 'eu-west-1', 'env', 'where', true],
    );
  });

  it('takes keys as clients send them (UUIDs, hyphens, dots), up to 128 characters', async () => {
    const set = await createVarset(t, org);
    for (const key of ['4f1c2a9e-1b7d-4c1e-9e0f-2a3b4c5d6e7f', 'vTest1', 'a.b-c', 'k'.repeat(128), 'ключ']) {
      await createVar(t, set.id, { key });
    }
  });

  it('enforces the limits: key 128 characters, description 512, value 256 KiB', async () => {
    const set = await createVarset(t, org);
    await createVar(t, set.id, { key: 'limits-ok', description: 'd'.repeat(512), value: 'v'.repeat(256 * 1024) });
    const cases: [Record<string, unknown>, string][] = [
      [{ key: 'k'.repeat(129) }, 'key'],
      [{ key: 'long-description', description: 'd'.repeat(516) }, 'description'],
      [{ key: 'long-value', value: 'v'.repeat(256 * 1024 + 1) }, 'value'],
      [{ key: 'long-multibyte-value', value: 'é'.repeat(128 * 1024 + 1) }, 'value'],
    ];
    for (const [attributes, name] of cases) {
      const res = await expectRejected(t, org, 422, () => postVar(t, set.id, attributes));
      assert.equal(errorOf(res).source?.pointer, `/data/attributes/${name}`);
      assert.match(errorOf(res).detail!, /too long/);
    }
  });

  it('refuses a missing or bad key or category, wrong types and a wrong data.type with 422', async () => {
    const set = await createVarset(t, org);
    const cases: [unknown, string][] = [
      [{ data: { type: 'vars', attributes: { category: 'env' } } }, '/data/attributes/key'],
      [{ data: { type: 'vars', attributes: { key: '', category: 'env' } } }, '/data/attributes/key'],
      [{ data: { type: 'vars', attributes: { key: 'has space', category: 'env' } } }, '/data/attributes/key'],
      [{ data: { type: 'vars', attributes: { key: 'a=b', category: 'env' } } }, '/data/attributes/key'],
      [{ data: { type: 'vars', attributes: { key: 'tab\t', category: 'env' } } }, '/data/attributes/key'],
      [{ data: { type: 'vars', attributes: { key: 'k' } } }, '/data/attributes/category'],
      [{ data: { type: 'vars', attributes: { key: 'k', category: 'policy-set' } } }, '/data/attributes/category'],
      [{ data: { type: 'vars', attributes: { key: 7, category: 'env' } } }, '/data/attributes/key'],
      [{ data: { type: 'vars', attributes: { key: 'k', category: 'env', value: 42 } } }, '/data/attributes/value'],
      [{ data: { type: 'vars', attributes: { key: 'k', category: 'env', hcl: 'false' } } }, '/data/attributes/hcl'],
      [
        { data: { type: 'vars', attributes: { key: 'k', category: 'env', sensitive: 0 } } },
        '/data/attributes/sensitive',
      ],
      [
        { data: { type: 'vars', attributes: { key: 'k', category: 'env', description: false } } },
        '/data/attributes/description',
      ],
      [{ data: { type: 'varsets', attributes: { key: 'k', category: 'env' } } }, '/data/type'],
      [{ data: [] }, '/data'],
      [{}, '/data'],
    ];
    for (const [body, pointer] of cases) {
      const res = await expectRejected(t, org, 422, () => t.post(varsPath(set.id), body));
      assert.equal(errorOf(res).source?.pointer, pointer, JSON.stringify(body));
    }
  });

  it('answers 404 when the set does not exist', async () => {
    assert.equal((await postVar(t, 'varset-nonexisting', { key: 'k' })).status, 404);
    assert.equal((await t.get(varsPath('varset-nonexisting'))).status, 404);
  });

  it('refuses a second variable with the same key and category, not one of another category', async () => {
    const set = await createVarset(t, org);
    await createVar(t, set.id, { key: 'dup', category: 'env' });
    const res = await expectRejected(t, org, 422, () => postVar(t, set.id, { key: 'dup', category: 'env' }));
    assert.equal(errorOf(res).detail, 'Key has already been taken');
    assert.equal(errorOf(res).source?.pointer, '/data/attributes/key');
    await createVar(t, set.id, { key: 'dup', category: 'terraform' });
    await createVar(t, set.id, { key: 'DUP', category: 'env' });
    const other = await createVarset(t, org);
    await createVar(t, other.id, { key: 'dup', category: 'env' });
  });

  it('shows a variable exactly as created; 404 for an unknown one or one of another set', async () => {
    const set = await createVarset(t, org);
    const other = await createVarset(t, org);
    const v = await createVar(t, set.id, { key: 'shown', value: 'x' });
    const res = await t.get(varsPath(set.id, v.id));
    expectStatus(res, 200);
    assert.deepEqual(res.body, { data: v });
    assert.equal((await t.get(varsPath(set.id, 'nonexisting'))).status, 404);
    assert.equal((await t.get(varsPath(other.id, v.id))).status, 404);
    assert.equal((await t.patch(varsPath(other.id, v.id), { data: varResource({ value: 'y' }) })).status, 404);
    assert.equal((await t.delete(varsPath(other.id, v.id))).status, 404);
  });

  it('lists the variables as created, by key, with links and pagination', async () => {
    const set = await createVarset(t, org);
    const created = [];
    for (const key of ['c', 'a', 'B', 'b']) created.push(await createVar(t, set.id, { key, value: key }));
    const res = await t.get(varsPath(set.id));
    expectStatus(res, 200);
    assert.deepEqual(
      res.body.data.map((v: any) => v.attributes.key),
      ['B', 'a', 'b', 'c'],
    );
    for (const v of created)
      assert.deepEqual(
        res.body.data.find((l: any) => l.id === v.id),
        v,
      );
    assert.deepEqual(res.body.meta.pagination, {
      'current-page': 1,
      'page-size': 20,
      'prev-page': null,
      'next-page': null,
      'total-pages': 1,
      'total-count': 4,
    });
    const page = await t.get(`${varsPath(set.id)}?page%5Bnumber%5D=2&page%5Bsize%5D=3`);
    assert.deepEqual(
      page.body.data.map((v: any) => v.attributes.key),
      ['c'],
    );
    assert.deepEqual(page.body.links, {
      self: `${varsPath(set.id)}?page%5Bnumber%5D=2&page%5Bsize%5D=3`,
      first: `${varsPath(set.id)}?page%5Bnumber%5D=1&page%5Bsize%5D=3`,
      prev: `${varsPath(set.id)}?page%5Bnumber%5D=1&page%5Bsize%5D=3`,
      next: null,
      last: `${varsPath(set.id)}?page%5Bnumber%5D=2&page%5Bsize%5D=3`,
    });
    const past = await t.get(`${varsPath(set.id)}?page%5Bnumber%5D=5`);
    assert.deepEqual(past.body.data, []);
    assert.equal(past.body.meta.pagination['current-page'], 5);
    assert.equal(past.body.meta.pagination['total-count'], 4);
    const empty = await t.get(varsPath((await createVarset(t, org)).id));
    assert.deepEqual(empty.body.data, []);
    assert.equal(empty.body.meta.pagination['total-pages'], 1);
  });

  it('updates the attributes given, with a fresh version-id every time, even for no change', async () => {
    const set = await createVarset(t, org);
    const v = await createVar(t, set.id, { key: 'orig', value: 'one', description: 'd' });
    const res = await t.patch(varsPath(set.id, v.id), {
      data: { type: 'vars', attributes: { key: 'newname', value: 'newvalue', hcl: true } },
    });
    expectStatus(res, 200);
    const updated = res.body.data;
    assert.deepEqual(
      [
        updated.attributes.key,
        updated.attributes.value,
        updated.attributes.hcl,
        updated.attributes.description,
        updated.attributes.category,
      ],
      ['newname', 'newvalue', true, 'd', 'terraform'],
    );
    assert.notEqual(updated.attributes['version-id'], v.attributes['version-id']);
    assert.equal(updated.attributes['created-at'], v.attributes['created-at']);
    const same = await t.patch(varsPath(set.id, v.id), {
      data: {
        type: 'vars',
        attributes: { key: 'newname', value: 'newvalue', description: 'd', hcl: true, sensitive: false },
      },
    });
    expectStatus(same, 200);
    assert.notEqual(same.body.data.attributes['version-id'], updated.attributes['version-id']);
    const { 'version-id': _a, ...sameRest } = same.body.data.attributes;
    const { 'version-id': _b, ...updatedRest } = updated.attributes;
    assert.deepEqual(sameRest, updatedRest);
    const shown = await t.get(varsPath(set.id, v.id));
    assert.deepEqual(shown.body.data, same.body.data, 'reading does not change the version');
    const recategorized = await t.patch(varsPath(set.id, v.id), {
      data: { type: 'vars', attributes: { category: 'env' } },
    });
    assert.equal(recategorized.body.data.attributes.category, 'env');
  });

  it('refuses an update to a taken key, bad attributes, a wrong type, changing nothing; 404 for an unknown variable', async () => {
    const set = await createVarset(t, org);
    await createVar(t, set.id, { key: 'taken', category: 'env' });
    const v = await createVar(t, set.id, { key: 'mine', category: 'env' });
    const taken = await expectRejected(t, org, 422, () =>
      t.patch(varsPath(set.id, v.id), { data: varResource({ key: 'taken', category: 'env' }) }),
    );
    assert.equal(errorOf(taken).detail, 'Key has already been taken');
    for (const attributes of [
      { key: '' },
      { category: 'nope' },
      { description: 'd'.repeat(513) },
      { hcl: 'yes' },
      { value: {} },
    ]) {
      await expectRejected(t, org, 422, () => t.patch(varsPath(set.id, v.id), { data: { type: 'vars', attributes } }));
    }
    await expectRejected(t, org, 422, () =>
      t.patch(varsPath(set.id, v.id), { data: { type: 'varsets', attributes: { value: 'x' } } }),
    );
    await expectRejected(t, org, 404, () =>
      t.patch(varsPath(set.id, 'nonexisting'), { data: varResource({ value: 'x' }) }),
    );
    // Moving to the other category, where the key is free, is fine.
    expectStatus(
      await t.patch(varsPath(set.id, v.id), {
        data: { type: 'vars', attributes: { key: 'taken', category: 'terraform' } },
      }),
      200,
    );
  });

  describe('sensitive variables', () => {
    it('never return their value: add, show, list, update, and the set with include=vars', async () => {
      const set = await createVarset(t, org);
      const v = await createVar(t, set.id, { key: 'secret', value: 'hunter2', sensitive: true });
      assert.equal(v.attributes.value, null);
      assert.equal(v.attributes.sensitive, true);
      assert.equal((await t.get(varsPath(set.id, v.id))).body.data.attributes.value, null);
      assert.equal((await t.get(varsPath(set.id))).body.data[0].attributes.value, null);
      const updated = await t.patch(varsPath(set.id, v.id), {
        data: { type: 'vars', attributes: { value: 'new-secret' } },
      });
      expectStatus(updated, 200);
      assert.equal(updated.body.data.attributes.value, null);
      const included = await t.get(`/api/v2/varsets/${set.id}?include=vars`);
      assert.equal(included.body.included[0].attributes.value, null);
      const withVars = await t.patch(`/api/v2/varsets/${set.id}`, { data: { type: 'varsets', attributes: {} } });
      assert.equal(withVars.body.data.relationships.vars.data[0].attributes.value, null);
      const listed = await t.get(`/api/v2/organizations/${org}/varsets?include=vars&page%5Bsize%5D=100`);
      for (const res of [included, withVars, updated, listed]) {
        assert.ok(!/hunter2|new-secret/.test(JSON.stringify(res.body)), 'no response carries a sensitive value');
      }
    });

    it('cannot become non-sensitive, nor change key or hcl; the same key and hcl may be sent again', async () => {
      const set = await createVarset(t, org);
      const v = await createVar(t, set.id, { key: 'locked', value: 'x', sensitive: true, hcl: false });
      for (const [attributes, name] of [
        [{ sensitive: false }, 'sensitive'],
        [{ key: 'renamed' }, 'key'],
        [{ hcl: true }, 'hcl'],
      ] as const) {
        const res = await expectRejected(t, org, 422, () =>
          t.patch(varsPath(set.id, v.id), { data: { type: 'vars', attributes } }),
        );
        assert.equal(errorOf(res).source?.pointer, `/data/attributes/${name}`);
      }
      const res = await t.patch(varsPath(set.id, v.id), {
        data: {
          type: 'vars',
          attributes: { key: 'locked', hcl: false, sensitive: true, value: 'y', description: 'now described' },
        },
      });
      expectStatus(res, 200);
      assert.equal(res.body.data.attributes.description, 'now described');
    });

    it('a plain variable becomes sensitive with sensitive:true alone, and its value disappears', async () => {
      const set = await createVarset(t, org);
      const v = await createVar(t, set.id, { key: 'was-plain', value: 'visible' });
      const res = await t.patch(varsPath(set.id, v.id), { data: { type: 'vars', attributes: { sensitive: true } } });
      expectStatus(res, 200);
      assert.equal(res.body.data.attributes.sensitive, true);
      assert.equal(res.body.data.attributes.value, null);
      assert.notEqual(res.body.data.attributes['version-id'], v.attributes['version-id']);
    });
  });

  it('deletes a variable: 204, then 404', async () => {
    const set = await createVarset(t, org);
    const v = await createVar(t, set.id, { key: 'bye' });
    const res = await t.delete(varsPath(set.id, v.id));
    assert.equal(res.status, 204);
    assert.equal(res.body, undefined);
    assert.equal((await t.get(varsPath(set.id, v.id))).status, 404);
    assert.equal((await t.delete(varsPath(set.id, v.id))).status, 404);
    assert.equal((await t.delete(varsPath(set.id, 'nonexisting'))).status, 404);
    assert.equal((await t.get(`/api/v2/varsets/${set.id}`)).body.data.attributes['var-count'], 0);
    // The key is free again.
    await createVar(t, set.id, { key: 'bye' });
  });

  it('changes to variables move the set’s updated-at', async () => {
    const set = await createVarset(t, org);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await createVar(t, set.id, { key: 'touch' });
    const shown = await t.get(`/api/v2/varsets/${set.id}`);
    assert.ok(shown.body.data.attributes['updated-at'] > set.attributes['updated-at']);
  });
});
