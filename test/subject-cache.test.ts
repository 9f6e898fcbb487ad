import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { findCredentialsVersion } from '../src/auth/store.js';
import { QueryCounter } from '../src/db/query-counter.js';
import { randomAlphanumeric } from '../src/common/ids.js';
import { TestApp } from './support/app.js';
import {
  createTeam,
  grantProject,
  grantWorkspace,
  organizationToken,
  teamToken,
  teamWithToken,
} from './support/factories/access.js';
import { createVarset } from './support/factories/varsets.js';
import { expectStatus, UNAUTHORIZED, type ApiResponse } from './support/requests.js';
import { storeKind } from './support/store.js';

/**
 * Each process keeps the subjects of the tokens it has seen. Two apps on one database stand for
 * two processes: what one changes (a token, a team's access, a grant, an organization's
 * setting) must hold in the other at its very next request, though the other has the token's
 * subject in hand.
 */
describe(`subjects kept per process (${storeKind})`, () => {
  let t: TestApp;
  let other: TestApp;
  const counter = new QueryCounter();
  let org: string;
  let projectId: string;
  let workspaceId: string;

  before(async () => {
    t = await TestApp.start();
    other = await t.sibling((store) => ({ ...store, db: store.db.withPlugin(counter) }));
    org = await t.createOrganization();
    projectId = await t.createProject(org);
    workspaceId = await t.createWorkspace(org, { projectId });
  });
  after(async () => {
    await other.close();
    await t.close();
  });

  async function statementsOf(url: string, token: string): Promise<number> {
    counter.count = 0;
    expectStatus(await other.get(url, { token }), 200);
    return counter.count;
  }

  it('a known token costs one statement, the credentials version, instead of its token and its team grants', async () => {
    const { teamId, token } = await teamWithToken(t, org);
    await grantWorkspace(t, teamId, workspaceId, { access: 'read' });
    const url = `/api/v2/workspaces/${workspaceId}`;
    const first = await statementsOf(url, token);
    const again = await statementsOf(url, token);
    // Besides the version, the first request read the token and the team's workspace and project
    // grants, and recorded the token's first use (a write, which first checks the schema: src/db/schema-guard.ts).
    assert.equal(first - again, 5, `first ${first}, again ${again}`);
  });

  it("showing a set with a known token is one statement, the set's, which reads the credentials version too", async () => {
    const set = await createVarset(t, org, { workspaces: [workspaceId] });
    const token = await organizationToken(t, org);
    for (const url of [`/api/v2/varsets/${set.id}`, `/api/v2/varsets/${set.id}?include=vars`]) {
      await statementsOf(url, token);
      // A miss, then a hit of the response cache: the statement reads the set or only its versions.
      assert.equal(await statementsOf(url, token), 1, url);
      assert.equal(await statementsOf(`${url}${url.includes('?') ? '&' : '?'}`, token), 1, `${url} (another key)`);
    }
  });

  it("a set's show and a workspace's sets, with a token kept in the other process, answer what the credentials are now", async () => {
    const set = await createVarset(t, org, { workspaces: [workspaceId] });
    for (const url of [`/api/v2/varsets/${set.id}`, `/api/v2/workspaces/${workspaceId}/varsets`]) {
      const { teamId, token } = await teamWithToken(t, org);
      const grant = await grantWorkspace(t, teamId, workspaceId, { access: 'read' });
      expectStatus(await other.get(url, { token }), 200);
      expectStatus(await t.delete(`/api/v2/team-workspaces/${grant}`), 204);
      expectStatus(await other.get(url, { token }), 404);
      await grantWorkspace(t, teamId, workspaceId, { access: 'read' });
      expectStatus(await other.get(url, { token }), 200);
      expectStatus(await t.delete(`/api/v2/teams/${teamId}/authentication-token`), 204);
      const refused = await other.get(url, { token });
      assert.deepEqual([refused.status, refused.body], [401, UNAUTHORIZED], url);
    }
    // A variable's write with a token kept in the other process (one that may write it): refused once it is revoked.
    const writer = await organizationToken(t, org);
    const writable = await createVarset(t, org, { workspaces: [workspaceId] });
    const add = (key: string) =>
      other.post(
        `/api/v2/varsets/${writable.id}/relationships/vars`,
        { data: { type: 'vars', attributes: { key, value: 'x', category: 'terraform' } } },
        { token: writer },
      );
    expectStatus(await add('before_revocation'), 200);
    expectStatus(await t.delete(`/api/v2/organizations/${org}/authentication-token`), 204);
    const write = await add('after_revocation');
    assert.deepEqual([write.status, write.body], [401, UNAUTHORIZED]);
    const vars = await t.get(`/api/v2/varsets/${writable.id}/relationships/vars`);
    assert.deepEqual(
      vars.body.data.map((v: { attributes: { key: string } }) => v.attributes.key),
      ['before_revocation'],
      'the refused write made nothing',
    );
    // What is not there: the token is checked all the same.
    const token = await organizationToken(t, org);
    expectStatus(await other.get(`/api/v2/workspaces/${workspaceId}/varsets`, { token }), 200);
    await t.delete(`/api/v2/organizations/${org}/authentication-token`);
    for (const url of ['/api/v2/varsets/varset-1111111111111111', '/api/v2/workspaces/ws-1111111111111111/varsets']) {
      const missing = await other.get(url, { token });
      assert.deepEqual([missing.status, missing.body], [401, UNAUTHORIZED], url);
    }
  });

  it('a token revoked in one process is refused by the other at once', async () => {
    const teamId = await createTeam(t, org, { 'organization-access': { 'read-workspaces': true } });
    const token = await teamToken(t, teamId);
    expectStatus(await other.get(`/api/v2/workspaces/${workspaceId}`, { token }), 200);
    expectStatus(await t.delete(`/api/v2/teams/${teamId}/authentication-token`), 204);
    const refused = await other.get(`/api/v2/workspaces/${workspaceId}`, { token });
    assert.deepEqual([refused.status, refused.body], [401, UNAUTHORIZED]);
  });

  it("a team's deletion, and a token replaced by a new one, hold in the other process at once", async () => {
    const teamId = await createTeam(t, org, { 'organization-access': { 'read-workspaces': true } });
    const replaced = await teamToken(t, teamId);
    expectStatus(await other.get(`/api/v2/workspaces/${workspaceId}`, { token: replaced }), 200);
    const token = await teamToken(t, teamId);
    expectStatus(await other.get(`/api/v2/workspaces/${workspaceId}`, { token: replaced }), 401);
    expectStatus(await other.get(`/api/v2/workspaces/${workspaceId}`, { token }), 200);
    expectStatus(await t.delete(`/api/v2/teams/${teamId}`), 204);
    expectStatus(await other.get(`/api/v2/workspaces/${workspaceId}`, { token }), 401);
  });

  it("a team's organization access changed in one process holds in the other at once", async () => {
    const teamId = await createTeam(t, org, { 'organization-access': { 'read-workspaces': true } });
    const token = await teamToken(t, teamId);
    expectStatus(await other.get(`/api/v2/workspaces/${workspaceId}`, { token }), 200);
    const restrict = await t.patch(`/api/v2/teams/${teamId}`, {
      data: { type: 'teams', attributes: { 'organization-access': { 'read-workspaces': false } } },
    });
    expectStatus(restrict, 200);
    expectStatus(await other.get(`/api/v2/workspaces/${workspaceId}`, { token }), 404);
  });

  it('workspace and project grants given and taken in one process hold in the other at once', async () => {
    const { teamId, token } = await teamWithToken(t, org);
    const url = `/api/v2/workspaces/${workspaceId}`;
    expectStatus(await other.get(url, { token }), 404);
    const grant = await grantWorkspace(t, teamId, workspaceId, { access: 'read' });
    expectStatus(await other.get(url, { token }), 200);
    expectStatus(await t.delete(`/api/v2/team-workspaces/${grant}`), 204);
    expectStatus(await other.get(url, { token }), 404);
    const projectGrant = await grantProject(t, teamId, projectId, { access: 'read' });
    expectStatus(await other.get(url, { token }), 200);
    expectStatus(await t.delete(`/api/v2/team-projects/${projectGrant}`), 204);
    expectStatus(await other.get(url, { token }), 404);
  });

  it("a granted workspace moved to another project in one process moves the team's view of projects in the other", async () => {
    const { teamId, token } = await teamWithToken(t, org);
    const from = await t.createProject(org);
    const to = await t.createProject(org);
    const moving = await t.createWorkspace(org, { projectId: from });
    await grantWorkspace(t, teamId, moving, { access: 'read' });
    const seen = async () => [
      (await other.get(`/api/v2/projects/${from}`, { token })).status,
      (await other.get(`/api/v2/projects/${to}`, { token })).status,
    ];
    assert.deepEqual(await seen(), [200, 404]);
    expectStatus(
      await t.patch(`/api/v2/workspaces/${moving}`, {
        data: { type: 'workspaces', relationships: { project: { data: { type: 'projects', id: to } } } },
      }),
      200,
    );
    assert.deepEqual(await seen(), [404, 200]);
  });

  it('an organization refusing user tokens refuses the site-admin token in the other process at once', async () => {
    const refusing = await t.createOrganization();
    expectStatus(await other.get(`/api/v2/organizations/${refusing}`), 200);
    expectStatus(
      await t.patch(`/api/v2/organizations/${refusing}`, {
        data: { type: 'organizations', attributes: { 'user-tokens-enabled': false } },
      }),
      200,
    );
    const refused = await other.get(`/api/v2/organizations/${refusing}`);
    assert.deepEqual([refused.status, refused.body], [401, UNAUTHORIZED]);
    expectStatus(await other.get(`/api/v2/organizations/${org}`), 200);
    const name = `refusing-${Date.now()}`;
    expectStatus(
      await t.post('/api/v2/organizations', {
        data: { type: 'organizations', attributes: { name, email: 'a@example.com', 'user-tokens-enabled': false } },
      }),
      201,
    );
    expectStatus(await other.get(`/api/v2/organizations/${name}`), 401);
  });

  it('a token that expires while the other process holds its subject is refused there from then on', async () => {
    const teamId = await createTeam(t, org, { 'organization-access': { 'read-workspaces': true } });
    const expiredAt = new Date(Date.now() + 3000).toISOString();
    const token = await teamToken(t, teamId, { 'expired-at': expiredAt });
    expectStatus(await other.get(`/api/v2/workspaces/${workspaceId}`, { token }), 200);
    await sleep(Date.parse(expiredAt) - Date.now() + 50);
    expectStatus(await other.get(`/api/v2/workspaces/${workspaceId}`, { token }), 401);
  });
});

