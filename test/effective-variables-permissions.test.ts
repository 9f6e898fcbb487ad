import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestApp } from './support/app.js';
import { grantWorkspace, organizationToken, teamWithToken } from './support/factories/access.js';
import { createRun } from './support/factories/runs.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';

/** Who may read and change a workspace's variables and effective variables, through the one policy. */
describe(`workspace and effective variables: permissions (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  let ws: string;
  let varId: string;
  let runId: string;
  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
    ws = await t.createWorkspace(org);
    const res = await t.post(`/api/v2/workspaces/${ws}/vars`, {
      data: { type: 'vars', attributes: { key: 'k', value: 'v', category: 'terraform' } },
    });
    expectStatus(res, 201);
    varId = res.body.data.id;
    runId = (await createRun(t, ws)).id;
  });
  after(async () => t.close());

  const reads = () => [
    `/api/v2/workspaces/${ws}/vars`,
    `/api/v2/workspaces/${ws}/vars/${varId}`,
    `/api/v2/workspaces/${ws}/all-vars`,
    `/api/v2/workspaces/${ws}/effective-variables`,
    `/api/v2/runs/${runId}/effective-variables`,
  ];

  async function readStatuses(token: string): Promise<number[]> {
    return Promise.all(reads().map(async (url) => (await t.get(url, { token })).status));
  }

  /** Create, update and delete of a throw-away variable; statuses in that order. */
  async function writeStatuses(token: string): Promise<number[]> {
    const key = `w${Math.random().toString(36).slice(2, 8)}`;
    const created = await t.post(
      `/api/v2/workspaces/${ws}/vars`,
      { data: { type: 'vars', attributes: { key, category: 'env' } } },
      { token },
    );
    // Update and delete something that exists whatever the create answered.
    const target = created.status === 201 ? created.body.data.id : varId;
    const updated = await t.patch(
      `/api/v2/workspaces/${ws}/vars/${target}`,
      { data: { type: 'vars', attributes: { description: 'x' } } },
      { token },
    );
    const deleted = await t.delete(`/api/v2/workspaces/${ws}/vars/${target}`, undefined, { token });
    return [created.status, updated.status, deleted.status];
  }

  it('a team with read access reads everything and changes nothing', async () => {
    const { teamId, token } = await teamWithToken(t, org);
    await grantWorkspace(t, teamId, ws, { access: 'read' });
    assert.deepEqual(await readStatuses(token), [200, 200, 200, 200, 200]);
    assert.deepEqual(await writeStatuses(token), [404, 404, 404]);
    assert.equal((await t.get(`/api/v2/workspaces/${ws}/vars/${varId}`)).body.data.attributes.description, '');
  });

  it('a team with write access also creates, updates and deletes workspace variables', async () => {
    const { teamId, token } = await teamWithToken(t, org);
    await grantWorkspace(t, teamId, ws, { access: 'write' });
    assert.deepEqual(await readStatuses(token), [200, 200, 200, 200, 200]);
    assert.deepEqual(await writeStatuses(token), [201, 200, 204]);
  });

  it('custom access without variables reads runs but none of the variables', async () => {
    const { teamId, token } = await teamWithToken(t, org);
    await grantWorkspace(t, teamId, ws, { access: 'custom', runs: 'read', variables: 'none' });
    expectStatus(await t.get(`/api/v2/runs/${runId}`, { token }), 200);
    assert.deepEqual(await readStatuses(token), [404, 404, 404, 404, 404]);
  });

  it('custom access with read variables reads them, and cannot write', async () => {
    const { teamId, token } = await teamWithToken(t, org);
    await grantWorkspace(t, teamId, ws, { access: 'custom', runs: 'read', variables: 'read' });
    assert.deepEqual(await readStatuses(token), [200, 200, 200, 200, 200]);
    assert.deepEqual(await writeStatuses(token), [404, 404, 404]);
  });

  it('a team without access to the workspace, or of another organization, gets the 404 of a missing one', async () => {
    const { token } = await teamWithToken(t, org);
    assert.deepEqual(await readStatuses(token), [404, 404, 404, 404, 404]);
    assert.deepEqual(await writeStatuses(token), [404, 404, 404]);
    const stranger = await teamWithToken(t, await t.createOrganization(), {
      'organization-access': { 'manage-workspaces': true },
    });
    assert.deepEqual(await readStatuses(stranger.token), [404, 404, 404, 404, 404]);
    const res = await t.get(`/api/v2/workspaces/${ws}/all-vars`, { token: stranger.token });
    assert.deepEqual(res.body, { errors: [{ status: '404', title: 'not found' }] });
  });

  it('the organization token reads and writes workspace variables', async () => {
    const token = await organizationToken(t, org);
    assert.deepEqual(await readStatuses(token), [200, 200, 200, 200, 200]);
    assert.deepEqual(await writeStatuses(token), [201, 200, 204]);
  });
});
