import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TestApp } from './support/app.js';
import { organizationToken, ownersTeam, teamToken } from './support/factories/access.js';
import { errorOf, expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';

/** GET /current-token: who the request's token stands for, whatever it may read. */

describe(`the current token (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
  });
  after(() => t.close());

  const current = async (token?: string | null) => {
    const res = await t.get('/api/v2/current-token', token === undefined ? {} : { token });
    return res;
  };

  it("names a team token's kind, team and organization", async () => {
    const token = await teamToken(t, await ownersTeam(t, org), { description: 'CI' });
    const res = await current(token);
    expectStatus(res, 200);
    assert.equal(res.body.data.type, 'current-tokens');
    assert.match(res.body.data.id, /^at-/);
    assert.deepEqual(res.body.data.attributes, {
      kind: 'team',
      description: 'team owners (token "CI")',
      'organization-name': org,
    });
  });

  it("names the organization token's organization, and the site administrator with none", async () => {
    const organization = await current(await organizationToken(t, org));
    expectStatus(organization, 200);
    assert.equal(organization.body.data.attributes.kind, 'organization');
    assert.equal(organization.body.data.attributes['organization-name'], org);
    assert.match(organization.body.data.attributes.description, new RegExp(`^organization ${org}`));
    const admin = await current();
    expectStatus(admin, 200);
    assert.equal(admin.body.data.attributes.kind, 'site-admin');
    assert.equal(admin.body.data.attributes['organization-name'], null);
  });

  it('answers 401 without a token and 400 to a query parameter', async () => {
    expectStatus(await current(null), 401);
    const res = await t.get('/api/v2/current-token?include=team');
    expectStatus(res, 400);
    assert.equal(errorOf(res).source?.parameter, 'include');
  });
});