/** Every write a subject depends on raises the credentials version, cascades included; writes it does not depend on leave it. */
describe(`the credentials version (${storeKind})`, () => {
  let t: TestApp;
  let org: string;

  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
  });
  after(async () => t.close());

  async function raises(change: () => Promise<unknown>): Promise<boolean> {
    const before = await findCredentialsVersion(t.store.db);
    await change();
    return (await findCredentialsVersion(t.store.db)) > before;
  }
  const ok = async (status: number, res: Promise<ApiResponse>) => expectStatus(await res, status);

  it('rises with tokens, team access, grants, moves and the organizations that refuse user tokens', async () => {
    const teamId = await createTeam(t, org);
    await teamToken(t, teamId);
    const projectId = await t.createProject(org);
    const other = await t.createProject(org);
    const workspaceId = await t.createWorkspace(org, { projectId });
    let grant = '';
    let projectGrant = '';
    const changes: Array<[string, () => Promise<unknown>]> = [
      ['a token replaced', () => teamToken(t, teamId)],
      ['a token deleted', () => ok(204, t.delete(`/api/v2/teams/${teamId}/authentication-token`))],
      [
        "a team's organization access",
        () =>
          ok(
            200,
            t.patch(`/api/v2/teams/${teamId}`, {
              data: { type: 'teams', attributes: { 'organization-access': { 'read-projects': true } } },
            }),
          ),
      ],
      ['a workspace granted', async () => (grant = await grantWorkspace(t, teamId, workspaceId, { access: 'read' }))],
      [
        'a workspace grant changed',
        () =>
          ok(
            200,
            t.patch(`/api/v2/team-workspaces/${grant}`, {
              data: { type: 'team-workspaces', attributes: { access: 'write' } },
            }),
          ),
      ],
      [
        'a granted workspace moved',
        () =>
          ok(
            200,
            t.patch(`/api/v2/workspaces/${workspaceId}`, {
              data: { type: 'workspaces', relationships: { project: { data: { type: 'projects', id: other } } } },
            }),
          ),
      ],
      ['a workspace grant removed', () => ok(204, t.delete(`/api/v2/team-workspaces/${grant}`))],
      ['a project granted', async () => (projectGrant = await grantProject(t, teamId, projectId, { access: 'read' }))],
      [
        'a project grant changed',
        () =>
          ok(
            200,
            t.patch(`/api/v2/team-projects/${projectGrant}`, {
              data: { type: 'team-projects', attributes: { access: 'write' } },
            }),
          ),
      ],
      ['a project grant removed', () => ok(204, t.delete(`/api/v2/team-projects/${projectGrant}`))],
      [
        'a workspace granted again',
        async () => (grant = await grantWorkspace(t, teamId, workspaceId, { access: 'read' })),
      ],
      [
        'a granted workspace deleted, its grant by the foreign key alone',
        async () => {
          const grantRow = () =>
            t.store.db.selectFrom('team_workspaces').select('id').where('id', '=', grant).executeTakeFirst();
          assert.ok(await grantRow());
          await t.store.db.deleteFrom('workspaces').where('id', '=', workspaceId).execute();
          assert.equal(await grantRow(), undefined);
        },
      ],
      ['a team deleted', () => ok(204, t.delete(`/api/v2/teams/${teamId}`))],
      [
        'an organization turning user tokens off',
        () =>
          ok(
            200,
            t.patch(`/api/v2/organizations/${org}`, {
              data: { type: 'organizations', attributes: { 'user-tokens-enabled': false } },
            }),
          ),
      ],
      [
        'an organization created refusing user tokens',
        () =>
          ok(
            201,
            t.post('/api/v2/organizations', {
              data: {
                type: 'organizations',
                attributes: {
                  name: `refusing-${randomAlphanumeric(8).toLowerCase()}`,
                  email: 'r@example.com',
                  'user-tokens-enabled': false,
                },
              },
            }),
          ),
      ],
      // Creating the organization and its token raises nothing (see below): only the deletion does.
      [
        'an organization deleted with its teams and tokens',
        async () => {
          const doomed = await t.createOrganization();
          await organizationToken(t, doomed);
          await ok(204, t.delete(`/api/v2/organizations/${doomed}`));
        },
      ],
    ];
    for (const [name, change] of changes) assert.ok(await raises(change), `${name} left the version as it was`);
  });

  it("stays for writes no subject depends on: new organizations, projects, workspaces, teams and tokens, and a token's last use", async () => {
    let fresh = '';
    const changes: Array<[string, () => Promise<unknown>]> = [
      ['an organization created', async () => (fresh = await t.createOrganization())],
      ['a project created', () => t.createProject(fresh)],
      ['a workspace created', () => t.createWorkspace(fresh)],
      ['a team created', () => createTeam(t, fresh)],
      ['a token issued', async () => teamToken(t, await createTeam(t, fresh))],
      [
        "a token's last use recorded",
        () => t.store.db.updateTable('tokens').set({ last_used_at: new Date().toISOString() }).execute(),
      ],
    ];
    for (const [name, change] of changes) assert.equal(await raises(change), false, `${name} raised the version`);
  });
});
