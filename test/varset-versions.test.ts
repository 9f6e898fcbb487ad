import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestApp } from './support/app.js';
import { ownersTeam, teamToken, teamWithToken } from './support/factories/access.js';
import { createUploadedConfigurationVersion } from './support/factories/runs.js';
import { createVar, createVarset, identifiers, listVersions } from './support/factories/varsets.js';
import { expectStatus, type ApiResponse } from './support/requests.js';
import { storeKind } from './support/store.js';

/** Every write to a set makes exactly one version, with who made it, the request and what changed; a write that changes nothing makes none. */
describe(`versions of a set (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  let ws: string;
  let prj: string;
  let owners: string;
  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
    ws = await t.createWorkspace(org);
    prj = await t.createProject(org);
    owners = await teamToken(t, await ownersTeam(t, org), { description: 'release pipeline' });
  });
  after(async () => t.close());

  const versions = (setId: string, token?: string) => listVersions(t, setId, token);
  /** Runs a write and returns the one version it made (failing when it made none, or more). */
  async function versionOf(
    setId: string,
    write: () => Promise<ApiResponse>,
  ): Promise<{ version: any; response: ApiResponse }> {
    const known = (await versions(setId)).length;
    const response = await write();
    assert.ok(response.status < 300, `the write failed: ${JSON.stringify(response.body)}`);
    const now = await versions(setId);
    assert.equal(now.length, known + 1, 'one version per write');
    assert.equal(now[0].attributes.number, known + 1);
    return { version: now[0], response };
  }
  async function expectNoVersion(setId: string, write: () => Promise<ApiResponse>): Promise<void> {
    const known = (await versions(setId)).length;
    const response = await write();
    assert.ok(response.status < 300, `the write failed: ${JSON.stringify(response.body)}`);
    assert.equal((await versions(setId)).length, known, 'a write that changes nothing makes no version');
  }
  const patchSet = (setId: string, attributes: Record<string, unknown>, token = owners) =>
    t.patch(`/api/v2/varsets/${setId}`, { data: { type: 'varsets', attributes } }, { token });

  it('creating a set makes version 1: every attribute, variable and assignment added, a sensitive value never shown', async () => {
    const res = await t.post(
      `/api/v2/organizations/${org}/varsets`,
      {
        data: {
          type: 'varsets',
          attributes: { name: 'created-with-all', description: 'd' },
          relationships: {
            vars: {
              data: [
                { type: 'vars', attributes: { key: 'region', value: 'eu', category: 'terraform' } },
                { type: 'vars', attributes: { key: 'TOKEN', value: 'hunter2', category: 'env', sensitive: true } },
              ],
            },
            workspaces: identifiers('workspaces', [ws]),
            projects: identifiers('projects', [prj]),
          },
        },
      },
      { token: owners },
    );
    expectStatus(res, 200);
    const set = res.body.data;
    const [version] = await versions(set.id);
    const { attributes } = version;
    assert.equal(attributes.number, 1);
    assert.equal(attributes.action, 'create');
    assert.equal(attributes['varset-name'], 'created-with-all');
    assert.equal(attributes['request-id'], String(res.headers['x-request-id']));
    assert.match(attributes['request-id'], /^[0-9a-f-]{36}$/);
    assert.equal(attributes.cause, null, 'a request says no more than itself');
    assert.equal(attributes.actor.kind, 'team');
    assert.equal(attributes.actor.description, 'team owners (token "release pipeline")');
    assert.match(attributes.actor['token-id'], /^at-/);
    const byVariable = new Map(set.relationships.vars.data.map((v: { id: string }, i: number) => [i, v.id]));
    assert.ok(byVariable.size === 2);
    const changes = attributes.changes as any[];
    assert.deepEqual(
      changes.filter((c) => c.target === 'varset'),
      [
        { target: 'varset', action: 'changed', field: 'name', before: null, after: 'created-with-all' },
        { target: 'varset', action: 'changed', field: 'description', before: null, after: 'd' },
        { target: 'varset', action: 'changed', field: 'global', before: null, after: false },
        { target: 'varset', action: 'changed', field: 'priority', before: null, after: false },
      ],
    );
    const variables = changes.filter((c) => c.target === 'variable').sort((a, b) => (a.key < b.key ? -1 : 1));
    assert.deepEqual(
      variables.map(({ id: _, ...c }) => c),
      [
        {
          target: 'variable',
          key: 'TOKEN',
          category: 'env',
          action: 'added',
          before: null,
          after: { key: 'TOKEN', value: null, description: '', category: 'env', hcl: false, sensitive: true },
        },
        {
          target: 'variable',
          key: 'region',
          category: 'terraform',
          action: 'added',
          before: null,
          after: { key: 'region', value: 'eu', description: '', category: 'terraform', hcl: false, sensitive: false },
        },
      ],
    );
    assert.deepEqual(
      changes.filter((c) => c.target === 'workspace' || c.target === 'project'),
      [
        { target: 'workspace', id: ws, action: 'added' },
        { target: 'project', id: prj, action: 'added' },
      ],
    );
    assert.ok(!JSON.stringify(version).includes('hunter2'), 'no sensitive value in a version');
    assert.deepEqual(version.relationships.varset.data, { id: set.id, type: 'varsets' });
    const shown = await t.get(`/api/v2/varset-versions/${version.id}`, { token: owners });
    expectStatus(shown, 200);
    assert.deepEqual(shown.body.data, version);
  });

  it('updating attributes records exactly the fields that changed; the same values again record nothing', async () => {
    const set = await createVarset(t, org);
    const { version } = await versionOf(set.id, () =>
      patchSet(set.id, { description: 'now described', priority: true }),
    );
    assert.equal(version.attributes.action, 'update');
    assert.deepEqual(version.attributes.changes, [
      { target: 'varset', action: 'changed', field: 'description', before: '', after: 'now described' },
      { target: 'varset', action: 'changed', field: 'priority', before: false, after: true },
    ]);
    await expectNoVersion(set.id, () => patchSet(set.id, { description: 'now described', priority: true }));
    await expectNoVersion(set.id, () =>
      t.put(`/api/v2/varsets/${set.id}`, { data: { type: 'varsets', attributes: {} } }),
    );
  });

  it("a variable's addition, change and removal each make one version; a sensitive value shows only that it changed", async () => {
    const set = await createVarset(t, org);
    const vars = `/api/v2/varsets/${set.id}/relationships/vars`;
    const { version: added } = await versionOf(set.id, () =>
      t.post(vars, {
        data: {
          type: 'vars',
          attributes: { key: 'password', value: 'first-secret', category: 'terraform', sensitive: true },
        },
      }),
    );
    const variableId = added.attributes.changes[0].id;
    assert.deepEqual(added.attributes.changes, [
      {
        target: 'variable',
        id: variableId,
        key: 'password',
        category: 'terraform',
        action: 'added',
        before: null,
        after: { key: 'password', value: null, description: '', category: 'terraform', hcl: false, sensitive: true },
      },
    ]);
    const { version: changed } = await versionOf(set.id, () =>
      t.patch(`${vars}/${variableId}`, {
        data: { type: 'vars', attributes: { value: 'second-secret', description: 'rotated' } },
      }),
    );
    assert.deepEqual(changed.attributes.changes, [
      {
        target: 'variable',
        id: variableId,
        key: 'password',
        category: 'terraform',
        action: 'changed',
        field: 'value',
        before: null,
        after: null,
        sensitive: true,
      },
      {
        target: 'variable',
        id: variableId,
        key: 'password',
        category: 'terraform',
        action: 'changed',
        field: 'description',
        before: '',
        after: 'rotated',
        sensitive: false,
      },
    ]);
    // The same secret again is sealed anew, yet is no change.
    await expectNoVersion(set.id, () =>
      t.patch(`${vars}/${variableId}`, { data: { type: 'vars', attributes: { value: 'second-secret' } } }),
    );
    const { version: removed } = await versionOf(set.id, () => t.delete(`${vars}/${variableId}`));
    assert.equal(removed.attributes.changes[0].action, 'removed');
    assert.equal(removed.attributes.changes[0].before.value, null);
    const all = JSON.stringify(await versions(set.id));
    assert.ok(!all.includes('first-secret') && !all.includes('second-secret'), 'no sensitive value in any version');

    const plain = await createVar(t, set.id, { key: 'region', value: 'eu' });
    const { version: plainChange } = await versionOf(set.id, () =>
      t.patch(`${vars}/${plain.id}`, { data: { type: 'vars', attributes: { value: 'us' } } }),
    );
    assert.deepEqual(plainChange.attributes.changes, [
      {
        target: 'variable',
        id: plain.id,
        key: 'region',
        category: 'terraform',
        action: 'changed',
        field: 'value',
        before: 'eu',
        after: 'us',
        sensitive: false,
      },
    ]);
    // Made sensitive: the value it had is not shown from then on, in the version that hides it.
    const { version: hidden } = await versionOf(set.id, () =>
      t.patch(`${vars}/${plain.id}`, { data: { type: 'vars', attributes: { value: 'now-secret', sensitive: true } } }),
    );
    assert.deepEqual(
      hidden.attributes.changes.map((c: any) => [c.field, c.before, c.after, c.sensitive]),
      [
        ['value', null, null, true],
        ['sensitive', false, true, false],
      ],
    );
  });

  it('applying to and removing from workspaces and projects make a version each; applying twice makes one', async () => {
    const set = await createVarset(t, org);
    const { version: applied } = await versionOf(set.id, () =>
      t.post(`/api/v2/varsets/${set.id}/relationships/workspaces`, identifiers('workspaces', [ws])),
    );
    assert.deepEqual(applied.attributes.changes, [{ target: 'workspace', id: ws, action: 'added' }]);
    await expectNoVersion(set.id, () =>
      t.post(`/api/v2/varsets/${set.id}/relationships/workspaces`, identifiers('workspaces', [ws])),
    );
    const { version: onProject } = await versionOf(set.id, () =>
      t.post(`/api/v2/varsets/${set.id}/relationships/projects`, identifiers('projects', [prj])),
    );
    assert.deepEqual(onProject.attributes.changes, [{ target: 'project', id: prj, action: 'added' }]);
    const { version: removed } = await versionOf(set.id, () =>
      t.delete(`/api/v2/varsets/${set.id}/relationships/workspaces`, identifiers('workspaces', [ws])),
    );
    assert.deepEqual(removed.attributes.changes, [{ target: 'workspace', id: ws, action: 'removed' }]);
    const { version: replaced } = await versionOf(set.id, () =>
      t.patch(`/api/v2/varsets/${set.id}`, {
        data: {
          type: 'varsets',
          relationships: { workspaces: identifiers('workspaces', [ws]), projects: { data: [] } },
        },
      }),
    );
    assert.deepEqual(replaced.attributes.changes, [
      { target: 'workspace', id: ws, action: 'added' },
      { target: 'project', id: prj, action: 'removed' },
    ]);
  });

  it('deleting a set makes a last version that removes everything; the owners still read its history, others get a 404', async () => {
    const set = await createVarset(t, org, { vars: [{ key: 'kept', value: 'v' }], workspaces: [ws] });
    const { version } = await versionOf(set.id, () =>
      t.delete(`/api/v2/varsets/${set.id}`, undefined, { token: owners }),
    );
    assert.equal(version.attributes.action, 'delete');
    assert.equal(version.attributes['varset-name'], set.attributes.name);
    assert.deepEqual(
      version.attributes.changes.map((c: any) => [c.target, c.action, c.field ?? c.key ?? c.id]),
      [
        ['varset', 'changed', 'name'],
        ['varset', 'changed', 'description'],
        ['varset', 'changed', 'global'],
        ['varset', 'changed', 'priority'],
        ['variable', 'removed', 'kept'],
        ['workspace', 'removed', ws],
      ],
    );
    expectStatus(await t.get(`/api/v2/varsets/${set.id}`), 404);
    assert.equal((await versions(set.id, owners)).length, 2);
    // A team that may write every set, but is not the owners: a deleted set is the owners' alone.
    const writer = await teamWithToken(t, org, { 'organization-access': { 'manage-projects': true } });
    const living = await createVarset(t, org);
    expectStatus(await patchSet(living.id, { description: 'written by the team' }, writer.token), 200);
    assert.equal((await versions(living.id, writer.token)).length, 2);
    expectStatus(await t.get(`/api/v2/varsets/${set.id}/versions`, { token: writer.token }), 404);
    expectStatus(await t.get(`/api/v2/varset-versions/${version.id}`, { token: writer.token }), 404);
  });

  it("deleting a workspace or a project makes a version of each set it changes: assignments removed, a project's own sets deleted", async () => {
    const doomedWorkspace = await t.createWorkspace(org);
    const doomedProject = await t.createProject(org);
    const assigned = await createVarset(t, org, { workspaces: [ws, doomedWorkspace], projects: [prj, doomedProject] });
    const owned = await createVarset(t, org, {
      parent: { type: 'projects', id: doomedProject },
      vars: [{ key: 'secret', value: 'hunter2', sensitive: true }],
    });
    const untouched = await createVarset(t, org, { workspaces: [ws] });
    const counts = async () =>
      Promise.all([assigned.id, owned.id, untouched.id].map(async (id) => (await versions(id, owners)).length));
    assert.deepEqual(await counts(), [1, 1, 1]);

    expectStatus(await t.delete(`/api/v2/workspaces/${doomedWorkspace}`, undefined, { token: owners }), 204);
    assert.deepEqual(await counts(), [2, 1, 1]);
    const [afterWorkspace] = await versions(assigned.id, owners);
    assert.deepEqual(afterWorkspace.attributes.changes, [
      { target: 'workspace', id: doomedWorkspace, action: 'removed' },
    ]);
    assert.equal(afterWorkspace.attributes.action, 'update');
    assert.equal(afterWorkspace.attributes.actor.description, 'team owners (token "release pipeline")');

    expectStatus(await t.delete(`/api/v2/projects/${doomedProject}`, undefined, { token: owners }), 204);
    assert.deepEqual(await counts(), [3, 2, 1]);
    const [afterProject] = await versions(assigned.id, owners);
    assert.deepEqual(afterProject.attributes.changes, [{ target: 'project', id: doomedProject, action: 'removed' }]);
    const [deletion] = await versions(owned.id, owners);
    assert.equal(deletion.attributes.action, 'delete');
    assert.deepEqual(
      deletion.attributes.changes.filter((c: any) => c.target === 'variable'),
      [
        {
          target: 'variable',
          id: owned.relationships.vars.data[0].id,
          key: 'secret',
          category: 'terraform',
          action: 'removed',
          before: { key: 'secret', value: null, description: '', category: 'terraform', hcl: false, sensitive: true },
          after: null,
        },
      ],
    );
    expectStatus(await t.get(`/api/v2/varsets/${owned.id}`), 404);
    // The deletion keeps the sensitive value sealed, as every deletion does.
    const kept = await t.store.db
      .selectFrom('varset_versions')
      .select('sealed')
      .where('id', '=', deletion.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(Object.keys(JSON.parse(kept.sealed!)), [owned.relationships.vars.data[0].id]);
    assert.doesNotMatch(kept.sealed!, /hunter2/);

    // The deleted set's history says what it was; restoring it needs its project, which is gone.
    const [created] = (await versions(owned.id, owners)).slice(-1);
    const refused = await t.post(
      `/api/v2/varsets/${owned.id}/actions/rollback`,
      { data: { type: 'varset-versions', id: created.id } },
      { token: owners },
    );
    expectStatus(refused, 422);
    assert.match(
      JSON.stringify(refused.body),
      new RegExp(`the project that owned the set \\(${doomedProject}\\) no longer exists`),
    );
    // Rolled back to its first version, the set still assigned finds what is gone missing, and keeps the rest as it is.
    const [first] = (await versions(assigned.id, owners)).slice(-1);
    const missing = await t.post(
      `/api/v2/varsets/${assigned.id}/actions/rollback`,
      { data: { type: 'varset-versions', id: first.id } },
      { token: owners },
    );
    expectStatus(missing, 422);
    assert.deepEqual([...missing.body.errors[0].meta.missing].sort(), [doomedWorkspace, doomedProject].sort());
    const restored = await t.post(
      `/api/v2/varsets/${assigned.id}/actions/rollback?skip-missing=true`,
      { data: { type: 'varset-versions', id: first.id } },
      { token: owners },
    );
    expectStatus(restored, 200);
    assert.equal(restored.body.meta.version, null, 'nothing left to change');
    assert.deepEqual(
      restored.body.data.relationships.workspaces.data.map((w: any) => w.id),
      [ws],
    );
    assert.deepEqual(
      restored.body.data.relationships.projects.data.map((p: any) => p.id),
      [prj],
    );
  });

  it('writes racing on one set get distinct numbers, in the order they committed', async () => {
    const set = await createVarset(t, org);
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.post(`/api/v2/varsets/${set.id}/relationships/vars`, {
          data: { type: 'vars', attributes: { key: `raced_${i}`, category: 'terraform' } },
        }),
      ),
    );
    for (const res of responses) expectStatus(res, 200);
    const all = await versions(set.id);
    assert.deepEqual(
      all.map((v) => v.attributes.number),
      [9, 8, 7, 6, 5, 4, 3, 2, 1],
    );
    const times = all.map((v) => v.attributes['created-at']);
    assert.deepEqual([...times].sort().reverse(), times, 'newest first');
  });

  it('writes racing from two processes on one database get distinct numbers without a gap', async () => {
    const other = await t.sibling();
    try {
      const set = await createVarset(t, org);
      const write = (app: TestApp, i: number) =>
        app.post(`/api/v2/varsets/${set.id}/relationships/vars`, {
          data: { type: 'vars', attributes: { key: `two_processes_${i}`, category: 'env' } },
        });
      const responses = await Promise.all(Array.from({ length: 12 }, (_, i) => write(i % 2 ? other : t, i)));
      for (const res of responses) expectStatus(res, 200);
      const all = await versions(set.id);
      assert.deepEqual(
        all.map((v) => v.attributes.number),
        Array.from({ length: 13 }, (_, i) => 13 - i),
      );
      const added = all.flatMap((v) =>
        v.attributes.changes.filter((c: any) => c.action === 'added').map((c: any) => c.key),
      );
      assert.equal(new Set(added).size, 12, 'each version holds its own write');
    } finally {
      await other.close();
    }
  });

  it('the 404 rule: a set the token cannot read has no versions it can read', async () => {
    const set = await createVarset(t, org, { vars: [{ key: 'hidden', value: 'x' }] });
    const stranger = await teamWithToken(t, org);
    const [version] = await versions(set.id);
    expectStatus(await t.get(`/api/v2/varsets/${set.id}/versions`, { token: stranger.token }), 404);
    expectStatus(await t.get(`/api/v2/varset-versions/${version.id}`, { token: stranger.token }), 404);
    const elsewhere = await t.createOrganization();
    const otherOwners = await teamToken(t, await ownersTeam(t, elsewhere));
    expectStatus(await t.get(`/api/v2/varsets/${set.id}/versions`, { token: otherOwners }), 404);
    expectStatus(await t.get('/api/v2/varsets/varset-missing/versions'), 404);
    expectStatus(await t.get('/api/v2/varset-versions/vsv-missing'), 404);
  });

  it('lists page like every other list, and refuses what it does not support with a 400', async () => {
    const set = await createVarset(t, org);
    for (const priority of [true, false, true]) expectStatus(await patchSet(set.id, { priority }), 200);
    const res = await t.get(`/api/v2/varsets/${set.id}/versions?page%5Bsize%5D=2&page%5Bnumber%5D=2`);
    expectStatus(res, 200);
    assert.deepEqual(
      res.body.data.map((v: any) => v.attributes.number),
      [2, 1],
    );
    assert.equal(res.body.meta.pagination['total-count'], 4);
    assert.equal(res.body.meta.pagination['prev-page'], 1);
    expectStatus(await t.get(`/api/v2/varsets/${set.id}/versions?sort=number`), 400);
    expectStatus(await t.get(`/api/v2/varsets/${set.id}/versions?page%5Bsize%5D=0`), 400);
  });

  it("effective variables name the version of each set: a workspace's its newest, a run's the one it was created with", async () => {
    const w = await t.createWorkspace(org);
    const set = await createVarset(t, org, { workspaces: [w], vars: [{ key: 'versioned', value: 'one' }] });
    expectStatus(await patchSet(set.id, { description: 'second version' }), 200);
    const versionIn = async (path: string) => {
      const res = await t.get(path);
      expectStatus(res, 200);
      return res.body.data.find((v: any) => v.attributes.key === 'versioned').attributes.source.varset.version;
    };
    assert.equal(await versionIn(`/api/v2/workspaces/${w}/effective-variables`), 2);
    const cv = await createUploadedConfigurationVersion(t, w);
    const run = await t.post('/api/v2/runs', {
      data: {
        type: 'runs',
        relationships: {
          workspace: { data: { type: 'workspaces', id: w } },
          'configuration-version': { data: { type: 'configuration-versions', id: cv } },
        },
      },
    });
    expectStatus(run, 201);
    expectStatus(await patchSet(set.id, { description: 'third version' }), 200);
    assert.equal(await versionIn(`/api/v2/runs/${run.body.data.id}/effective-variables`), 2);
    assert.equal(await versionIn(`/api/v2/workspaces/${w}/effective-variables`), 3);
  });
});
