import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestApp } from './support/app.js';
import { grantProject, teamWithToken } from './support/factories/access.js';
import { createVarset, varResource, varsetBody } from './support/factories/varsets.js';
import { expectStatus, type ApiResponse } from './support/requests.js';
import { storeKind } from './support/store.js';
import {
  errorsOf,
  expectedImpacts,
  knownIds,
  previewAll,
  readEffective,
  storedState,
  withNewIdsNamed,
} from './support/varset-preview.js';

const MARKER = 'SECRET-MARKER-7f3a';

/**
 * `POST /varsets/:id/actions/preview` and `POST /organizations/:org/varsets/actions/preview`:
 * for every kind of write, the preview answers exactly the difference between the effective
 * variables read before and after the write is made, and writes nothing.
 */
describe(`previewing a write to a set (${storeKind})`, () => {
  let t: TestApp;
  before(async () => {
    t = await TestApp.start();
  });
  after(async () => t.close());

  /**
   * An organization of four workspaces: a and b in project p1, c in p2, d in the default
   * project; b has its own FOO; a global set, a set on p1, a set on workspace d and a set
   * that reaches nothing yet.
   */
  async function world() {
    const org = await t.createOrganization();
    const p1 = await t.createProject(org);
    const p2 = await t.createProject(org);
    const ws = {
      a: await t.createWorkspace(org, { name: 'a-ws', projectId: p1 }),
      b: await t.createWorkspace(org, { name: 'b-ws', projectId: p1 }),
      c: await t.createWorkspace(org, { name: 'c-ws', projectId: p2 }),
      d: await t.createWorkspace(org, { name: 'd-ws' }),
    };
    const names = new Map(Object.entries(ws).map(([name, id]) => [id, `${name}-ws`]));
    expectStatus(
      await t.post(`/api/v2/workspaces/${ws.b}/vars`, { data: varResource({ key: 'FOO', value: 'from-b' }) }),
      201,
    );
    const global = await createVarset(t, org, {
      attributes: { name: 'global-set', global: true },
      vars: [
        { key: 'FOO', value: 'g' },
        { key: 'REGION', value: 'eu' },
      ],
    });
    const onP1 = await createVarset(t, org, {
      attributes: { name: 'p1-set' },
      projects: [p1],
      vars: [
        { key: 'FOO', value: 'p1' },
        { key: 'TOKEN', value: `${MARKER}-1`, sensitive: true },
      ],
    });
    const onD = await createVarset(t, org, {
      attributes: { name: 'd-set' },
      workspaces: [ws.d],
      vars: [{ key: 'REGION', value: 'us', category: 'env' }],
    });
    const spare = await createVarset(t, org, {
      attributes: { name: 'spare-set' },
      vars: [
        { key: 'SPARE', value: 's', hcl: true },
        { key: 'REGION', value: 'ap', category: 'env' },
      ],
    });
    const variable = (set: any, key: string) =>
      set.relationships.vars.data.find((v: any) => v.attributes.key === key).id as string;
    return { org, p1, p2, ws, names, global, onP1, onD, spare, variable };
  }
  type World = Awaited<ReturnType<typeof world>>;

  /**
   * Previews a write, checks it changed nothing, makes the write, and checks the preview
   * answered the difference of every workspace's effective variables before and after.
   */
  async function expectPreviewOf(w: World, preview: { path: string; body: unknown }, make: () => Promise<ApiResponse>) {
    const workspaces = Object.values(w.ws);
    const stored = await storedState(t, w.org);
    const before = await readEffective(t, workspaces);
    const answer = await previewAll(t, preview.path, preview.body);
    assert.ok(!JSON.stringify(answer).includes(MARKER), 'no sensitive value in a preview');
    assert.deepEqual(await storedState(t, w.org), stored, 'a preview writes nothing');
    assert.deepEqual(await readEffective(t, workspaces), before, 'a preview changes no effective variable');
    const made = await make();
    assert.ok(made.status === 200 || made.status === 204, `the write itself succeeds: ${JSON.stringify(made.body)}`);
    const expected = expectedImpacts(before, await readEffective(t, workspaces), w.names);
    const known = knownIds(stored, before);
    assert.deepEqual(withNewIdsNamed(answer.impacts, known), withNewIdsNamed(expected, known));
    return answer;
  }

  const setPath = (id: string) => `/api/v2/varsets/${id}/actions/preview`;

  it("a variable's new value reaches the workspaces where it wins, not where it is overridden", async () => {
    const w = await world();
    const body = { data: { type: 'vars', id: w.variable(w.onP1, 'FOO'), attributes: { value: 'p1-new' } } };
    const answer = await expectPreviewOf(w, { path: setPath(w.onP1.id), body }, () =>
      t.patch(`/api/v2/varsets/${w.onP1.id}/relationships/vars/${body.data.id}`, body),
    );
    assert.deepEqual(
      answer.impacts.map((i) => i.name),
      ['a-ws'],
    );
    assert.deepEqual(
      answer.impacts[0]!.changes.map((c: any) => [c.key, c.action, c.fields, c.before.value, c.after.value]),
      [['FOO', 'changed', ['value'], 'p1', 'p1-new']],
    );
    assert.deepEqual([answer.meta['workspaces-reached-before'], answer.meta['workspaces-reached-after']], [2, 2]);
  });

  it('a priority flip makes the set win over the workspace variables it did not', async () => {
    const w = await world();
    const body = varsetBody({ attributes: { priority: true } });
    const answer = await expectPreviewOf(w, { path: setPath(w.onP1.id), body }, () =>
      t.patch(`/api/v2/varsets/${w.onP1.id}`, body),
    );
    const change = answer.impacts.find((i) => i.name === 'b-ws')!.changes.find((c: any) => c.key === 'FOO');
    assert.deepEqual(change.fields, ['value', 'source']);
    assert.deepEqual(
      [change.before.source.type, change.after.source.varset.id, change.after.source.precedence],
      ['workspace', w.onP1.id, 2],
    );
  });

  it('switching global on reaches every workspace, and off leaves them', async () => {
    const w = await world();
    const on = varsetBody({ attributes: { global: true, name: 'spare-set' } });
    const answer = await expectPreviewOf(w, { path: setPath(w.spare.id), body: on }, () =>
      t.patch(`/api/v2/varsets/${w.spare.id}`, on),
    );
    assert.equal(answer.impacts.length, 4);
    assert.deepEqual([answer.meta['workspaces-reached-before'], answer.meta['workspaces-reached-after']], [0, 4]);
    const off = varsetBody({ attributes: { global: false } });
    const offAnswer = await expectPreviewOf(w, { path: setPath(w.global.id), body: off }, () =>
      t.patch(`/api/v2/varsets/${w.global.id}`, off),
    );
    assert.deepEqual([offAnswer.meta['workspaces-reached-before'], offAnswer.meta['workspaces-reached-after']], [4, 0]);
  });

  it('assigning a set to a project and to a workspace', async () => {
    const w = await world();
    const toProject = varsetBody({ projects: [w.p2] });
    await expectPreviewOf(w, { path: setPath(w.spare.id), body: toProject }, () =>
      t.patch(`/api/v2/varsets/${w.spare.id}`, toProject),
    );
    const toWorkspaces = varsetBody({ workspaces: [w.ws.a, w.ws.d] });
    const answer = await expectPreviewOf(w, { path: setPath(w.onP1.id), body: toWorkspaces }, () =>
      t.patch(`/api/v2/varsets/${w.onP1.id}`, toWorkspaces),
    );
    assert.deepEqual([answer.meta['workspaces-reached-before'], answer.meta['workspaces-reached-after']], [2, 3]);
  });

  it('adding, changing (a sensitive value, hcl, the category) and deleting variables', async () => {
    const w = await world();
    const add = { data: varResource({ key: 'NEW', value: 'n', category: 'env' }) };
    await expectPreviewOf(w, { path: setPath(w.global.id), body: add }, () =>
      t.post(`/api/v2/varsets/${w.global.id}/relationships/vars`, add),
    );
    const token = w.variable(w.onP1, 'TOKEN');
    const secret = { data: { type: 'vars', id: token, attributes: { value: `${MARKER}-2` } } };
    const answer = await expectPreviewOf(w, { path: setPath(w.onP1.id), body: secret }, () =>
      t.patch(`/api/v2/varsets/${w.onP1.id}/relationships/vars/${token}`, secret),
    );
    assert.deepEqual(
      answer.impacts[0]!.changes.map((c: any) => [c.key, c.fields, c.before.value, c.after.value, c.after.sensitive]),
      [['TOKEN', ['value'], null, null, true]],
    );
    const region = w.variable(w.global, 'REGION');
    const hcl = { data: { type: 'vars', id: region, attributes: { hcl: true, category: 'env' } } };
    await expectPreviewOf(w, { path: setPath(w.global.id), body: hcl }, () =>
      t.patch(`/api/v2/varsets/${w.global.id}/relationships/vars/${region}`, hcl),
    );
    const foo = w.variable(w.onP1, 'FOO');
    const remove = { data: { type: 'vars', id: foo }, meta: { action: 'delete' } };
    await expectPreviewOf(w, { path: setPath(w.onP1.id), body: remove }, () =>
      t.delete(`/api/v2/varsets/${w.onP1.id}/relationships/vars/${foo}`),
    );
  });

  it("deleting a set, and a rename that changes no workspace's values", async () => {
    const w = await world();
    const rename = varsetBody({ attributes: { name: 'renamed' } });
    const renamed = await expectPreviewOf(w, { path: setPath(w.onD.id), body: rename }, () =>
      t.patch(`/api/v2/varsets/${w.onD.id}`, rename),
    );
    assert.equal(renamed.impacts.length, 0);
    const remove = { data: { type: 'varsets', id: w.onP1.id }, meta: { action: 'delete' } };
    const answer = await expectPreviewOf(w, { path: setPath(w.onP1.id), body: remove }, () =>
      t.delete(`/api/v2/varsets/${w.onP1.id}`),
    );
    assert.deepEqual([answer.meta['workspaces-reached-before'], answer.meta['workspaces-reached-after']], [2, 0]);
  });

  it('rolling a set back to a version, and restoring a deleted set, with a sensitive value', async () => {
    const w = await world();
    const versionsOf = async (id: string) => (await t.get(`/api/v2/varsets/${id}/versions`)).body.data;
    const [start] = await versionsOf(w.onP1.id);
    const foo = w.variable(w.onP1, 'FOO');
    const token = w.variable(w.onP1, 'TOKEN');
    for (const [id, value] of [
      [foo, 'p1-later'],
      [token, `${MARKER}-2`],
    ] as const)
      expectStatus(
        await t.patch(`/api/v2/varsets/${w.onP1.id}/relationships/vars/${id}`, {
          data: { type: 'vars', id, attributes: { value } },
        }),
        200,
      );
    expectStatus(await t.patch(`/api/v2/varsets/${w.onP1.id}`, varsetBody({ projects: [w.p1, w.p2] })), 200);
    const back = { data: { type: 'varset-versions', id: start.id } };
    const rolledBack = await expectPreviewOf(w, { path: setPath(w.onP1.id), body: back }, () =>
      t.post(`/api/v2/varsets/${w.onP1.id}/actions/rollback`, back),
    );
    assert.deepEqual(
      rolledBack.impacts.map((i) => i.name),
      ['a-ws', 'b-ws', 'c-ws'],
    );
    assert.deepEqual(
      [rolledBack.meta['workspaces-reached-before'], rolledBack.meta['workspaces-reached-after']],
      [3, 2],
    );

    expectStatus(await t.delete(`/api/v2/varsets/${w.onD.id}`), 204);
    const [, beforeDeletion] = await versionsOf(w.onD.id);
    const restore = { data: { type: 'varset-versions', id: beforeDeletion.id } };
    const restored = await expectPreviewOf(w, { path: setPath(w.onD.id), body: restore }, () =>
      t.post(`/api/v2/varsets/${w.onD.id}/actions/rollback`, restore),
    );
    assert.deepEqual(
      restored.impacts.map((i) => [i.name, i.changes.map((c: any) => [c.key, c.action, c.after.value])]),
      [['d-ws', [['REGION', 'added', 'us']]]],
    );
  });

  it('restoring the rest of a deleted set whose workspace is gone (meta.skip-missing)', async () => {
    const w = await world();
    const gone = await t.createWorkspace(w.org, { name: 'gone-ws' });
    expectStatus(await t.patch(`/api/v2/varsets/${w.onD.id}`, varsetBody({ workspaces: [w.ws.d, gone] })), 200);
    expectStatus(await t.delete(`/api/v2/varsets/${w.onD.id}`), 204);
    expectStatus(await t.delete(`/api/v2/workspaces/${gone}`), 204);
    const [, beforeDeletion] = (await t.get(`/api/v2/varsets/${w.onD.id}/versions`)).body.data;
    const body = { data: { type: 'varset-versions', id: beforeDeletion.id } };
    const refused = await t.post(setPath(w.onD.id), body);
    expectStatus(refused, 422);
    assert.equal(refused.body.errors[0].code, 'missing-assignments');
    const rest = { ...body, meta: { 'skip-missing': true } };
    await expectPreviewOf(w, { path: setPath(w.onD.id), body: rest }, () =>
      t.post(`/api/v2/varsets/${w.onD.id}/actions/rollback?skip-missing=true`, body),
    );
  });

  it('a new set', async () => {
    const w = await world();
    const create = varsetBody({
      attributes: { name: 'new-set', priority: true },
      workspaces: [w.ws.c],
      projects: [w.p1],
      vars: [
        { key: 'REGION', value: 'new' },
        { key: 'S', value: MARKER, sensitive: true },
      ],
    });
    const answer = await expectPreviewOf(
      w,
      { path: `/api/v2/organizations/${w.org}/varsets/actions/preview`, body: create },
      () => t.post(`/api/v2/organizations/${w.org}/varsets`, create),
    );
    assert.deepEqual(
      answer.impacts.map((i) => i.name),
      ['a-ws', 'b-ws', 'c-ws'],
    );
  });

  describe('answers what the write would answer when it is refused', () => {
    /** The preview's error equals the write's, and neither changed anything. */
    async function expectSameRefusal(w: World, preview: () => Promise<ApiResponse>, write: () => Promise<ApiResponse>) {
      const stored = await storedState(t, w.org);
      const previewed = errorsOf(await preview());
      assert.deepEqual(await storedState(t, w.org), stored);
      assert.deepEqual(previewed, errorsOf(await write()));
      assert.deepEqual(await storedState(t, w.org), stored);
      return previewed;
    }

    it('the global rule, a name taken, a missing set or variable, a bad body', async () => {
      const w = await world();
      const conflicting = varsetBody({ attributes: { global: true } });
      const refused = await expectSameRefusal(
        w,
        () => t.post(setPath(w.onP1.id), conflicting),
        () => t.patch(`/api/v2/varsets/${w.onP1.id}`, conflicting),
      );
      assert.equal(refused.body.errors[0].source.pointer, '/data/attributes/global');
      const taken = varsetBody({ attributes: { name: 'global-set' } });
      await expectSameRefusal(
        w,
        () => t.post(setPath(w.onP1.id), taken),
        () => t.patch(`/api/v2/varsets/${w.onP1.id}`, taken),
      );
      const newGlobal = varsetBody({
        attributes: { name: 'another', global: true },
        vars: [{ key: 'REGION', value: 'x' }],
      });
      await expectSameRefusal(
        w,
        () => t.post(`/api/v2/organizations/${w.org}/varsets/actions/preview`, newGlobal),
        () => t.post(`/api/v2/organizations/${w.org}/varsets`, newGlobal),
      );
      const added = { data: varResource({ key: 'FOO', value: 'again' }) };
      await expectSameRefusal(
        w,
        () => t.post(setPath(w.global.id), added),
        () => t.post(`/api/v2/varsets/${w.global.id}/relationships/vars`, added),
      );
      const badKey = { data: varResource({ key: 'has space', value: 'v' }) };
      const bad = await expectSameRefusal(
        w,
        () => t.post(setPath(w.global.id), badKey),
        () => t.post(`/api/v2/varsets/${w.global.id}/relationships/vars`, badKey),
      );
      assert.equal(bad.body.errors[0].source.pointer, '/data/attributes/key');
      const badName = varsetBody({ attributes: { name: 7 } });
      await expectSameRefusal(
        w,
        () => t.post(setPath(w.global.id), badName),
        () => t.patch(`/api/v2/varsets/${w.global.id}`, badName),
      );
      const missing = { data: { type: 'vars', id: 'var-doesnotexist12345', attributes: { value: 'v' } } };
      await expectSameRefusal(
        w,
        () => t.post(setPath(w.global.id), missing),
        () => t.patch(`/api/v2/varsets/${w.global.id}/relationships/vars/${missing.data.id}`, missing),
      );
      await expectSameRefusal(
        w,
        () => t.post(setPath('varset-doesnotexist1234'), taken),
        () => t.patch('/api/v2/varsets/varset-doesnotexist1234', taken),
      );
      const gone = { data: { type: 'vars', id: 'var-doesnotexist12345' }, meta: { action: 'delete' } };
      await expectSameRefusal(
        w,
        () => t.post(setPath(w.global.id), gone),
        () => t.delete(`/api/v2/varsets/${w.global.id}/relationships/vars/var-doesnotexist12345`),
      );
      const [created] = (await t.get(`/api/v2/varsets/${w.spare.id}/versions?page%5Bsize%5D=1`)).body.data;
      const spareCreated = { data: { type: 'varset-versions', id: created.id } };
      await expectSameRefusal(
        w,
        () => t.post(setPath(w.onP1.id), spareCreated),
        () => t.post(`/api/v2/varsets/${w.onP1.id}/actions/rollback`, spareCreated),
      );
      expectStatus(
        await t.patch(`/api/v2/varsets/${w.spare.id}`, varsetBody({ attributes: { name: 'spare-2' } })),
        200,
      );
      expectStatus(
        await t.patch(`/api/v2/varsets/${w.onD.id}`, varsetBody({ attributes: { name: 'spare-set' } })),
        200,
      );
      const nameTaken = await expectSameRefusal(
        w,
        () => t.post(setPath(w.spare.id), spareCreated),
        () => t.post(`/api/v2/varsets/${w.spare.id}/actions/rollback`, spareCreated),
      );
      assert.equal(nameTaken.status, 422);
      const unassignable = varsetBody({ workspaces: ['ws-doesnotexist123456'] });
      await expectSameRefusal(
        w,
        () => t.post(setPath(w.global.id), unassignable),
        () => t.patch(`/api/v2/varsets/${w.global.id}`, unassignable),
      );
    });

    it('a token that may read the set but not change it, and a stranger', async () => {
      const w = await world();
      const reader = await teamWithToken(t, w.org, { 'organization-access': { 'read-workspaces': true } });
      const stranger = await teamWithToken(t, await t.createOrganization(), {
        'organization-access': { 'manage-workspaces': true },
      });
      const body = varsetBody({ attributes: { priority: true } });
      for (const { token } of [reader, stranger]) {
        expectStatus(await t.get(`/api/v2/varsets/${w.onP1.id}`, { token }), token === reader.token ? 200 : 404);
        const refused = await expectSameRefusal(
          w,
          () => t.post(setPath(w.onP1.id), body, { token }),
          () => t.patch(`/api/v2/varsets/${w.onP1.id}`, body, { token }),
        );
        assert.equal(refused.status, 404);
        const [newest] = (await t.get(`/api/v2/varsets/${w.onP1.id}/versions`)).body.data;
        const back = { data: { type: 'varset-versions', id: newest.id } };
        await expectSameRefusal(
          w,
          () => t.post(setPath(w.onP1.id), back, { token }),
          () => t.post(`/api/v2/varsets/${w.onP1.id}/actions/rollback`, back, { token }),
        );
        const create = varsetBody({ attributes: { name: 'by-a-reader' } });
        await expectSameRefusal(
          w,
          () => t.post(`/api/v2/organizations/${w.org}/varsets/actions/preview`, create, { token }),
          () => t.post(`/api/v2/organizations/${w.org}/varsets`, create, { token }),
        );
      }
    });
  });

  it('shows no value of a workspace whose variables the caller may not read', async () => {
    const w = await world();
    const owned = await createVarset(t, w.org, {
      attributes: { name: 'owned-set' },
      parent: { type: 'projects', id: w.p1 },
      projects: [w.p1],
      vars: [{ key: 'REGION', value: 'p1-owned', category: 'env' }],
    });
    const { teamId, token } = await teamWithToken(t, w.org);
    await grantProject(t, teamId, w.p1, {
      access: 'custom',
      'project-access': { 'variable-sets': 'write' },
      'workspace-access': { variables: 'none' },
    });
    const region = w.variable(owned, 'REGION');
    const body = { data: { type: 'vars', id: region, attributes: { value: 'changed' } } };
    const byOwner = await previewAll(t, setPath(owned.id), body);
    const byTeam = await previewAll(t, setPath(owned.id), body, token);
    const res = await t.post(setPath(owned.id), body, { token });
    assert.deepEqual(
      res.body.data.map((d: any) => d.attributes['variables-readable']),
      [false, false],
    );
    const hidden = (impacts: any[]) =>
      impacts.map((i) => ({
        ...i,
        changes: i.changes.map((c: any) => ({
          ...c,
          before: { ...c.before, value: null },
          after: { ...c.after, value: null },
        })),
      }));
    assert.deepEqual(byTeam.impacts, hidden(byOwner.impacts));
    assert.deepEqual(
      byOwner.impacts.map((i) => i.changes[0].after.value),
      ['changed', 'changed'],
    );
  });

  describe('refuses a preview body that names no write', () => {
    const pointerOf = (res: ApiResponse) => [
      res.status,
      res.body.errors[0].source?.pointer ?? res.body.errors[0].source?.parameter,
    ];

    it('a deletion names what it deletes, and nothing else', async () => {
      const w = await world();
      assert.deepEqual(
        pointerOf(await t.post(setPath(w.onP1.id), { data: { type: 'vars' }, meta: { action: 'delete' } })),
        [422, '/data/id'],
      );
      assert.deepEqual(
        pointerOf(
          await t.post(setPath(w.onP1.id), { data: { type: 'varsets', id: w.global.id }, meta: { action: 'delete' } }),
        ),
        [422, '/data/id'],
      );
      const withAttributes = {
        data: { type: 'varsets', id: w.onP1.id, attributes: { name: 'x' } },
        meta: { action: 'delete' },
      };
      assert.deepEqual(pointerOf(await t.post(setPath(w.onP1.id), withAttributes)), [422, '/data/attributes']);
      assert.deepEqual(
        pointerOf(
          await t.post(setPath(w.onP1.id), { data: { type: 'vars', id: 'var-x' }, meta: { action: 'remove' } }),
        ),
        [422, '/meta/action'],
      );
      assert.deepEqual(pointerOf(await t.post(setPath(w.onP1.id), { data: { type: 'workspaces', id: 'x' } })), [
        422,
        '/data/type',
      ]);
      assert.deepEqual(pointerOf(await t.post(setPath(w.onP1.id), { data: { type: 'varsets' }, meta: {} })), [
        422,
        '/meta/action',
      ]);
      assert.deepEqual(pointerOf(await t.post(setPath(w.onP1.id), { data: { type: 'varset-versions' } })), [
        422,
        '/data/id',
      ]);
      assert.deepEqual(
        pointerOf(
          await t.post(setPath(w.onP1.id), { data: { type: 'varset-versions', id: 'v' }, meta: { action: 'delete' } }),
        ),
        [422, '/meta/action'],
      );
      assert.deepEqual(pointerOf(await t.post(setPath(w.onP1.id), undefined)), [422, '/data']);
      assert.deepEqual(pointerOf(await t.post(`${setPath(w.onP1.id)}?action=delete`, { data: { type: 'varsets' } })), [
        400,
        'action',
      ]);
      assert.deepEqual(
        pointerOf(await t.post(`${setPath(w.onP1.id)}?page%5Bsize%5D=1000`, { data: { type: 'varsets' } })),
        [400, 'page[size]'],
      );
    });
  });
});
