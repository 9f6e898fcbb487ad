import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestApp } from './support/app.js';
import { createTeam, organizationToken, ownersTeam, teamToken, teamWithToken } from './support/factories/access.js';
import { expectStatus, NOT_FOUND } from './support/requests.js';
import { storeKind } from './support/store.js';

/** Team and organization tokens as go-tfe creates, lists and reads them. */
describe(`tokens as go-tfe uses them (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
  });
  after(async () => t.close());

  it('accepts the body go-tfe sends (an empty resource type) and answers who created the token', async () => {
    const team = await createTeam(t, org);
    const byAdmin = await t.post(`/api/v2/teams/${team}/authentication-token`, { data: { type: '' } });
    expectStatus(byAdmin, 201);
    assert.deepEqual(byAdmin.body.data.relationships['created-by'].data, { type: 'users', id: 'site-admin' });
    assert.equal(byAdmin.body.data.attributes['last-used-at'], null);
    assert.equal(byAdmin.body.data.attributes.description, null);

    const owners = await teamToken(t, await ownersTeam(t, org));
    const byOwners = await t.post(
      `/api/v2/teams/${team}/authentication-token`,
      { data: { type: '', attributes: { 'expired-at': '2099-01-01T00:00:00Z' } } },
      { token: owners },
    );
    expectStatus(byOwners, 201);
    assert.deepEqual(byOwners.body.data.relationships['created-by'].data, {
      type: 'teams',
      id: await ownersTeam(t, org),
    });
    assert.equal(byOwners.body.data.attributes['expired-at'], '2099-01-01T00:00:00.000Z');

    const orgSecret = await organizationToken(t, org);
    const byOrganization = await t.post(
      `/api/v2/teams/${team}/authentication-token`,
      { data: { type: '' } },
      { token: orgSecret },
    );
    expectStatus(byOrganization, 201);
    assert.deepEqual(byOrganization.body.data.relationships['created-by'].data, { type: 'organizations', id: org });
    const orgToken = await t.post(`/api/v2/organizations/${org}/authentication-token`, { data: { type: '' } });
    expectStatus(orgToken, 201);
    assert.deepEqual(orgToken.body.data.relationships['created-by'].data, { type: 'users', id: 'site-admin' });
  });

  it('records when a token was last used', async () => {
    const { teamId, token } = await teamWithToken(t, org);
    assert.equal(
      (await t.get(`/api/v2/teams/${teamId}/authentication-token`)).body.data.attributes['last-used-at'],
      null,
    );
    const before = Date.now();
    expectStatus(await t.get(`/api/v2/organizations/${org}`, { token }), 200);
    const used = (await t.get(`/api/v2/teams/${teamId}/authentication-token`)).body.data.attributes['last-used-at'];
    assert.ok(Date.parse(used) >= before - 1000, used);
  });

  it('keeps described tokens beside the legacy one: unique descriptions, read and deleted by id', async () => {
    const team = await createTeam(t, org);
    const legacy = await teamToken(t, team);
    const described = await t.post(`/api/v2/teams/${team}/authentication-tokens`, {
      data: { type: '', attributes: { description: 'deploys' } },
    });
    expectStatus(described, 201);
    assert.equal(described.body.data.attributes.description, 'deploys');
    const empty = await t.post(`/api/v2/teams/${team}/authentication-tokens`, {
      data: { type: '', attributes: { description: '' } },
    });
    expectStatus(empty, 201);
    assert.equal(empty.body.data.attributes.description, '', 'a described token keeps an empty description as written');

    const again = await t.post(`/api/v2/teams/${team}/authentication-tokens`, {
      data: { type: '', attributes: { description: 'deploys' } },
    });
    assert.equal(again.status, 422);
    assert.deepEqual(again.body.errors[0], {
      status: '422',
      title: 'invalid attributes',
      detail: 'Validation failed: Description has already been taken',
      source: { pointer: '/data/attributes/description' },
    });

    // Regenerating the legacy token leaves the described ones working.
    const secret: string = described.body.data.attributes.token;
    await teamToken(t, team);
    expectStatus(await t.get(`/api/v2/organizations/${org}`, { token: secret }), 200);
    assert.equal((await t.get(`/api/v2/organizations/${org}`, { token: legacy })).status, 401);

    const shown = await t.get(`/api/v2/authentication-tokens/${described.body.data.id}`);
    expectStatus(shown, 200);
    assert.equal(shown.body.data.attributes.token, null);
    assert.deepEqual(shown.body.data.relationships.team.data, { type: 'teams', id: team });
    assert.equal((await t.get(`/api/v2/teams/${team}/authentication-tokens`)).body.data.length, 3);

    assert.equal((await t.delete(`/api/v2/authentication-tokens/${described.body.data.id}`)).status, 204);
    assert.equal((await t.get(`/api/v2/organizations/${org}`, { token: secret })).status, 401);
    assert.deepEqual((await t.get(`/api/v2/authentication-tokens/${described.body.data.id}`)).body, NOT_FOUND);
    // The organization's own token is no team token.
    const orgToken = await t.post(`/api/v2/organizations/${org}/authentication-token`, undefined);
    assert.deepEqual((await t.get(`/api/v2/authentication-tokens/${orgToken.body.data.id}`)).body, NOT_FOUND);
  });

  it("lists an organization's team tokens, searched by team name and sorted", async () => {
    const other = await t.createOrganization();
    const alpha = await createTeam(t, other, { name: 'alpha team' });
    const beta = await createTeam(t, other, { name: 'beta' });
    const soon = await t.post(`/api/v2/teams/${alpha}/authentication-token`, {
      data: { type: '', attributes: { 'expired-at': '2090-01-01T00:00:00Z' } },
    });
    const later = await t.post(`/api/v2/teams/${beta}/authentication-token`, {
      data: { type: '', attributes: { 'expired-at': '2095-01-01T00:00:00Z' } },
    });
    const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((token) => token.id);
    const url = `/api/v2/organizations/${other}/team-tokens`;
    assert.deepEqual(ids(await t.get(`${url}?sort=expired-at`)), [soon.body.data.id, later.body.data.id]);
    assert.deepEqual(ids(await t.get(`${url}?sort=-expired-at`)), [later.body.data.id, soon.body.data.id]);
    assert.deepEqual(ids(await t.get(`${url}?q=ALPHA`)), [soon.body.data.id]);
    const page = await t.get(`${url}?page%5Bsize%5D=1&page%5Bnumber%5D=2&sort=team-name`);
    assert.deepEqual(ids(page), [later.body.data.id]);
    assert.equal(page.body.meta.pagination['total-count'], 2);
    const bad = await t.get(`${url}?sort=secret`);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].source.parameter, 'sort');
    // Only those who manage teams list their tokens.
    const { token: reader } = await teamWithToken(t, other, { 'organization-access': { 'read-workspaces': true } });
    assert.deepEqual((await t.get(url, { token: reader })).body, NOT_FOUND);
    const { token: manager } = await teamWithToken(t, other, { 'organization-access': { 'manage-teams': true } });
    assert.equal((await t.get(url, { token: manager })).body.data.length, 4);
  });
});
