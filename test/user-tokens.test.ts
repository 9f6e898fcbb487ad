import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { buildApp } from '../src/app.js';
import { migrate } from '../src/db/connect.js';
import { TestApp } from './support/app.js';
import { createTeam, organizationToken, ownersTeam, teamWithToken, teamToken } from './support/factories/access.js';
import { createComment, createRun } from './support/factories/runs.js';
import { expectStatus, type ApiResponse } from './support/requests.js';
import { insertOldSiteAdminToken, storeKind, withStoreMigratedTo } from './support/store.js';

/**
 * `user-tokens-enabled: false` refuses the site-admin token (varsetd's user token) in that
 * organization with a 401, and nowhere else; team and organization tokens keep working.
 */
describe(`user-tokens-enabled (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  let other: string;
  let owners: string;
  let reader: string;
  let orgToken: string;
  let urls: string[];
  let otherUrls: string[];

  /** Every kind of resource of an organization, read through the URLs clients use. */
  async function resourceUrls(organization: string): Promise<string[]> {
    const projectId = await t.createProject(organization);
    const workspaceId = await t.createWorkspace(organization, { projectId });
    const teamId = await createTeam(t, organization);
    await teamToken(t, teamId);
    const set = await t.post(`/api/v2/organizations/${organization}/varsets`, {
      data: {
        type: 'varsets',
        attributes: { name: 'shared', global: true },
        relationships: {
          vars: { data: [{ type: 'vars', attributes: { key: 'region', value: 'eu', category: 'terraform' } }] },
        },
      },
    });
    expectStatus(set, 200);
    const setVars = await t.get(`/api/v2/varsets/${set.body.data.id}/relationships/vars`);
    const variable = await t.post(`/api/v2/workspaces/${workspaceId}/vars`, {
      data: { type: 'vars', attributes: { key: 'size', value: 'small', category: 'terraform' } },
    });
    expectStatus(variable, 201);
    const run = await createRun(t, workspaceId);
    const comment = await createComment(t, run.id, 'looks fine');
    const cvId = run.relationships['configuration-version'].data.id;
    return [
      `/api/v2/organizations/${organization}`,
      `/api/v2/organizations/${organization}/entitlement-set`,
      `/api/v2/organizations/${organization}/projects`,
      `/api/v2/projects/${projectId}`,
      `/api/v2/organizations/${organization}/workspaces`,
      `/api/v2/workspaces/${workspaceId}`,
      `/api/v2/workspaces/${workspaceId}/vars`,
      `/api/v2/workspaces/${workspaceId}/varsets`,
      `/api/v2/workspaces/${workspaceId}/effective-variables`,
      `/api/v2/organizations/${organization}/varsets`,
      `/api/v2/varsets/${set.body.data.id}`,
      `/api/v2/varsets/${set.body.data.id}/relationships/vars/${setVars.body.data[0].id}`,
      `/api/v2/organizations/${organization}/teams`,
      `/api/v2/teams/${teamId}`,
      `/api/v2/teams/${teamId}/authentication-tokens`,
      `/api/v2/organizations/${organization}/team-tokens`,
      `/api/v2/team-workspaces?filter%5Bworkspace%5D%5Bid%5D=${workspaceId}`,
      `/api/v2/runs/${run.id}`,
      `/api/v2/workspaces/${workspaceId}/runs`,
      `/api/v2/runs/${run.id}/comments`,
      `/api/v2/comments/${comment.id}`,
      `/api/v2/configuration-versions/${cvId}`,
      `/api/v2/workspaces/${workspaceId}/configuration-versions`,
    ];
  }

  function expectUnauthorized(res: ApiResponse, what: string): void {
    assert.equal(res.status, 401, `${what}: ${JSON.stringify(res.body)}`);
    assert.deepEqual(res.body, { errors: [{ status: '401', title: 'unauthorized' }] }, what);
  }

  const setUserTokens = (enabled: boolean, token?: string) =>
    t.patch(
      `/api/v2/organizations/${org}`,
      { data: { type: 'organizations', attributes: { 'user-tokens-enabled': enabled } } },
      { token },
    );

  const organizationNames = async () => {
    const res = await t.get('/api/v2/organizations?page%5Bsize%5D=100');
    expectStatus(res, 200);
    return res.body.data.map((o: { id: string }) => o.id);
  };

  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
    other = await t.createOrganization();
    urls = await resourceUrls(org);
    otherUrls = await resourceUrls(other);
    owners = await teamToken(t, await ownersTeam(t, org));
    reader = (
      await teamWithToken(t, org, { 'organization-access': { 'read-workspaces': true, 'read-projects': true } })
    ).token;
    orgToken = await organizationToken(t, org);
    const res = await setUserTokens(false, owners);
    expectStatus(res, 200);
    assert.equal(res.body.data.attributes['user-tokens-enabled'], false);
  });
  after(async () => t.close());

  it('refuses the site-admin token with a 401 on everything of the organization', async () => {
    for (const url of urls) expectUnauthorized(await t.get(url), url);
  });

  it('refuses its writes with a 401 and changes nothing', async () => {
    expectUnauthorized(await setUserTokens(true), 'turning user tokens back on');
    expectUnauthorized(
      await t.post(`/api/v2/organizations/${org}/workspaces`, {
        data: { type: 'workspaces', attributes: { name: 'sneaky' } },
      }),
      'create a workspace',
    );
    expectUnauthorized(
      await t.post(`/api/v2/organizations/${org}/teams`, { data: { type: 'teams', attributes: { name: 'sneaky' } } }),
      'create a team',
    );
    expectUnauthorized(await t.delete(`/api/v2/organizations/${org}`), 'delete the organization');
    const after = await t.get(`/api/v2/organizations/${org}`, { token: owners });
    expectStatus(after, 200);
    assert.equal(after.body.data.attributes['user-tokens-enabled'], false);
    const workspaces = await t.get(`/api/v2/organizations/${org}/workspaces?search%5Bname%5D=sneaky`, {
      token: owners,
    });
    assert.equal(workspaces.body.data.length, 0);
  });

  it('leaves the organization out of the site admin’s organization list, and only it', async () => {
    const names = await organizationNames();
    assert.ok(!names.includes(org));
    assert.ok(names.includes(other));
  });

  it('still lets the site-admin token do everything in other organizations', async () => {
    for (const url of otherUrls) expectStatus(await t.get(url), 200);
  });

  it('does not change what team and organization tokens may do', async () => {
    for (const url of urls) {
      expectStatus(await t.get(url, { token: owners }), 200);
      expectStatus(await t.get(url, { token: orgToken }), 200);
    }
    expectStatus(
      await t.get(
        urls.find((url) => url.includes('/workspaces/'))!,
        { token: reader },
      ),
      200,
    );
    const listed = await t.get('/api/v2/organizations', { token: owners });
    assert.deepEqual(
      listed.body.data.map((o: { id: string }) => o.id),
      [org],
    );
  });

  it('gives the site-admin token everything back once an owners team token turns user tokens on', async () => {
    const res = await setUserTokens(true, owners);
    expectStatus(res, 200);
    assert.equal(res.body.data.attributes['user-tokens-enabled'], true);
    for (const url of urls) expectStatus(await t.get(url), 200);
    assert.ok((await organizationNames()).includes(org));
    expectStatus(await setUserTokens(false), 200);
    expectUnauthorized(await t.get(urls[0]!), 'turned off again by the site admin');
    expectStatus(await setUserTokens(true, owners), 200);
  });
});

/** Migration 0014 carries each organization's stored `user-tokens-enabled` into the column the token lookup reads. */
describe(`user-tokens-enabled migration on an existing store (${storeKind})`, () => {
  it('keeps refusing the site-admin token where the settings turned user tokens off, and only there', async () => {
    await withStoreMigratedTo('0013_archived_configuration_versions', async (store) => {
      const db = store.db as Kysely<any>;
      const at = '2024-01-01T00:00:00.000Z';
      const organization = (name: string, settings: object) => ({
        id: `org-${name}`,
        name,
        email: `${name}@example.com`,
        settings: JSON.stringify(settings),
        search_name: name,
        search_email: `${name}@example.com`,
        created_at: at,
      });
      await db
        .insertInto('organizations')
        .values([
          organization('closed', { 'user-tokens-enabled': false }),
          organization('open', { 'user-tokens-enabled': true }),
          organization('plain', {}),
        ])
        .execute();
      await db
        .insertInto('projects')
        .values(
          ['closed', 'open', 'plain'].map((name) => ({
            id: `prj-${name}`,
            organization_id: `org-${name}`,
            name: 'Default Project',
            description: '',
            is_default: true,
            created_at: at,
          })),
        )
        .execute();
      await insertOldSiteAdminToken(db, at);

      await migrate(store);
      const app = await buildApp({ store });
      try {
        const status = async (name: string) =>
          (
            await app.inject({
              method: 'GET',
              url: `/api/v2/organizations/${name}`,
              headers: { authorization: 'Bearer old-admin-secret' },
            })
          ).statusCode;
        assert.deepEqual([await status('closed'), await status('open'), await status('plain')], [401, 200, 200]);
      } finally {
        await app.close();
      }
    });
  });
});
