import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestApp } from './support/app.js';
import { ownersTeam, teamToken, teamWithToken, grantWorkspace } from './support/factories/access.js';
import { createUploadedConfigurationVersion } from './support/factories/runs.js';
import {
  createVar,
  createVarset,
  expectRejected,
  identifiers,
  listVersions,
  snapshot,
  varsPath,
} from './support/factories/varsets.js';
import { expectStatus, type ApiResponse, errorOf } from './support/requests.js';
import { storeKind } from './support/store.js';

/** `POST /varsets/:id/actions/rollback`: the set again as it was at a version, as a new version, under every rule a write obeys. */
describe(`rolling a set back (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  let owners: string;
  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
    owners = await teamToken(t, await ownersTeam(t, org));
  });
  after(async () => t.close());

  const versions = (setId: string) => listVersions(t, setId);
  const versionNumbered = async (setId: string, number: number) =>
    (await versions(setId)).find((v) => v.attributes.number === number)!;
  const rollback = async (
    setId: string,
    versionId: string,
    options: { token?: string; query?: string } = {},
  ): Promise<ApiResponse> =>
    t.post(
      `/api/v2/varsets/${setId}/actions/rollback${options.query ?? ''}`,
      { data: { type: 'varset-versions', id: versionId } },
      { token: options.token ?? owners },
    );
  const show = async (setId: string) => {
    const res = await t.get(`/api/v2/varsets/${setId}?include=vars`);
    expectStatus(res, 200);
    return res.body;
  };
  const variables = (doc: any) =>
    (doc.included ?? [])
      .map((v: any) => [v.attributes.key, v.attributes.value, v.attributes.sensitive])
      .sort((a: string[], b: string[]) => (a[0]! < b[0]! ? -1 : 1));
  /** The values a run of the workspace is given, as `varsetd exec` reads them. */
  async function valuesOfARun(workspaceId: string): Promise<Record<string, string>> {
    const cv = await createUploadedConfigurationVersion(t, workspaceId);
    const run = await t.post('/api/v2/runs', {
      data: {
        type: 'runs',
        relationships: {
          workspace: { data: { type: 'workspaces', id: workspaceId } },
          'configuration-version': { data: { type: 'configuration-versions', id: cv } },
        },
      },
    });
    expectStatus(run, 201);
    const opened = await t.get(`/api/v2/runs/${run.body.data.id}/opened-variables`);
    expectStatus(opened, 200);
    return Object.fromEntries(opened.body.data.map((v: any) => [v.attributes.key, v.attributes.value]));
  }

  it('puts attributes back as a new version that names the one restored', async () => {
    const set = await createVarset(t, org, { attributes: { description: 'first' } });
    expectStatus(
      await t.patch(`/api/v2/varsets/${set.id}`, {
        data: {
          type: 'varsets',
          attributes: { name: `${set.attributes.name}-renamed`, description: 'second', priority: true },
        },
      }),
      200,
    );
    const first = await versionNumbered(set.id, 1);
    const res = await rollback(set.id, first.id);
    expectStatus(res, 200);
    assert.equal(res.body.data.id, set.id);
    assert.deepEqual(
      [res.body.data.attributes.name, res.body.data.attributes.description, res.body.data.attributes.priority],
      [set.attributes.name, 'first', false],
    );
    const [made] = await versions(set.id);
    assert.deepEqual(
      [made.attributes.number, made.attributes.action, made.attributes['rolled-back-to']],
      [3, 'rollback', 1],
    );
    assert.deepEqual(res.body.meta.version, { id: made.id, number: 3 });
    assert.deepEqual(made.relationships.organization.data, { id: org, type: 'organizations' });
    assert.deepEqual(
      made.attributes.changes.map((c: any) => [c.field, c.before, c.after]),
      [
        ['name', `${set.attributes.name}-renamed`, set.attributes.name],
        ['description', 'second', 'first'],
        ['priority', true, false],
      ],
    );
    assert.equal(made.attributes['request-id'], String(res.headers['x-request-id']));
    // Rolling back to what the set already is changes nothing, and makes no version.
    const idle = await rollback(set.id, first.id);
    expectStatus(idle, 200);
    assert.deepEqual(idle.body.meta, { changes: [], version: null });
    assert.equal((await versions(set.id)).length, 3);
  });

  it('a dry run answers the set as it would be and what would change, and changes nothing', async () => {
    const set = await createVarset(t, org, { vars: [{ key: 'token', value: 'dry-secret', sensitive: true }] });
    const first = await versionNumbered(set.id, 1);
    const [variable] = (await show(set.id)).included;
    expectStatus(
      await t.patch(`${varsPath(set.id)}/${variable.id}`, {
        data: { type: 'vars', attributes: { value: 'wet-secret' } },
      }),
      200,
    );
    expectStatus(
      await t.patch(`/api/v2/varsets/${set.id}`, { data: { type: 'varsets', attributes: { description: 'later' } } }),
      200,
    );
    const before = await show(set.id);
    const everything = await snapshot(t, org);
    const dry = await rollback(set.id, first.id, { query: '?dry-run=true' });
    expectStatus(dry, 200);
    assert.equal(dry.body.data.attributes.description, '');
    assert.deepEqual(
      dry.body.meta.changes.map((c: any) => [c.target, c.field, c.before, c.after, c.sensitive]),
      [
        ['varset', 'description', 'later', '', undefined],
        ['variable', 'value', null, null, true],
      ],
    );
    assert.ok(!JSON.stringify(dry.body).includes('dry-secret'));
    assert.deepEqual(await show(set.id), before, 'a dry run changes nothing');
    assert.deepEqual(await snapshot(t, org), everything);
    assert.equal((await versions(set.id)).length, 3);
    // A dry run answers the 422 the rollback would get.
    expectStatus(await t.delete(`/api/v2/varsets/${set.id}`), 204);
    const [deletion] = await versions(set.id);
    expectStatus(await rollback(set.id, deletion.id, { query: '?dry-run=true' }), 422);
    expectStatus(await rollback(set.id, first.id, { query: '?dry-run=true' }), 200);
    expectStatus(await t.get(`/api/v2/varsets/${set.id}`), 404);
  });

  it('puts variables back with their values: a sensitive one reaches a run again, and never a response', async () => {
    const ws = await t.createWorkspace(org);
    const set = await createVarset(t, org, {
      workspaces: [ws],
      vars: [
        { key: 'password', value: 'original-secret', sensitive: true },
        { key: 'region', value: 'eu' },
      ],
    });
    const at = await versionNumbered(set.id, 1);
    const doc = await show(set.id);
    const byKey = Object.fromEntries(doc.included.map((v: any) => [v.attributes.key, v.id]));
    expectStatus(
      await t.patch(`${varsPath(set.id)}/${byKey.password}`, {
        data: { type: 'vars', attributes: { value: 'rotated-secret' } },
      }),
      200,
    );
    expectStatus(await t.delete(`${varsPath(set.id)}/${byKey.region}`), 204);
    await createVar(t, set.id, { key: 'added_later', value: 'x' });
    assert.equal((await valuesOfARun(ws)).password, 'rotated-secret');

    const res = await rollback(set.id, at.id);
    expectStatus(res, 200);
    assert.ok(!JSON.stringify(res.body).includes('original-secret'), 'no sensitive value in the response');
    assert.deepEqual(variables(await show(set.id)), [
      ['password', null, true],
      ['region', 'eu', false],
    ]);
    const values = await valuesOfARun(ws);
    assert.equal(values.password, 'original-secret');
    assert.equal(values.region, 'eu');
    assert.equal(values.added_later, undefined);
    // The restored variables keep their ids.
    assert.deepEqual(
      new Set((await show(set.id)).included.map((v: any) => v.id)),
      new Set([byKey.password, byKey.region]),
    );
    assert.ok(!JSON.stringify(await versions(set.id)).includes('original-secret'));
  });

  it('a variable made sensitive since stays sensitive when rolled back to a version where it was not', async () => {
    const set = await createVarset(t, org, { vars: [{ key: 'api_key', value: 'was-public' }] });
    const at = await versionNumbered(set.id, 1);
    const [variable] = (await show(set.id)).included;
    expectStatus(
      await t.patch(`${varsPath(set.id)}/${variable.id}`, {
        data: { type: 'vars', attributes: { value: 'now-secret', sensitive: true } },
      }),
      200,
    );
    expectStatus(await rollback(set.id, at.id), 200);
    assert.deepEqual(variables(await show(set.id)), [['api_key', null, true]]);
  });

  it('puts assignments back; a workspace that is gone is a 422 naming it, unless asked to restore the rest', async () => {
    const kept = await t.createWorkspace(org);
    const doomed = await t.createWorkspace(org);
    const prj = await t.createProject(org);
    const set = await createVarset(t, org, { workspaces: [kept, doomed], projects: [prj] });
    const at = await versionNumbered(set.id, 1);
    expectStatus(
      await t.patch(`/api/v2/varsets/${set.id}`, {
        data: { type: 'varsets', relationships: { workspaces: { data: [] }, projects: { data: [] } } },
      }),
      200,
    );
    expectStatus(await t.delete(`/api/v2/workspaces/${doomed}`), 204);

    const refused = await expectRejected(t, org, 422, () => rollback(set.id, at.id));
    assert.match(errorOf(refused).detail!, new RegExp(`${doomed}.*skip-missing=true`));
    assert.deepEqual(
      [refused.body.errors[0].code, refused.body.errors[0].meta],
      ['missing-assignments', { missing: [doomed] }],
    );
    assert.equal(errorOf(refused).source?.pointer, '/data/id');
    expectStatus(await rollback(set.id, at.id, { query: '?skip-missing=false' }), 422);

    const res = await rollback(set.id, at.id, { query: '?skip-missing=true' });
    expectStatus(res, 200);
    assert.deepEqual(res.body.data.relationships.workspaces.data, [{ id: kept, type: 'workspaces' }]);
    assert.deepEqual(res.body.data.relationships.projects.data, [{ id: prj, type: 'projects' }]);
  });

  it('restores a deleted set under its id, as the owners may; its deletion itself cannot be restored', async () => {
    const ws = await t.createWorkspace(org);
    const set = await createVarset(t, org, {
      workspaces: [ws],
      vars: [{ key: 'db_password', value: 'before-deletion', sensitive: true }],
    });
    expectStatus(await t.delete(`/api/v2/varsets/${set.id}`), 204);
    const [deletion, created] = await versions(set.id);
    assert.equal(deletion.attributes.action, 'delete');

    const writer = await teamWithToken(t, org, { 'organization-access': { 'manage-projects': true } });
    expectStatus(await rollback(set.id, created.id, { token: writer.token }), 404);
    const gone = await expectRejected(t, org, 422, () => rollback(set.id, deletion.id));
    assert.match(errorOf(gone).detail!, /deletion/);

    const res = await rollback(set.id, created.id);
    expectStatus(res, 200);
    assert.equal(res.body.data.id, set.id);
    assert.equal(res.body.data.attributes.name, set.attributes.name);
    assert.deepEqual(res.body.data.relationships.workspaces.data, [{ id: ws, type: 'workspaces' }]);
    assert.equal((await valuesOfARun(ws)).db_password, 'before-deletion');
    const [restored] = await versions(set.id);
    assert.deepEqual(
      [restored.attributes.number, restored.attributes.action, restored.attributes['rolled-back-to']],
      [3, 'rollback', 1],
    );
  });

  it('obeys the global rule: a 422 naming the variable and the set it would clash with, and nothing changes', async () => {
    const a = await createVarset(t, org, { attributes: { global: true }, vars: [{ key: 'shared_key', value: 'a' }] });
    const at = await versionNumbered(a.id, 1);
    const [variable] = (await show(a.id)).included;
    expectStatus(await t.delete(`${varsPath(a.id)}/${variable.id}`), 204);
    const b = await createVarset(t, org, { attributes: { global: true }, vars: [{ key: 'shared_key', value: 'b' }] });
    const res = await expectRejected(t, org, 422, () => rollback(a.id, at.id));
    assert.match(errorOf(res).detail!, new RegExp(`"shared_key".*"${b.attributes.name}"`));
    assert.equal((await versions(a.id)).length, 2);
  });

  it('obeys the name rule: a name another set took since is a 422', async () => {
    const a = await createVarset(t, org);
    const at = await versionNumbered(a.id, 1);
    expectStatus(
      await t.patch(`/api/v2/varsets/${a.id}`, {
        data: { type: 'varsets', attributes: { name: `${a.attributes.name}-moved` } },
      }),
      200,
    );
    await createVarset(t, org, { attributes: { name: a.attributes.name } });
    await expectRejected(t, org, 422, () => rollback(a.id, at.id));
  });

  it('with if-newest-version, rolls back only while that version is the newest: a 409 otherwise, and nothing changes', async () => {
    const set = await createVarset(t, org, { attributes: { name: 'guarded' } });
    await createVar(t, set.id, { key: 'mine', value: '1', category: 'terraform' });
    const [mine, before] = await versions(set.id);
    const guarded = (newest: string, query = '') =>
      rollback(set.id, before.id, { query: `?if-newest-version=${newest}${query}` });
    // Someone else's write after this one: the rollback would take it back too.
    await createVar(t, set.id, { key: 'theirs', value: '2', category: 'terraform' });
    for (const query of ['', '&dry-run=true']) {
      const refused = await expectRejected(t, org, 409, () => guarded(mine.id, query));
      assert.match(errorOf(refused).detail!, /the set changed since: its newest version is 3/);
    }
    // A version of another set, or one that does not exist, is never this set's newest.
    const other = await createVarset(t, org);
    const [ofOther] = await versions(other.id);
    await expectRejected(t, org, 409, () => guarded(ofOther.id));
    await expectRejected(t, org, 409, () => guarded('vsv-missing'));
    expectStatus(await rollback(set.id, before.id, { query: '?if-newest-version=' }), 400);

    const [theirs] = await versions(set.id);
    const made = await guarded(theirs.id);
    expectStatus(made, 200);
    assert.equal(made.body.meta.version.number, 4);
    assert.deepEqual(variables(await show(set.id)), []);
  });

  it('takes the permissions of a write, the 404 rule, a 400 for a bad query and a 422 for a bad body', async () => {
    const ws = await t.createWorkspace(org);
    const set = await createVarset(t, org, { workspaces: [ws] });
    expectStatus(
      await t.patch(`/api/v2/varsets/${set.id}`, { data: { type: 'varsets', attributes: { description: 'changed' } } }),
      200,
    );
    const at = await versionNumbered(set.id, 1);
    const reader = await teamWithToken(t, org);
    await grantWorkspace(t, reader.teamId, ws, { access: 'read' });
    assert.equal(
      (await t.get(`/api/v2/varsets/${set.id}/versions`, { token: reader.token })).status,
      200,
      'the reader reads the history',
    );
    await expectRejected(t, org, 404, () => rollback(set.id, at.id, { token: reader.token }));
    const stranger = await teamWithToken(t, org);
    await expectRejected(t, org, 404, () => rollback(set.id, at.id, { token: stranger.token }));
    const other = await createVarset(t, org);
    await expectRejected(t, org, 404, () => rollback(other.id, at.id));
    await expectRejected(t, org, 404, () => rollback(set.id, 'vsv-missing'));
    expectStatus(await rollback(set.id, at.id, { query: '?skip-missing=yes' }), 400);
    expectStatus(await rollback(set.id, at.id, { query: '?force=true' }), 400);
    // A body of the wrong shape is a 422 at its member, as every body of the API.
    assert.equal(
      errorOf(await t.post(`/api/v2/varsets/${set.id}/actions/rollback`, { data: { type: 'varsets', id: at.id } }))
        .source?.pointer,
      '/data/type',
    );
    expectStatus(
      await t.post(`/api/v2/varsets/${set.id}/actions/rollback`, { data: { type: 'varset-versions' } }),
      422,
    );
    assert.equal((await versions(set.id)).length, 2);
    expectStatus(
      await t.post(
        `/api/v2/varsets/${set.id}/actions/rollback`,
        { data: { type: 'varset-versions', id: at.id } },
        { token: owners },
      ),
      200,
    );
    assert.deepEqual(identifiers('workspaces', [ws]).data, (await show(set.id)).data.relationships.workspaces.data);
  });
});
