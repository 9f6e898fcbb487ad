import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestApp } from './support/app.js';
import {
  createTeam,
  grantProject,
  grantWorkspace,
  organizationToken,
  ownersTeam,
  teamToken,
  teamWithToken,
} from './support/factories/access.js';
import { expectStatus, NOT_FOUND, UNAUTHORIZED } from './support/requests.js';
import { storeKind } from './support/store.js';
import { hashToken } from '../src/auth/tokens.js';

describe(`teams (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
  });
  after(async () => t.close());

  it('gives every new organization an owners team with every permission, which cannot be deleted or renamed', async () => {
    const owners = await ownersTeam(t, org);
    const res = await t.get(`/api/v2/teams/${owners}`);
    expectStatus(res, 200);
    assert.equal(res.body.data.attributes.name, 'owners');
    assert.ok(Object.values(res.body.data.attributes['organization-access']).every((v) => v === true));
    assert.deepEqual(res.body.data.relationships.organization.data, { id: org, type: 'organizations' });

    const del = await t.delete(`/api/v2/teams/${owners}`);
    assert.equal(del.status, 422);
    const rename = await t.patch(`/api/v2/teams/${owners}`, {
      data: { type: 'teams', attributes: { name: 'bosses' } },
    });
    assert.equal(rename.status, 422);
    const restrict = await t.patch(`/api/v2/teams/${owners}`, {
      data: { type: 'teams', attributes: { 'organization-access': { 'manage-workspaces': false } } },
    });
    assert.equal(restrict.status, 422);
    expectStatus(await t.get(`/api/v2/teams/${owners}`), 200);
  });

  it('creates a team with defaults, organization access flags and the caller’s permissions', async () => {
    const res = await t.post(`/api/v2/organizations/${org}/teams`, {
      data: {
        type: 'teams',
        attributes: { name: 'platform', 'organization-access': { 'manage-workspaces': true, 'manage-policies': true } },
      },
    });
    expectStatus(res, 200);
    const team = res.body.data;
    assert.match(team.id, /^team-[A-Za-z0-9]{16}$/);
    assert.equal(team.type, 'teams');
    assert.equal(team.attributes.name, 'platform');
    assert.equal(team.attributes.visibility, 'secret');
    assert.equal(team.attributes['users-count'], 0);
    assert.equal(team.attributes['organization-access']['manage-workspaces'], true);
    assert.equal(team.attributes['organization-access']['manage-policies'], true);
    assert.equal(team.attributes['organization-access']['manage-projects'], false);
    assert.equal(team.attributes.permissions['can-destroy'], true);
    assert.equal(team.links.self, `/api/v2/teams/${team.id}`);

    const read = await t.get(`/api/v2/teams/${team.id}`);
    assert.deepEqual(read.body.data, team);
  });

  it('refuses a taken name, a malformed name and unknown or non-boolean access flags with 422', async () => {
    await createTeam(t, org, { name: 'taken' });
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'taken' }, '/data/attributes/name'],
      [{ name: '   ' }, '/data/attributes/name'],
      [{ name: 'no/slash' }, '/data/attributes/name'],
      [{ name: 'x'.repeat(91) }, '/data/attributes/name'],
      [{}, '/data/attributes/name'],
      [
        { name: 'x1', 'organization-access': { 'manage-everything': true } },
        '/data/attributes/organization-access/manage-everything',
      ],
      [
        { name: 'x2', 'organization-access': { 'manage-workspaces': 'yes' } },
        '/data/attributes/organization-access/manage-workspaces',
      ],
      [{ name: 'x3', visibility: 'public' }, '/data/attributes/visibility'],
    ];
    for (const [attributes, pointer] of cases) {
      const res = await t.post(`/api/v2/organizations/${org}/teams`, { data: { type: 'teams', attributes } });
      assert.equal(res.status, 422, JSON.stringify(attributes));
      assert.equal(res.body.errors[0].source.pointer, pointer);
    }
  });

  it('lists teams with search, name filter and pagination', async () => {
    const other = await t.createOrganization();
    await createTeam(t, other, { name: 'alpha-one' });
    await createTeam(t, other, { name: 'Alpha-two' });
    await createTeam(t, other, { name: 'beta' });
    await createTeam(t, other, { name: 'gamma_1' });
    let res = await t.get(`/api/v2/organizations/${other}/teams?q=ALPHA`);
    assert.deepEqual(res.body.data.map((d: any) => d.attributes.name).sort(), ['Alpha-two', 'alpha-one']);
    res = await t.get(`/api/v2/organizations/${other}/teams?q=a_`);
    assert.deepEqual(
      res.body.data.map((d: any) => d.attributes.name),
      ['gamma_1'],
      'a LIKE wildcard in q matches itself',
    );
    res = await t.get(`/api/v2/organizations/${other}/teams?filter%5Bnames%5D=beta,owners`);
    assert.deepEqual(res.body.data.map((d: any) => d.attributes.name).sort(), ['beta', 'owners']);
    res = await t.get(`/api/v2/organizations/${other}/teams?page%5Bsize%5D=2&page%5Bnumber%5D=2&include=users`);
    assert.equal(res.body.meta.pagination['total-count'], 5);
    assert.equal(res.body.data.length, 2);
    res = await t.get(`/api/v2/organizations/${other}/teams?include=tokens`);
    assert.equal(res.status, 400);
  });

  it('shows a non-owner team the teams visible to the organization and itself, never a secret one', async () => {
    const o = await t.createOrganization();
    const visible = await createTeam(t, o, { name: 'visible', visibility: 'organization' });
    const secret = await createTeam(t, o, { name: 'secret' });
    const { teamId: me, token } = await teamWithToken(t, o, { name: 'me' });
    const list = await t.get(`/api/v2/organizations/${o}/teams`, { token });
    assert.deepEqual(list.body.data.map((d: any) => d.id).sort(), [visible, me, await ownersTeam(t, o)].sort());
    assert.equal(list.body.meta.pagination['total-count'], 3);
    assert.deepEqual((await t.get(`/api/v2/teams/${secret}`, { token })).body, NOT_FOUND);
    const own = await t.get(`/api/v2/teams/${me}`, { token });
    expectStatus(own, 200);
    assert.equal(own.body.data.attributes.permissions['can-destroy'], false);
    assert.equal(own.body.data.attributes.permissions['can-view-api-token'], true);
    // Seeing a team is not managing it.
    assert.equal(
      (await t.patch(`/api/v2/teams/${visible}`, { data: { type: 'teams', attributes: { name: 'mine' } } }, { token }))
        .status,
      404,
    );
    assert.equal((await t.delete(`/api/v2/teams/${visible}`, undefined, { token })).status, 404);
    assert.equal(
      (
        await t.post(
          `/api/v2/organizations/${o}/teams`,
          { data: { type: 'teams', attributes: { name: 'new' } } },
          { token },
        )
      ).status,
      404,
    );
  });

  it('updates a team, keeping what the body does not name', async () => {
    const id = await createTeam(t, org, {
      name: 'before',
      'organization-access': { 'read-workspaces': true, 'manage-modules': true },
    });
    const res = await t.patch(`/api/v2/teams/${id}`, {
      data: {
        type: 'teams',
        attributes: { name: 'after', visibility: 'organization', 'organization-access': { 'read-projects': true } },
      },
    });
    expectStatus(res, 200);
    const access = res.body.data.attributes['organization-access'];
    assert.equal(res.body.data.attributes.name, 'after');
    assert.equal(res.body.data.attributes.visibility, 'organization');
    assert.equal(access['read-workspaces'], true);
    assert.equal(access['read-projects'], true);
    assert.equal(access['manage-modules'], true);
    assert.deepEqual((await t.get(`/api/v2/teams/${id}`)).body.data, res.body.data);
  });

  it('deletes a team with its token and grants', async () => {
    const ws = await t.createWorkspace(org);
    const { teamId, token } = await teamWithToken(t, org);
    const grant = await grantWorkspace(t, teamId, ws, { access: 'read' });
    expectStatus(await t.get(`/api/v2/workspaces/${ws}`, { token }), 200);
    assert.equal((await t.delete(`/api/v2/teams/${teamId}`)).status, 204);
    assert.deepEqual((await t.get(`/api/v2/workspaces/${ws}`, { token })).body, UNAUTHORIZED);
    assert.equal((await t.get(`/api/v2/team-workspaces/${grant}`)).status, 404);
    assert.equal((await t.get(`/api/v2/teams/${teamId}`)).status, 404);
  });

  it('keeps the owners team and the organization readable for every member, and other organizations invisible', async () => {
    const other = await t.createOrganization();
    const { token } = await teamWithToken(t, org);
    expectStatus(await t.get(`/api/v2/organizations/${org}`, { token }), 200);
    assert.deepEqual((await t.get(`/api/v2/organizations/${other}`, { token })).body, NOT_FOUND);
    assert.deepEqual((await t.get(`/api/v2/organizations/${other}/teams`, { token })).body, NOT_FOUND);
    assert.deepEqual((await t.get(`/api/v2/teams/${await ownersTeam(t, other)}`, { token })).body, NOT_FOUND);
    const orgs = await t.get('/api/v2/organizations', { token });
    assert.deepEqual(
      orgs.body.data.map((o: any) => o.id),
      [org],
    );
  });
});

describe(`team and organization tokens (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
  });
  after(async () => t.close());

  it('shows a team token’s secret only in the create response and stores only its hash', async () => {
    const team = await createTeam(t, org);
    const res = await t.post(`/api/v2/teams/${team}/authentication-token`, {
      data: { type: 'authentication-tokens', attributes: { description: 'ci' } },
    });
    expectStatus(res, 201);
    const token = res.body.data;
    assert.match(token.id, /^at-/);
    assert.equal(token.type, 'authentication-tokens');
    assert.equal(typeof token.attributes.token, 'string');
    assert.equal(token.attributes.description, 'ci');
    const inTwoYears = new Date(token.attributes['created-at']);
    inTwoYears.setUTCFullYear(inTwoYears.getUTCFullYear() + 2);
    assert.equal(
      token.attributes['expired-at'],
      inTwoYears.toISOString(),
      'a token given no expiry expires two years after its creation, as in HCP Terraform',
    );
    assert.deepEqual(token.relationships.team.data, { id: team, type: 'teams' });

    const shown = await t.get(`/api/v2/teams/${team}/authentication-token`);
    expectStatus(shown, 200);
    assert.equal(shown.body.data.id, token.id);
    assert.equal(shown.body.data.attributes.token, null);

    const rows = await t.store.db.selectFrom('tokens').selectAll().execute();
    const secret: string = token.attributes.token;
    assert.ok(!JSON.stringify(rows).includes(secret), 'no token secret is stored');
    assert.equal(rows.find((r) => r.id === token.id)?.token_hash, hashToken(secret));
  });

  it('accepts an empty create body; regenerating replaces the token at once; deleting revokes it', async () => {
    const team = await createTeam(t, org, { 'organization-access': { 'read-workspaces': true } });
    const first = await t.request('POST', `/api/v2/teams/${team}/authentication-token`, {
      contentType: 'application/vnd.api+json',
    });
    expectStatus(first, 201);
    const old: string = first.body.data.attributes.token;
    expectStatus(await t.get(`/api/v2/organizations/${org}`, { token: old }), 200);
    const fresh = await teamToken(t, team);
    assert.equal((await t.get(`/api/v2/organizations/${org}`, { token: old })).status, 401);
    expectStatus(await t.get(`/api/v2/organizations/${org}`, { token: fresh }), 200);
    assert.equal((await t.delete(`/api/v2/teams/${team}/authentication-token`)).status, 204);
    assert.equal((await t.get(`/api/v2/organizations/${org}`, { token: fresh })).status, 401);
    assert.equal((await t.get(`/api/v2/teams/${team}/authentication-token`)).status, 404);
    assert.equal((await t.delete(`/api/v2/teams/${team}/authentication-token`)).status, 404);
  });

  it('honours expired-at: a past one is refused, an expired token is a 401', async () => {
    const team = await createTeam(t, org);
    for (const value of ['2001-01-01T00:00:00Z', 'tomorrow', 42]) {
      const res = await t.post(`/api/v2/teams/${team}/authentication-token`, {
        data: { type: 'authentication-tokens', attributes: { 'expired-at': value } },
      });
      assert.equal(res.status, 422, String(value));
      assert.equal(res.body.errors[0].source.pointer, '/data/attributes/expired-at');
    }
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const res = await t.post(`/api/v2/teams/${team}/authentication-token`, {
      data: { type: 'authentication-tokens', attributes: { 'expired-at': future } },
    });
    expectStatus(res, 201);
    assert.equal(res.body.data.attributes['expired-at'], future);
    const secret = res.body.data.attributes.token;
    expectStatus(await t.get(`/api/v2/organizations/${org}`, { token: secret }), 200);
    await t.store.db
      .updateTable('tokens')
      .set({ expired_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', res.body.data.id)
      .execute();
    assert.deepEqual((await t.get(`/api/v2/organizations/${org}`, { token: secret })).body, UNAUTHORIZED);
  });

  it('lets owners manage team tokens and a team read its own token, nobody else', async () => {
    const team = await createTeam(t, org);
    const { token: otherTeam } = await teamWithToken(t, org, { 'organization-access': { 'manage-workspaces': true } });
    const owners = await teamToken(t, await ownersTeam(t, org));
    const own = await teamToken(t, team);
    expectStatus(await t.get(`/api/v2/teams/${team}/authentication-token`, { token: own }), 200);
    assert.equal((await t.post(`/api/v2/teams/${team}/authentication-token`, undefined, { token: own })).status, 404);
    assert.equal((await t.get(`/api/v2/teams/${team}/authentication-token`, { token: otherTeam })).status, 404);
    assert.equal(
      (await t.delete(`/api/v2/teams/${team}/authentication-token`, undefined, { token: otherTeam })).status,
      404,
    );
    expectStatus(await t.post(`/api/v2/teams/${team}/authentication-token`, undefined, { token: owners }), 201);
  });

  it('issues one organization token, managed by owners and itself', async () => {
    const res = await t.post(`/api/v2/organizations/${org}/authentication-token`, undefined);
    expectStatus(res, 201);
    const secret: string = res.body.data.attributes.token;
    assert.ok(secret.length >= 32);
    assert.equal(res.body.data.relationships.team, undefined);
    const shown = await t.get(`/api/v2/organizations/${org}/authentication-token`, { token: secret });
    expectStatus(shown, 200);
    assert.equal(shown.body.data.attributes.token, null);
    assert.equal((await t.get(`/api/v2/organizations/${org}/authentication-token?token=audit-trails`)).status, 400);
    const { token: member } = await teamWithToken(t, org, { 'organization-access': { 'manage-projects': true } });
    assert.deepEqual(
      (await t.get(`/api/v2/organizations/${org}/authentication-token`, { token: member })).body,
      NOT_FOUND,
    );
    const next = await organizationToken(t, org);
    assert.equal((await t.get(`/api/v2/organizations/${org}`, { token: secret })).status, 401);
    assert.equal(
      (await t.delete(`/api/v2/organizations/${org}/authentication-token`, undefined, { token: next })).status,
      204,
    );
    assert.equal((await t.get(`/api/v2/organizations/${org}`, { token: next })).status, 401);
  });
});

