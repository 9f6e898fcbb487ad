import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestApp } from './support/app.js';
import { createTeam, grantProject, grantWorkspace, ownersTeam, teamWithToken } from './support/factories/access.js';
import { expectStatus, NOT_FOUND } from './support/requests.js';
import { storeKind } from './support/store.js';

/** What go-tfe's team tests set, and the team-management flags varsetd enforces. */
describe(`team management (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
  });
  after(async () => t.close());

  it('accepts a name with spaces and keeps every organization-access flag and attribute as given', async () => {
    const flags = {
      'manage-policies': true,
      'manage-policy-overrides': true,
      'delegate-policy-overrides': true,
      'manage-workspaces': true,
      'manage-vcs-settings': true,
      'manage-providers': true,
      'manage-modules': true,
      'manage-run-tasks': true,
      'manage-projects': true,
      'read-workspaces': true,
      'read-projects': true,
      'manage-membership': true,
      'manage-teams': true,
      'manage-organization-access': true,
      'access-secret-teams': true,
      'manage-agent-pools': true,
    };
    const res = await t.post(`/api/v2/organizations/${org}/teams`, {
      data: {
        type: 'teams',
        attributes: {
          name: 'platform team',
          visibility: 'organization',
          'sso-team-id': 'sso-1',
          'allow-member-token-management': false,
          'organization-access': flags,
        },
      },
    });
    expectStatus(res, 200);
    const shown = (await t.get(`/api/v2/teams/${res.body.data.id}`)).body.data.attributes;
    assert.equal(shown.name, 'platform team');
    assert.equal(shown.visibility, 'organization');
    assert.equal(shown['sso-team-id'], 'sso-1');
    assert.equal(shown['allow-member-token-management'], false);
    for (const [flag, value] of Object.entries(flags)) assert.equal(shown['organization-access'][flag], value, flag);
    const renamed = await t.patch(`/api/v2/teams/${res.body.data.id}`, {
      data: { type: 'teams', attributes: { name: 'foo bar', 'organization-access': { 'manage-teams': false } } },
    });
    expectStatus(renamed, 200);
    assert.equal(renamed.body.data.attributes.name, 'foo bar');
    assert.equal(renamed.body.data.attributes['organization-access']['manage-teams'], false);
    assert.equal(renamed.body.data.attributes['organization-access']['manage-modules'], true);
  });

  it('lets a manage-teams team create, change and delete teams and manage their tokens, but not grant access or touch owners', async () => {
    const { teamId: managerId, token: manager } = await teamWithToken(t, org, {
      'organization-access': { 'manage-teams': true },
    });
    const created = await t.post(
      `/api/v2/organizations/${org}/teams`,
      { data: { type: 'teams', attributes: { name: 'made by a manager', visibility: 'organization' } } },
      { token: manager },
    );
    expectStatus(created, 200);
    const id = created.body.data.id;
    expectStatus(
      await t.patch(
        `/api/v2/teams/${id}`,
        { data: { type: 'teams', attributes: { 'sso-team-id': 'x' } } },
        { token: manager },
      ),
      200,
    );
    // A secret team is out of sight without access-secret-teams.
    const hidden = await createTeam(t, org, { visibility: 'secret' });
    assert.deepEqual(
      (
        await t.patch(
          `/api/v2/teams/${hidden}`,
          { data: { type: 'teams', attributes: { 'sso-team-id': 'x' } } },
          { token: manager },
        )
      ).body,
      NOT_FOUND,
    );
    const grant = await t.patch(
      `/api/v2/teams/${id}`,
      { data: { type: 'teams', attributes: { 'organization-access': { 'manage-workspaces': true } } } },
      { token: manager },
    );
    assert.equal(grant.status, 403);
    assert.equal(grant.body.errors[0].source.pointer, '/data/attributes/organization-access');
    assert.equal(
      (
        await t.post(
          `/api/v2/organizations/${org}/teams`,
          { data: { type: 'teams', attributes: { name: 'x', 'organization-access': { 'manage-projects': true } } } },
          { token: manager },
        )
      ).status,
      403,
    );
    assert.equal(
      (await t.get(`/api/v2/teams/${managerId}`, { token: manager })).body.data.attributes.permissions[
        'can-update-organization-access'
      ],
      false,
    );
    expectStatus(await t.post(`/api/v2/teams/${id}/authentication-token`, undefined, { token: manager }), 201);
    const owners = await ownersTeam(t, org);
    assert.deepEqual(
      (await t.post(`/api/v2/teams/${owners}/authentication-token`, undefined, { token: manager })).body,
      NOT_FOUND,
    );
    assert.deepEqual((await t.delete(`/api/v2/teams/${owners}`, undefined, { token: manager })).body, NOT_FOUND);
    assert.equal((await t.delete(`/api/v2/teams/${id}`, undefined, { token: manager })).status, 204);

    const { token: plain } = await teamWithToken(t, org, { 'organization-access': { 'manage-workspaces': true } });
    assert.deepEqual(
      (
        await t.post(
          `/api/v2/organizations/${org}/teams`,
          { data: { type: 'teams', attributes: { name: 'nope' } } },
          { token: plain },
        )
      ).body,
      NOT_FOUND,
    );
  });

  it('lets a manage-organization-access team grant organization access, and an access-secret-teams team see secret teams', async () => {
    const secret = await createTeam(t, org, { visibility: 'secret' });
    const { token: granter } = await teamWithToken(t, org, {
      'organization-access': { 'manage-organization-access': true },
    });
    const granted = await t.patch(
      `/api/v2/teams/${secret}`,
      { data: { type: 'teams', attributes: { 'organization-access': { 'read-workspaces': true } } } },
      { token: granter },
    );
    assert.equal(granted.status, 404, 'a secret team stays invisible without access-secret-teams');
    const { token: seer } = await teamWithToken(t, org, {
      'organization-access': { 'manage-organization-access': true, 'access-secret-teams': true },
    });
    expectStatus(await t.get(`/api/v2/teams/${secret}`, { token: seer }), 200);
    assert.ok(
      (await t.get(`/api/v2/organizations/${org}/teams`, { token: seer })).body.data.some(
        (team: { id: string }) => team.id === secret,
      ),
    );
    const ok = await t.patch(
      `/api/v2/teams/${secret}`,
      { data: { type: 'teams', attributes: { 'organization-access': { 'read-workspaces': true } } } },
      { token: seer },
    );
    expectStatus(ok, 200);
    assert.equal(ok.body.data.attributes['organization-access']['read-workspaces'], true);
  });

  it('keeps policy-overrides of custom workspace and project grants', async () => {
    const team = await createTeam(t, org);
    const workspace = await t.createWorkspace(org);
    const project = await t.createProject(org);
    const ws = await grantWorkspace(t, team, workspace, { access: 'custom', 'policy-overrides': true });
    assert.equal((await t.get(`/api/v2/team-workspaces/${ws}`)).body.data.attributes['policy-overrides'], true);
    const prj = await grantProject(t, team, project, {
      access: 'custom',
      'workspace-access': { 'policy-overrides': true, runs: 'plan' },
    });
    const shown = (await t.get(`/api/v2/team-projects/${prj}`)).body.data.attributes['workspace-access'];
    assert.equal(shown['policy-overrides'], true);
    assert.equal(shown.runs, 'plan');
    const fixed = await t.post('/api/v2/team-workspaces', {
      data: {
        type: 'team-workspaces',
        attributes: { access: 'read', runs: 'apply' },
        relationships: {
          team: { data: { type: 'teams', id: await createTeam(t, org) } },
          workspace: { data: { type: 'workspaces', id: workspace } },
        },
      },
    });
    assert.equal(fixed.status, 422);
    assert.equal(
      fixed.body.errors[0].detail,
      "Runs is read-only when access level is 'read'; use the 'custom' access level to set this attribute.",
    );
  });
});
