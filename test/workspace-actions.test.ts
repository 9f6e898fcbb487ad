import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestApp } from './support/app.js';
import { grantWorkspace, organizationToken, teamWithToken } from './support/factories/access.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';

const lockPath = (id: string, action: 'lock' | 'unlock' | 'force-unlock' | 'safe-delete') =>
  `/api/v2/workspaces/${id}/actions/${action}`;

describe(`workspace permissions, locks and safe deletion (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
  });
  after(async () => t.close());

  it('answers each caller’s own permissions on the workspace', async () => {
    const id = await t.createWorkspace(org);
    const reader = await teamWithToken(t, org);
    await grantWorkspace(t, reader.teamId, id, { access: 'read' });
    const writer = await teamWithToken(t, org);
    await grantWorkspace(t, writer.teamId, id, { access: 'write' });
    const admin = await teamWithToken(t, org);
    await grantWorkspace(t, admin.teamId, id, { access: 'admin' });
    const custom = await teamWithToken(t, org);
    await grantWorkspace(t, custom.teamId, id, {
      access: 'custom',
      runs: 'plan',
      variables: 'none',
      'workspace-locking': true,
      'run-tasks': true,
    });
    const organization = await organizationToken(t, org);

    const permissions = async (token?: string) => {
      const res = await t.get(`/api/v2/workspaces/${id}`, token ? { token } : {});
      expectStatus(res, 200);
      return res.body.data.attributes.permissions;
    };
    const admins = await permissions();
    assert.ok(
      [
        'can-update',
        'can-destroy',
        'can-force-delete',
        'can-queue-run',
        'can-queue-apply',
        'can-lock',
        'can-unlock',
        'can-force-unlock',
        'can-update-variable',
        'can-manage-run-tasks',
      ].every((p) => admins[p] === true),
    );
    assert.equal(admins['can-read-state-versions'], false, 'varsetd serves no state versions');

    const r = await permissions(reader.token);
    assert.deepEqual(
      [
        r['can-update'],
        r['can-destroy'],
        r['can-queue-run'],
        r['can-read-variable'],
        r['can-update-variable'],
        r['can-lock'],
        r['can-force-unlock'],
      ],
      [false, false, false, true, false, false, false],
    );
    const w = await permissions(writer.token);
    assert.deepEqual(
      [
        w['can-update'],
        w['can-destroy'],
        w['can-queue-run'],
        w['can-queue-apply'],
        w['can-update-variable'],
        w['can-lock'],
        w['can-force-unlock'],
      ],
      [false, false, true, true, true, true, false],
    );
    const a = await permissions(admin.token);
    assert.deepEqual(
      [a['can-update'], a['can-destroy'], a['can-force-delete'], a['can-force-unlock']],
      [true, true, false, true],
      'admins force-delete only where the organization allows it',
    );
    const c = await permissions(custom.token);
    assert.deepEqual(
      [c['can-queue-run'], c['can-queue-apply'], c['can-read-variable'], c['can-lock'], c['can-manage-run-tasks']],
      [true, false, false, true, true],
    );
    const o = await permissions(organization);
    assert.deepEqual([o['can-update'], o['can-queue-run'], o['can-force-delete']], [true, false, true]);
  });

  it('never shares one rendering of a set with included workspaces between callers with different permissions', async () => {
    const id = await t.createWorkspace(org);
    const set = await t.post(`/api/v2/organizations/${org}/varsets`, {
      data: {
        type: 'varsets',
        attributes: { name: `shared-${id}` },
        relationships: { workspaces: { data: [{ type: 'workspaces', id }] } },
      },
    });
    expectStatus(set, 200);
    const reader = await teamWithToken(t, org, { 'organization-access': { 'read-workspaces': true } });
    const url = `/api/v2/varsets/${set.body.data.id}?include=workspaces`;
    const included = async (token?: string) =>
      (await t.get(url, token ? { token } : {})).body.included.find((r: any) => r.id === id).attributes.permissions;
    assert.equal((await included())['can-update'], true);
    assert.equal((await included(reader.token))['can-update'], false);
    assert.equal((await included())['can-update'], true);
  });

  it('locks once, unlocks by the holder only, force-unlocks for admins, with HCP Terraform’s 409s', async () => {
    const id = await t.createWorkspace(org);
    const team = await teamWithToken(t, org);
    await grantWorkspace(t, team.teamId, id, { access: 'write' });

    const locked = await t.post(lockPath(id, 'lock'), { reason: 'maintenance' }, { token: team.token });
    expectStatus(locked, 200);
    assert.equal(locked.body.data.attributes.locked, true);
    assert.equal(locked.body.data.attributes['lock-reason'], 'maintenance');
    assert.deepEqual(locked.body.data.relationships['locked-by'].data, { id: team.teamId, type: 'teams' });

    const again = await t.post(lockPath(id, 'lock'), undefined);
    assert.equal(again.status, 409);
    const byOther = await t.post(lockPath(id, 'unlock'));
    assert.equal(byOther.status, 409);
    assert.match(byOther.body.errors[0].detail, /is locked by Team/);
    assert.equal(
      (await t.post(lockPath(id, 'force-unlock'), undefined, { token: team.token })).status,
      404,
      'a write team may not force-unlock',
    );

    const unlocked = await t.post(lockPath(id, 'unlock'), undefined, { token: team.token });
    expectStatus(unlocked, 200);
    assert.equal(unlocked.body.data.attributes.locked, false);
    assert.deepEqual(unlocked.body.data.relationships['locked-by'].data, null);
    assert.equal((await t.post(lockPath(id, 'unlock'), undefined, { token: team.token })).status, 409);
    assert.equal((await t.post(lockPath(id, 'force-unlock'))).status, 409);

    const mine = await t.post(lockPath(id, 'lock'));
    assert.equal(
      mine.body.data.relationships['locked-by'].data.type,
      'users',
      'the site administrator locks as a user named by its token',
    );
    const forced = await t.post(lockPath(id, 'force-unlock'));
    assert.equal(forced.body.data.attributes.locked, false);

    const reader = await teamWithToken(t, org);
    await grantWorkspace(t, reader.teamId, id, { access: 'read' });
    assert.equal((await t.post(lockPath(id, 'lock'), undefined, { token: reader.token })).status, 404);
  });

  it('safe-deletes an unlocked workspace, by id or by name, and refuses a locked one with 409', async () => {
    const id = await t.createWorkspace(org, { name: 'safe-1' });
    expectStatus(await t.post(lockPath(id, 'lock')), 200);
    const refused = await t.post(lockPath(id, 'safe-delete'));
    assert.equal(refused.status, 409);
    assert.match(refused.body.errors[0].detail, /locked/);
    expectStatus(await t.get(`/api/v2/workspaces/${id}`), 200);
    expectStatus(await t.post(lockPath(id, 'force-unlock')), 200);
    expectStatus(await t.post(lockPath(id, 'safe-delete')), 204);
    assert.equal((await t.get(`/api/v2/workspaces/${id}`)).status, 404);

    await t.createWorkspace(org, { name: 'safe-2' });
    expectStatus(await t.post(`/api/v2/organizations/${org}/workspaces/safe-2/actions/safe-delete`), 204);
    assert.equal((await t.post(`/api/v2/organizations/${org}/workspaces/safe-2/actions/safe-delete`)).status, 404);
  });
});