describe(`team access (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  let ws: string;
  let prj: string;
  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
    prj = await t.createProject(org);
    ws = await t.createWorkspace(org, { projectId: prj });
  });
  after(async () => t.close());

  const body = (type: string, attributes: Record<string, unknown>, team: string, target: [string, string, string]) => ({
    data: {
      type,
      attributes,
      relationships: {
        team: { data: { type: 'teams', id: team } },
        [target[0]]: { data: { type: target[1], id: target[2] } },
      },
    },
  });

  it('grants a fixed workspace access level with the permissions it implies', async () => {
    const team = await createTeam(t, org);
    const res = await t.post(
      '/api/v2/team-workspaces',
      body('team-workspaces', { access: 'plan' }, team, ['workspace', 'workspaces', ws]),
    );
    expectStatus(res, 201);
    assert.match(res.body.data.id, /^tws-/);
    assert.deepEqual(res.body.data.attributes, {
      access: 'plan',
      runs: 'plan',
      variables: 'read',
      'state-versions': 'read',
      'sentinel-mocks': 'none',
      'workspace-locking': false,
      'run-tasks': false,
      'policy-overrides': false,
    });
    assert.deepEqual(res.body.data.relationships.team.data, { id: team, type: 'teams' });
    assert.deepEqual(res.body.data.relationships.workspace.data, { id: ws, type: 'workspaces' });
    assert.deepEqual((await t.get(`/api/v2/team-workspaces/${res.body.data.id}`)).body.data, res.body.data);

    const again = await t.post(
      '/api/v2/team-workspaces',
      body('team-workspaces', { access: 'read' }, team, ['workspace', 'workspaces', ws]),
    );
    assert.equal(again.status, 422);
  });

  it('grants custom workspace access, and refuses fine-grained values a fixed level contradicts', async () => {
    const team = await createTeam(t, org);
    const custom = await t.post(
      '/api/v2/team-workspaces',
      body('team-workspaces', { access: 'custom', variables: 'write' }, team, ['workspace', 'workspaces', ws]),
    );
    expectStatus(custom, 201);
    assert.equal(custom.body.data.attributes.runs, 'read');
    assert.equal(custom.body.data.attributes.variables, 'write');
    const id = custom.body.data.id;

    let res = await t.patch(`/api/v2/team-workspaces/${id}`, {
      data: { type: 'team-workspaces', attributes: { runs: 'apply' } },
    });
    expectStatus(res, 200);
    assert.equal(res.body.data.attributes.runs, 'apply');
    assert.equal(res.body.data.attributes.variables, 'write');

    res = await t.patch(`/api/v2/team-workspaces/${id}`, {
      data: { type: 'team-workspaces', attributes: { access: 'read', variables: 'write' } },
    });
    assert.equal(res.status, 422);
    assert.equal(res.body.errors[0].source.pointer, '/data/attributes/variables');
    res = await t.patch(`/api/v2/team-workspaces/${id}`, {
      data: { type: 'team-workspaces', attributes: { access: 'read' } },
    });
    assert.equal(res.body.data.attributes.variables, 'read');
    assert.equal(res.body.data.attributes.runs, 'read');

    for (const attributes of [
      {},
      { access: 'owner' },
      { access: 'custom', runs: 'destroy' },
      { access: 'custom', 'workspace-locking': 'yes' },
    ]) {
      const other = await createTeam(t, org);
      const bad = await t.post(
        '/api/v2/team-workspaces',
        body('team-workspaces', attributes, other, ['workspace', 'workspaces', ws]),
      );
      assert.equal(bad.status, 422, JSON.stringify(attributes));
    }
    const noWorkspace = await t.post('/api/v2/team-workspaces', {
      data: {
        type: 'team-workspaces',
        attributes: { access: 'read' },
        relationships: { team: { data: { type: 'teams', id: team } } },
      },
    });
    assert.equal(noWorkspace.status, 422);
  });

  it('refuses the owners team, a team of another organization and an unknown workspace', async () => {
    const owners = await ownersTeam(t, org);
    assert.equal(
      (
        await t.post(
          '/api/v2/team-workspaces',
          body('team-workspaces', { access: 'read' }, owners, ['workspace', 'workspaces', ws]),
        )
      ).status,
      422,
    );
    const foreign = await createTeam(t, await t.createOrganization());
    assert.deepEqual(
      (
        await t.post(
          '/api/v2/team-workspaces',
          body('team-workspaces', { access: 'read' }, foreign, ['workspace', 'workspaces', ws]),
        )
      ).body,
      NOT_FOUND,
    );
    const team = await createTeam(t, org);
    assert.deepEqual(
      (
        await t.post(
          '/api/v2/team-workspaces',
          body('team-workspaces', { access: 'read' }, team, ['workspace', 'workspaces', 'ws-nope']),
        )
      ).body,
      NOT_FOUND,
    );
  });

  it('lists the grants of a workspace or of a team; a filter is required', async () => {
    const w = await t.createWorkspace(org);
    const a = await createTeam(t, org, { visibility: 'organization' });
    const b = await createTeam(t, org);
    const hidden = await createTeam(t, org);
    const ga = await grantWorkspace(t, a, w, { access: 'write' });
    const gb = await grantWorkspace(t, b, w, { access: 'admin' });
    let res = await t.get(`/api/v2/team-workspaces?filter%5Bworkspace%5D%5Bid%5D=${w}`);
    expectStatus(res, 200);
    assert.deepEqual(res.body.data.map((d: any) => d.id).sort(), [ga, gb].sort());
    assert.equal(res.body.meta.pagination['total-count'], 2);
    res = await t.get(`/api/v2/team-workspaces?filter%5Bteam%5D%5Bid%5D=${a}`);
    assert.deepEqual(
      res.body.data.map((d: any) => d.id),
      [ga],
    );
    assert.equal((await t.get('/api/v2/team-workspaces')).status, 400);

    // A team that is not admin of the workspace sees only its own grant.
    const token = await teamToken(t, a);
    res = await t.get(`/api/v2/team-workspaces?filter%5Bworkspace%5D%5Bid%5D=${w}`, { token });
    assert.deepEqual(
      res.body.data.map((d: any) => d.id),
      [ga],
    );
    assert.equal((await t.get(`/api/v2/team-workspaces/${gb}`, { token })).status, 404);
    assert.equal((await t.delete(`/api/v2/team-workspaces/${ga}`, undefined, { token })).status, 404);
    // The admin team sees every grant of the workspace, and manages those of teams visible to it.
    const gh = await grantWorkspace(t, hidden, w, { access: 'read' });
    const admin = await teamToken(t, b);
    expectStatus(await t.get(`/api/v2/team-workspaces/${ga}`, { token: admin }), 200);
    expectStatus(await t.get(`/api/v2/team-workspaces/${gh}`, { token: admin }), 200);
    assert.equal((await t.delete(`/api/v2/team-workspaces/${gh}`, undefined, { token: admin })).status, 404);
    assert.equal((await t.delete(`/api/v2/team-workspaces/${ga}`, undefined, { token: admin })).status, 204);
    assert.equal((await t.get(`/api/v2/team-workspaces/${ga}`)).status, 404);
  });

  it('grants fixed and custom project access', async () => {
    const team = await createTeam(t, org);
    const res = await t.post(
      '/api/v2/team-projects',
      body('team-projects', { access: 'maintain' }, team, ['project', 'projects', prj]),
    );
    expectStatus(res, 201);
    assert.match(res.body.data.id, /^tprj-/);
    assert.equal(res.body.data.attributes.access, 'maintain');
    assert.deepEqual(res.body.data.attributes['project-access'], {
      settings: 'read',
      teams: 'none',
      'variable-sets': 'write',
    });
    assert.equal(res.body.data.attributes['workspace-access'].create, true);
    assert.equal(res.body.data.attributes['workspace-access'].runs, 'apply');
    assert.deepEqual(res.body.data.relationships.project.data, { id: prj, type: 'projects' });
    assert.deepEqual((await t.get(`/api/v2/team-projects/${res.body.data.id}`)).body.data, res.body.data);

    const other = await createTeam(t, org);
    const custom = await t.post(
      '/api/v2/team-projects',
      body(
        'team-projects',
        {
          access: 'custom',
          'project-access': { 'variable-sets': 'read' },
          'workspace-access': { variables: 'read', runs: 'plan' },
        },
        other,
        ['project', 'projects', prj],
      ),
    );
    expectStatus(custom, 201);
    assert.deepEqual(custom.body.data.attributes['project-access'], {
      settings: 'read',
      teams: 'none',
      'variable-sets': 'read',
    });
    assert.equal(custom.body.data.attributes['workspace-access'].variables, 'read');
    assert.equal(custom.body.data.attributes['workspace-access'].runs, 'plan');
    assert.equal(custom.body.data.attributes['workspace-access'].create, false);

    const bad = await t.patch(`/api/v2/team-projects/${res.body.data.id}`, {
      data: { type: 'team-projects', attributes: { 'workspace-access': { create: false } } },
    });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.errors[0].source.pointer, '/data/attributes/workspace-access/create');
    // Members varsetd does not know (a response sent back as it was read) are ignored, as elsewhere.
    const unknown = await t.patch(`/api/v2/team-projects/${res.body.data.id}`, {
      data: {
        type: 'team-projects',
        attributes: {
          access: 'maintain',
          'project-access': { 'future-flag': 'x' },
          'workspace-access': { 'policy-overrides': false },
        },
      },
    });
    expectStatus(unknown, 200);
    assert.deepEqual(unknown.body.data.attributes, res.body.data.attributes);
    const up = await t.patch(`/api/v2/team-projects/${res.body.data.id}`, {
      data: { type: 'team-projects', attributes: { access: 'admin' } },
    });
    expectStatus(up, 200);
    assert.deepEqual(up.body.data.attributes['project-access'], {
      settings: 'delete',
      teams: 'manage',
      'variable-sets': 'write',
    });

    const list = await t.get(`/api/v2/team-projects?filter%5Bproject%5D%5Bid%5D=${prj}`);
    assert.equal(list.body.meta.pagination['total-count'], 2);
    assert.equal((await t.delete(`/api/v2/team-projects/${custom.body.data.id}`)).status, 204);
    assert.equal((await t.get(`/api/v2/team-projects?filter%5Bproject%5D%5Bid%5D=${prj}`)).body.data.length, 1);
  });

  it('lets a project admin team manage the project’s team access, and a manage-workspaces team manage workspace access', async () => {
    const p = await t.createProject(org);
    const w = await t.createWorkspace(org, { projectId: p });
    const admin = await createTeam(t, org);
    await grantProject(t, admin, p, { access: 'admin' });
    const adminToken = await teamToken(t, admin);
    const visible = await createTeam(t, org, { visibility: 'organization' });
    const secret = await createTeam(t, org);
    expectStatus(
      await t.post(
        '/api/v2/team-projects',
        body('team-projects', { access: 'read' }, visible, ['project', 'projects', p]),
        { token: adminToken },
      ),
      201,
    );
    // A secret team is invisible to it.
    assert.equal(
      (
        await t.post(
          '/api/v2/team-projects',
          body('team-projects', { access: 'read' }, secret, ['project', 'projects', p]),
          { token: adminToken },
        )
      ).status,
      404,
    );
    // Project admin is admin of the project's workspaces, so it sets their team access too.
    expectStatus(
      await t.post(
        '/api/v2/team-workspaces',
        body('team-workspaces', { access: 'write' }, visible, ['workspace', 'workspaces', w]),
        { token: adminToken },
      ),
      201,
    );

    const { token: manager } = await teamWithToken(t, org, { 'organization-access': { 'manage-workspaces': true } });
    const other = await createTeam(t, org, { visibility: 'organization' });
    expectStatus(
      await t.post(
        '/api/v2/team-workspaces',
        body('team-workspaces', { access: 'read' }, other, ['workspace', 'workspaces', ws]),
        { token: manager },
      ),
      201,
    );
    // Project access belongs to manage-projects.
    assert.equal(
      (
        await t.post(
          '/api/v2/team-projects',
          body('team-projects', { access: 'read' }, other, ['project', 'projects', p]),
          { token: manager },
        )
      ).status,
      404,
    );
  });
});
