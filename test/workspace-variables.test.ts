import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestApp } from './support/app.js';
import { expectStatus, type ApiResponse } from './support/requests.js';
import { storeKind } from './support/store.js';

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const varBody = (attributes: Record<string, unknown>) => ({ data: { type: 'vars', attributes } });

describe(`workspace variables (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
  });
  after(async () => t.close());

  const post = (ws: string, attributes: Record<string, unknown>) =>
    t.post(`/api/v2/workspaces/${ws}/vars`, varBody(attributes));
  const patch = (ws: string, id: string, attributes: Record<string, unknown>) =>
    t.patch(`/api/v2/workspaces/${ws}/vars/${id}`, varBody(attributes));
  async function create(ws: string, attributes: Record<string, unknown>): Promise<any> {
    const res = await post(ws, { category: 'terraform', ...attributes });
    expectStatus(res, 201);
    return res.body.data;
  }
  async function list(ws: string): Promise<any[]> {
    const res = await t.get(`/api/v2/workspaces/${ws}/vars`);
    expectStatus(res, 200);
    return res.body.data;
  }
  /** Runs a request that must fail with `status` and checks the workspace's variables did not change. */
  async function expectRejected(ws: string, status: number, request: () => Promise<ApiResponse>): Promise<any> {
    const before = await list(ws);
    const res = await request();
    expectStatus(res, status);
    assert.equal(res.body.errors[0].status, String(status));
    assert.deepEqual(await list(ws), before, 'a rejected request changed nothing');
    return res.body.errors[0];
  }

  describe('create', () => {
    it('answers 201 with HCP Terraform’s shape and the documented defaults', async () => {
      const ws = await t.createWorkspace(org);
      const res = await post(ws, { key: 'region', category: 'terraform' });
      expectStatus(res, 201);
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
        configurable: { data: { id: ws, type: 'workspaces' }, links: { related: `/api/v2/workspaces/${ws}` } },
      });
      assert.deepEqual(v.links, { self: `/api/v2/workspaces/${ws}/vars/${v.id}` });
    });

    it('takes every attribute; a sensitive value is never returned', async () => {
      const ws = await t.createWorkspace(org);
      const v = await create(ws, {
        key: 'TOKEN',
        value: 's3cret',
        description: 'api token',
        category: 'env',
        hcl: true,
        sensitive: true,
      });
      assert.deepEqual(
        [
          v.attributes.key,
          v.attributes.value,
          v.attributes.description,
          v.attributes.category,
          v.attributes.hcl,
          v.attributes.sensitive,
        ],
        ['TOKEN', null, 'api token', 'env', true, true],
      );
      const shown = await t.get(`/api/v2/workspaces/${ws}/vars/${v.id}`);
      expectStatus(shown, 200);
      assert.equal(shown.body.data.attributes.value, null);
      assert.equal((await list(ws))[0].attributes.value, null);
      assert.ok(!JSON.stringify(await list(ws)).includes('s3cret'));
    });

    it('seals a sensitive value at rest; an update without a value keeps it, one making a variable sensitive seals it', async () => {
      const ws = await t.createWorkspace(org);
      const stored = async (id: string) =>
        (
          await t.store.db
            .selectFrom('workspace_variables')
            .select('value')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).value;
      const secret = await create(ws, { key: 'pw', value: 'hunter2', sensitive: true });
      assert.ok(!(await stored(secret.id)).includes('hunter2'));
      assert.equal(t.app.sealer.open(await stored(secret.id)), 'hunter2');
      expectStatus(await patch(ws, secret.id, { description: 'still sealed' }), 200);
      assert.equal(t.app.sealer.open(await stored(secret.id)), 'hunter2');
      expectStatus(await patch(ws, secret.id, { value: 'hunter3' }), 200);
      assert.equal(t.app.sealer.open(await stored(secret.id)), 'hunter3');
      const plain = await create(ws, { key: 'region', value: 'eu-west-1' });
      assert.equal(await stored(plain.id), 'eu-west-1');
      expectStatus(await patch(ws, plain.id, { sensitive: true }), 200);
      assert.equal(t.app.sealer.open(await stored(plain.id)), 'eu-west-1');
    });

    it('refuses a second variable with the same key and category (422), allows the other category', async () => {
      const ws = await t.createWorkspace(org);
      await create(ws, { key: 'dup' });
      const error = await expectRejected(ws, 422, () => post(ws, { key: 'dup', category: 'terraform', value: 'x' }));
      assert.equal(error.detail, 'Key has already been taken');
      assert.equal(error.source.pointer, '/data/attributes/key');
      await create(ws, { key: 'dup', category: 'env' });
      await create(ws, { key: 'DUP' });
      await create(await t.createWorkspace(org), { key: 'dup' });
    });

    it('checks the payload with the rules of every variable (422 with a pointer, nothing written)', async () => {
      const ws = await t.createWorkspace(org);
      const cases: [Record<string, unknown>, string][] = [
        [{ category: 'terraform' }, '/data/attributes/key'],
        [{ key: '', category: 'terraform' }, '/data/attributes/key'],
        [{ key: 'k' }, '/data/attributes/category'],
        [{ key: 'k', category: 'policy-set' }, '/data/attributes/category'],
        [{ key: 'k'.repeat(129), category: 'terraform' }, '/data/attributes/key'],
        [{ key: 'has space', category: 'terraform' }, '/data/attributes/key'],
        [{ key: 'k', category: 'terraform', description: 'd'.repeat(513) }, '/data/attributes/description'],
        [{ key: 'k', category: 'terraform', value: 'v'.repeat(256 * 1024 + 1) }, '/data/attributes/value'],
        [{ key: 'k', category: 'terraform', value: 5 }, '/data/attributes/value'],
        [{ key: 'k', category: 'terraform', sensitive: 'yes' }, '/data/attributes/sensitive'],
        [{ key: 'k', category: 'terraform', hcl: 1 }, '/data/attributes/hcl'],
      ];
      for (const [attributes, pointer] of cases) {
        const error = await expectRejected(ws, 422, () => post(ws, attributes));
        assert.equal(error.source.pointer, pointer, JSON.stringify(attributes).slice(0, 80));
      }
      await expectRejected(ws, 422, () =>
        t.post(`/api/v2/workspaces/${ws}/vars`, {
          data: { type: 'varsets', attributes: { key: 'k', category: 'env' } },
        }),
      );
      await expectRejected(ws, 422, () => t.post(`/api/v2/workspaces/${ws}/vars`, {}));
      await create(ws, { key: 'k'.repeat(128), description: 'd'.repeat(512), value: 'v'.repeat(256 * 1024) });
    });

    it('answers 404 for an unknown workspace', async () => {
      const res = await post('ws-doesnotexist0000', { key: 'k', category: 'env' });
      assert.equal(res.status, 404);
      assert.deepEqual(res.body, { errors: [{ status: '404', title: 'not found' }] });
    });

    it('lets exactly one of concurrent creates of one key win; the others get 422, never 500', async () => {
      const ws = await t.createWorkspace(org);
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => post(ws, { key: 'race', category: 'terraform', value: String(i) })),
      );
      assert.deepEqual(results.map((r) => r.status).sort(), [201, 422, 422, 422, 422, 422]);
      assert.equal((await list(ws)).length, 1);
    });
  });

  describe('list and show', () => {
    it('lists every variable of the workspace, by key in code point order then category, unpaginated', async () => {
      const ws = await t.createWorkspace(org);
      assert.deepEqual(await list(ws), []);
      for (const [key, category] of [
        ['b', 'terraform'],
        ['b', 'env'],
        ['\u{1F600}', 'env'],
        ['\u{FF21}', 'env'],
        ['B', 'env'],
        ['a', 'terraform'],
      ])
        await create(ws, { key, category });
      await create(await t.createWorkspace(org), { key: 'elsewhere' });
      const vars = await list(ws);
      assert.deepEqual(
        vars.map((v) => [v.attributes.key, v.attributes.category]),
        [
          ['B', 'env'],
          ['a', 'terraform'],
          ['b', 'env'],
          ['b', 'terraform'],
          ['\u{FF21}', 'env'],
          ['\u{1F600}', 'env'],
        ],
      );
      const res = await t.get(`/api/v2/workspaces/${ws}/vars`);
      assert.equal(res.body.meta, undefined);
    });

    it('shows a variable exactly as created and listed', async () => {
      const ws = await t.createWorkspace(org);
      const created = await create(ws, { key: 'same', value: 'v', description: 'd' });
      const shown = await t.get(`/api/v2/workspaces/${ws}/vars/${created.id}`);
      expectStatus(shown, 200);
      assert.deepEqual(shown.body.data, created);
      assert.deepEqual((await list(ws))[0], created);
    });

    it('answers 404 for an unknown variable, a variable of another workspace, an unknown workspace', async () => {
      const ws = await t.createWorkspace(org);
      const other = await t.createWorkspace(org);
      const v = await create(other, { key: 'k' });
      for (const url of [
        `/api/v2/workspaces/${ws}/vars/nonexisting`,
        `/api/v2/workspaces/${ws}/vars/${v.id}`,
        `/api/v2/workspaces/nonexisting/vars`,
        `/api/v2/workspaces/nonexisting/vars/${v.id}`,
      ]) {
        const res = await t.get(url);
        assert.equal(res.status, 404, url);
      }
    });
  });

  describe('update', () => {
    it('changes only what the body names, with a fresh version-id every time, even for a no-op', async () => {
      const ws = await t.createWorkspace(org);
      const created = await create(ws, { key: 'k', value: 'one', description: 'first' });
      const res = await patch(ws, created.id, { value: 'two' });
      expectStatus(res, 200);
      const updated = res.body.data;
      assert.equal(updated.attributes.value, 'two');
      assert.equal(updated.attributes.description, 'first');
      assert.equal(updated.attributes['created-at'], created.attributes['created-at']);
      assert.notEqual(updated.attributes['version-id'], created.attributes['version-id']);
      const noop = await patch(ws, created.id, { value: 'two' });
      expectStatus(noop, 200);
      assert.notEqual(noop.body.data.attributes['version-id'], updated.attributes['version-id']);
      const empty = await t.patch(`/api/v2/workspaces/${ws}/vars/${created.id}`, {
        data: { type: 'vars', id: created.id },
      });
      expectStatus(empty, 200);
      assert.notEqual(empty.body.data.attributes['version-id'], noop.body.data.attributes['version-id']);
      const shown = await t.get(`/api/v2/workspaces/${ws}/vars/${created.id}`);
      assert.deepEqual(shown.body.data, empty.body.data);
      const renamed = await patch(ws, created.id, { key: 'k2', category: 'env', hcl: true, description: '' });
      expectStatus(renamed, 200);
      assert.deepEqual(
        [renamed.body.data.attributes.key, renamed.body.data.attributes.category, renamed.body.data.attributes.hcl],
        ['k2', 'env', true],
      );
    });

    it('keeps sensitive variables write-only: a new value is accepted, the rest is refused', async () => {
      const ws = await t.createWorkspace(org);
      const plain = await create(ws, { key: 'secret', value: 'visible' });
      const res = await patch(ws, plain.id, { sensitive: true });
      expectStatus(res, 200);
      assert.equal(res.body.data.attributes.value, null);
      const revalued = await patch(ws, plain.id, { value: 'hidden' });
      expectStatus(revalued, 200);
      assert.equal(revalued.body.data.attributes.value, null);
      for (const [attributes, pointer] of [
        [{ sensitive: false }, '/data/attributes/sensitive'],
        [{ key: 'other' }, '/data/attributes/key'],
        [{ hcl: true }, '/data/attributes/hcl'],
      ] as const) {
        const error = await expectRejected(ws, 422, () => patch(ws, plain.id, attributes));
        assert.equal(error.source.pointer, pointer);
      }
    });

    it('refuses a key and category another variable of the workspace has (422, nothing written)', async () => {
      const ws = await t.createWorkspace(org);
      await create(ws, { key: 'taken' });
      await create(ws, { key: 'taken', category: 'env' });
      const v = await create(ws, { key: 'free' });
      let error = await expectRejected(ws, 422, () => patch(ws, v.id, { key: 'taken' }));
      assert.equal(error.source.pointer, '/data/attributes/key');
      const envVar = await create(ws, { key: 'free', category: 'env' });
      error = await expectRejected(ws, 422, () => patch(ws, envVar.id, { category: 'terraform' }));
      assert.equal(error.detail, 'Key has already been taken');
      assert.equal(error.source.pointer, '/data/attributes/category');
      await expectRejected(ws, 422, () => patch(ws, v.id, { description: 'd'.repeat(513) }));
      await expectRejected(ws, 422, () => patch(ws, v.id, { category: 'nope' }));
    });

    it('answers 404 for an unknown variable or one of another workspace', async () => {
      const ws = await t.createWorkspace(org);
      const other = await create(await t.createWorkspace(org), { key: 'k' });
      assert.equal((await patch(ws, 'nonexisting', { value: 'x' })).status, 404);
      assert.equal((await patch(ws, other.id, { value: 'x' })).status, 404);
    });
  });

  describe('delete', () => {
    it('answers 204, then the variable is gone; deleting again is a 404', async () => {
      const ws = await t.createWorkspace(org);
      const v = await create(ws, { key: 'gone' });
      const keep = await create(ws, { key: 'kept' });
      const res = await t.request('DELETE', `/api/v2/workspaces/${ws}/vars/${v.id}`, {
        contentType: 'application/vnd.api+json',
      });
      assert.equal(res.status, 204);
      assert.equal((await t.get(`/api/v2/workspaces/${ws}/vars/${v.id}`)).status, 404);
      assert.equal((await t.delete(`/api/v2/workspaces/${ws}/vars/${v.id}`)).status, 404);
      assert.deepEqual(
        (await list(ws)).map((x) => x.id),
        [keep.id],
      );
    });

    it('goes with its workspace', async () => {
      const ws = await t.createWorkspace(org);
      await create(ws, { key: 'k' });
      expectStatus(await t.delete(`/api/v2/workspaces/${ws}`), 204);
      const count = await t.store.db
        .selectFrom('workspace_variables')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('workspace_id', '=', ws)
        .executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 0);
    });
  });
});
