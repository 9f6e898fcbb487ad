import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestApp } from './support/app.js';
import { createVarset, expectRejected, listVersions } from './support/factories/varsets.js';
import { errorOf, expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';

/** `POST /varsets/:id/actions/write-variables`: several variables added, changed and removed as one write. */
describe(`writing several variables of a set at once (${storeKind})`, () => {
  let t: TestApp;
  before(async () => {
    t = await TestApp.start();
  });
  after(async () => t.close());

  const write = (setId: string, data: unknown, query = '') =>
    t.post(`/api/v2/varsets/${setId}/actions/write-variables${query}`, { data });
  const add = (attributes: Record<string, unknown>) => ({
    type: 'vars',
    attributes: { category: 'env', ...attributes },
  });
  const idOf = (set: any, key: string) => set.relationships.vars.data.find((v: any) => v.attributes.key === key).id;
  const trailCount = async (org: string) => {
    const res = await t.get(`/api/v2/organization/audit-trail?filter%5Borganization%5D%5Bname%5D=${org}`);
    expectStatus(res, 200);
    return res.body.pagination.total_count as number;
  };

  /** A set of three variables (one sensitive) on a workspace. */
  async function scene() {
    const org = await t.createOrganization();
    const ws = await t.createWorkspace(org);
    const set = await createVarset(t, org, {
      workspaces: [ws],
      vars: [
        { key: 'OLD', value: 'old', category: 'env' },
        { key: 'REGION', value: 'eu', category: 'env' },
        { key: 'TOKEN', value: 'secret-1', category: 'env', sensitive: true },
      ],
    });
    return { org, ws, set };
  }

  it('adds, changes and removes in one version and one audit event, all the rules of each holding', async () => {
    const { org, set } = await scene();
    const events = await trailCount(org);
    const res = await write(set.id, [
      { type: 'vars', id: idOf(set, 'OLD'), meta: { action: 'delete' } },
      { type: 'vars', id: idOf(set, 'REGION'), attributes: { value: 'us', description: 'where' } },
      { type: 'vars', id: idOf(set, 'TOKEN'), attributes: { value: 'secret-2' } },
      add({ key: 'OLD', value: 'again' }),
      add({ key: 'count', value: '3', category: 'terraform', hcl: true }),
      add({ key: 'PASSWORD', value: 'pw', sensitive: true }),
    ]);
    expectStatus(res, 200);
    const vars = Object.fromEntries(
      res.body.data.relationships.vars.data.map((v: any) => [`${v.attributes.category}:${v.attributes.key}`, v]),
    );
    assert.deepEqual(Object.keys(vars).sort(), [
      'env:OLD',
      'env:PASSWORD',
      'env:REGION',
      'env:TOKEN',
      'terraform:count',
    ]);
    assert.notEqual(vars['env:OLD'].id, idOf(set, 'OLD'), 'the key of a removed variable is free for a new one');
    assert.equal(vars['env:REGION'].attributes.value, 'us');
    assert.equal(vars['terraform:count'].attributes.hcl, true);
    assert.equal(vars['env:TOKEN'].attributes.value, null);
    assert.equal(vars['env:PASSWORD'].attributes.value, null);
    assert.equal(res.body.data.attributes['var-count'], 5);

    const versions = await listVersions(t, set.id);
    assert.equal(versions.length, 2, 'one version for the whole write');
    assert.deepEqual(res.body.meta.version, { id: versions[0].id, number: 2 });
    const changes = versions[0].attributes.changes.map(
      (c: any) => `${c.action} ${c.key}${c.field ? `.${c.field}` : ''}`,
    );
    assert.deepEqual(changes.sort(), [
      'added OLD',
      'added PASSWORD',
      'added count',
      'changed REGION.description',
      'changed REGION.value',
      'changed TOKEN.value',
      'removed OLD',
    ]);
    assert.ok(!JSON.stringify(versions[0]).includes('secret-2') && !JSON.stringify(versions[0]).includes('"pw"'));
    assert.equal(await trailCount(org), events + 1, 'one audit event');

    const again = await write(set.id, [{ type: 'vars', id: vars['env:REGION'].id, attributes: { value: 'us' } }]);
    expectStatus(again, 200);
    assert.equal(again.body.meta.version, null, 'a write that changes nothing makes no version');
  });

  it('is previewed with the same body: one answer for all of it, nothing written', async () => {
    const { ws, set } = await scene();
    const body = {
      data: [
        { type: 'vars', id: idOf(set, 'OLD'), meta: { action: 'delete' } },
        { type: 'vars', id: idOf(set, 'REGION'), attributes: { value: 'us' } },
        add({ key: 'NEW', value: 'n' }),
      ],
    };
    const before = await listVersions(t, set.id);
    const res = await t.post(`/api/v2/varsets/${set.id}/actions/preview`, body);
    expectStatus(res, 200);
    assert.equal(res.body.data.length, 1);
    assert.equal(res.body.data[0].id, ws);
    const changes = res.body.data[0].attributes.changes.map((c: any) => `${c.action} ${c.key}`);
    assert.deepEqual(changes.sort(), ['added NEW', 'changed REGION', 'removed OLD']);
    assert.deepEqual(await listVersions(t, set.id), before, 'the preview wrote nothing');
    assert.equal((await t.get(`/api/v2/varsets/${set.id}`)).body.data.attributes['var-count'], 3);

    const refused = await t.post(`/api/v2/varsets/${set.id}/actions/preview`, {
      data: [add({ key: 'A' }), add({ key: 'A' })],
    });
    expectStatus(refused, 422);
    assert.equal(errorOf(refused).source?.pointer, '/data/1/attributes/key');
  });

  it('refuses bad input with a 4xx naming the row and field, and writes nothing', async () => {
    const { org, set } = await scene();
    const other = await createVarset(t, org, { attributes: { global: true }, vars: [{ key: 'SHARED', value: 's' }] });
    const global = await createVarset(t, org, { attributes: { global: true } });
    const cases: [string, string, unknown, number, string | undefined, RegExp?][] = [
      [
        'a new row without a key',
        set.id,
        [add({ key: 'OK' }), { type: 'vars', attributes: { category: 'env' } }],
        422,
        '/data/1/attributes/key',
      ],
      [
        'a new row without a category',
        set.id,
        [{ type: 'vars', attributes: { key: 'X' } }],
        422,
        '/data/0/attributes/category',
      ],
      ['a key with a space', set.id, [add({ key: 'BAD KEY' })], 422, '/data/0/attributes/key'],
      ['an unknown category', set.id, [add({ key: 'X', category: 'shell' })], 422, '/data/0/attributes/category'],
      [
        'two new rows of one key and category',
        set.id,
        [add({ key: 'A' }), add({ key: 'B' }), add({ key: 'A' })],
        422,
        '/data/2/attributes/key',
        /already been taken/,
      ],
      [
        'a new row taking a kept key',
        set.id,
        [add({ key: 'REGION' })],
        422,
        '/data/0/attributes/key',
        /already been taken/,
      ],
      [
        'a change taking a kept key',
        set.id,
        [{ type: 'vars', id: idOf(set, 'OLD'), attributes: { key: 'REGION' } }],
        422,
        '/data/0/attributes/key',
      ],
      [
        'a sensitive row made readable',
        set.id,
        [add({ key: 'FINE' }), { type: 'vars', id: idOf(set, 'TOKEN'), attributes: { sensitive: false } }],
        422,
        '/data/1/attributes/sensitive',
      ],
      [
        'a sensitive row renamed',
        set.id,
        [{ type: 'vars', id: idOf(set, 'TOKEN'), attributes: { key: 'T2' } }],
        422,
        '/data/0/attributes/key',
      ],
      [
        'one variable written twice',
        set.id,
        [
          { type: 'vars', id: idOf(set, 'OLD'), attributes: { value: 'x' } },
          { type: 'vars', id: idOf(set, 'OLD'), meta: { action: 'delete' } },
        ],
        422,
        '/data/1/id',
      ],
      ['a removal without an id', set.id, [{ type: 'vars', meta: { action: 'delete' } }], 422, '/data/0/id'],
      [
        'a removal with attributes',
        set.id,
        [{ type: 'vars', id: idOf(set, 'OLD'), attributes: { value: 'v' }, meta: { action: 'delete' } }],
        422,
        '/data/0',
      ],
      ['another type', set.id, [{ type: 'varsets', attributes: { key: 'X', category: 'env' } }], 422, '/data/0/type'],
      ['no rows', set.id, [], 422, '/data'],
      [
        'a variable of another set',
        set.id,
        [{ type: 'vars', id: idOf(other, 'SHARED'), attributes: { value: 'x' } }],
        404,
        undefined,
      ],
      ['a missing set', 'varset-1234567890ABCDEF', [add({ key: 'X' })], 404, undefined],
      [
        'the global rule',
        global.id,
        [add({ key: 'FREE' }), add({ key: 'SHARED', category: 'terraform' })],
        422,
        '/data/1/attributes/key',
        /conflicts with the global variable set/,
      ],
    ];
    for (const [name, setId, data, status, pointer, detail] of cases) {
      const res = await expectRejected(t, org, status, () => write(setId, data));
      const error = errorOf(res);
      assert.equal(error.source?.pointer, pointer, name);
      if (detail) assert.match(error.detail ?? '', detail, name);
    }
    expectStatus(await write(set.id, [add({ key: 'X' })], '?include=vars'), 400);
    assert.equal((await listVersions(t, set.id)).length, 1, 'no refused write made a version');
  });
});
