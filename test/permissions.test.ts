import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomAlphanumeric } from '../src/common/ids.js';
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
import { createComment, createRun, createUploadedConfigurationVersion } from './support/factories/runs.js';
import { ADMIN_TOKEN, expectStatus, NOT_FOUND } from './support/requests.js';
import { storeKind } from './support/store.js';

/**
 * The permission matrix: every endpoint against every kind of caller, with the exact status
 * each must get. A refusal is the 404 of a missing resource, with the same body; no or an
 * expired token is a 401.
 */

const SUBJECTS = [
  'admin',
  'owners',
  'manageWorkspaces',
  'manageProjects',
  'member',
  'wsRead',
  'wsPlan',
  'wsWrite',
  'wsAdmin',
  'wsCustomNone',
  'wsCustomRead',
  'wsCustomWrite',
  'prjRead',
  'prjWrite',
  'prjMaintain',
  'prjAdmin',
  'orgToken',
  'otherOrg',
  'expired',
  'none',
] as const;
type Name = (typeof SUBJECTS)[number];

// Who may do what on workspace W (in project P) of organization A.
const ORG_WIDE: Name[] = ['admin', 'owners', 'manageWorkspaces', 'manageProjects', 'orgToken'];
const WS_GRANTS: Name[] = ['wsRead', 'wsPlan', 'wsWrite', 'wsAdmin', 'wsCustomNone', 'wsCustomRead', 'wsCustomWrite'];
const PRJ_GRANTS: Name[] = ['prjRead', 'prjWrite', 'prjMaintain', 'prjAdmin'];
const MEMBERS: Name[] = [...ORG_WIDE, 'member', ...WS_GRANTS, ...PRJ_GRANTS];
const TOKENS: Name[] = [...MEMBERS, 'otherOrg'];
const READ_W: Name[] = [...ORG_WIDE, ...WS_GRANTS, ...PRJ_GRANTS];
const READ_VARS_W: Name[] = [
  ...ORG_WIDE,
  'wsRead',
  'wsPlan',
  'wsWrite',
  'wsAdmin',
  'wsCustomRead',
  'wsCustomWrite',
  ...PRJ_GRANTS,
];
const WRITE_VARS_W: Name[] = [
  ...ORG_WIDE,
  'wsWrite',
  'wsAdmin',
  'wsCustomWrite',
  'prjWrite',
  'prjMaintain',
  'prjAdmin',
];
const PLAN_W: Name[] = [
  'admin',
  'owners',
  'manageWorkspaces',
  'manageProjects',
  'wsPlan',
  'wsWrite',
  'wsAdmin',
  'prjWrite',
  'prjMaintain',
  'prjAdmin',
];
const ADMIN_W: Name[] = [...ORG_WIDE, 'wsAdmin', 'prjMaintain', 'prjAdmin'];
const READ_P: Name[] = [...ORG_WIDE, ...WS_GRANTS, ...PRJ_GRANTS];
const READ_VARS_P: Name[] = [...ORG_WIDE, ...PRJ_GRANTS];
const IN_P_ADMIN: Name[] = [...ORG_WIDE, 'prjMaintain', 'prjAdmin'];
const PROJECT_OWNERS: Name[] = ['admin', 'owners', 'manageProjects', 'orgToken'];
const PROJECT_ADMINS: Name[] = [...PROJECT_OWNERS, 'prjAdmin'];
const MANAGE_PROJECT_SETS: Name[] = [...ORG_WIDE, 'prjWrite', 'prjMaintain', 'prjAdmin'];
const TEAM_MANAGERS: Name[] = ['admin', 'owners', 'orgToken'];
const OWNERS_ONLY: Name[] = ['admin', 'owners'];

interface Request {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: string;
  body?: unknown;
}

interface Row {
  name: string;
  allowed: readonly Name[];
  /** The success status. */
  ok: number;
  /** Builds the request; may first create a fresh resource (with the admin token) for a request that consumes it. */
  request: () => Request | Promise<Request>;
  /** Subjects not run on this row (covered elsewhere: their success would break the fixture). */
  skip?: readonly Name[];
}

describe(`permission matrix (${storeKind})`, () => {
  let t: TestApp;
  const token = {} as Record<Name, string | null>;
  const fx = {} as {
    org: string;
    otherOrg: string;
    P: string;
    W: string;
    Wname: string;
    W2: string;
    W3: string;
    setOrg: string;
    setOrgVar: string;
    setProject: string;
    setOther: string;
    setGlobal: string;
    T0: string;
    Tsecret: string;
    G: string;
    GP: string;
    cv: string;
    run: string;
    comment: string;
    event: string;
    wsVar: string;
    memberTeam: string;
  };

  before(async () => {
    t = await TestApp.start();
    fx.org = await t.createOrganization();
    fx.otherOrg = await t.createOrganization();
    fx.P = await t.createProject(fx.org);
    fx.Wname = `w-${randomAlphanumeric(6)}`;
    fx.W = await t.createWorkspace(fx.org, { name: fx.Wname, projectId: fx.P });
    fx.W2 = await t.createWorkspace(fx.org);
    fx.W3 = await t.createWorkspace(fx.org, { projectId: fx.P });

    token.admin = ADMIN_TOKEN;
    token.none = null;
    token.owners = await teamToken(t, await ownersTeam(t, fx.org));
    token.manageWorkspaces = (
      await teamWithToken(t, fx.org, { 'organization-access': { 'manage-workspaces': true } })
    ).token;
    token.manageProjects = (
      await teamWithToken(t, fx.org, { 'organization-access': { 'manage-projects': true } })
    ).token;
    const member = await teamWithToken(t, fx.org, { visibility: 'organization' });
    token.member = member.token;
    fx.memberTeam = member.teamId;
    const workspaceGrants: [Name, Record<string, unknown>][] = [
      ['wsRead', { access: 'read' }],
      ['wsPlan', { access: 'plan' }],
      ['wsWrite', { access: 'write' }],
      ['wsAdmin', { access: 'admin' }],
      ['wsCustomNone', { access: 'custom', variables: 'none' }],
      ['wsCustomRead', { access: 'custom', variables: 'read' }],
      ['wsCustomWrite', { access: 'custom', variables: 'write' }],
    ];
    for (const [name, attributes] of workspaceGrants) {
      const { teamId, token: secret } = await teamWithToken(t, fx.org);
      await grantWorkspace(t, teamId, fx.W, attributes);
      token[name] = secret;
    }
    for (const [name, access] of [
      ['prjRead', 'read'],
      ['prjWrite', 'write'],
      ['prjMaintain', 'maintain'],
      ['prjAdmin', 'admin'],
    ] as const) {
      const { teamId, token: secret } = await teamWithToken(t, fx.org);
      await grantProject(t, teamId, fx.P, { access });
      token[name] = secret;
    }
    token.orgToken = await organizationToken(t, fx.org);
    token.otherOrg = await teamToken(t, await ownersTeam(t, fx.otherOrg));
    const expiring = await createTeam(t, fx.org, { 'organization-access': { 'manage-workspaces': true } });
    token.expired = await teamToken(t, expiring, { 'expired-at': new Date(Date.now() + 60_000).toISOString() });
    await t.store.db
      .updateTable('tokens')
      .set({ expired_at: new Date(Date.now() - 1000).toISOString() })
      .where('team_id', '=', expiring)
      .execute();

    fx.T0 = await createTeam(t, fx.org, { visibility: 'organization' });
    fx.Tsecret = await createTeam(t, fx.org);
    fx.G = await grantWorkspace(t, fx.T0, fx.W, { access: 'read' });
    fx.GP = await grantProject(t, fx.T0, fx.P, { access: 'read' });

    fx.setOrg = await createSet({ workspaces: [fx.W], vars: [{ key: 'region', value: 'eu', category: 'env' }] });
    fx.setOrgVar = (await t.get(`/api/v2/varsets/${fx.setOrg}/relationships/vars`)).body.data[0].id;
    fx.setProject = await createSet({ parent: fx.P, vars: [{ key: 'owned', value: 'x', category: 'env' }] });
    fx.setOther = await createSet({ workspaces: [fx.W2] });
    fx.setGlobal = await createSet({ global: true });

    fx.cv = await createUploadedConfigurationVersion(t, fx.W);
    fx.run = (await createRun(t, fx.W)).id;
    fx.comment = (await createComment(t, fx.run, 'looks good')).id;
    fx.event = (await t.get(`/api/v2/runs/${fx.run}/run-events`)).body.data[0].id;
    const wsVar = await t.post(`/api/v2/workspaces/${fx.W}/vars`, {
      data: { type: 'vars', attributes: { key: 'wsvar', value: 'v', category: 'terraform' } },
    });
    expectStatus(wsVar, 201);
    fx.wsVar = wsVar.body.data.id;
  });
  after(async () => t.close());

  async function createSet(
    options: { workspaces?: string[]; parent?: string; global?: boolean; vars?: Record<string, unknown>[] } = {},
  ): Promise<string> {
    const res = await t.post(`/api/v2/organizations/${fx.org}/varsets`, setBody(options));
    expectStatus(res, 200);
    return res.body.data.id;
  }

  function setBody(
    options: { workspaces?: string[]; parent?: string; global?: boolean; vars?: Record<string, unknown>[] } = {},
  ) {
    return {
      data: {
        type: 'varsets',
        attributes: { name: `set-${randomAlphanumeric(8)}`, global: options.global ?? false },
        relationships: {
          workspaces: { data: (options.workspaces ?? []).map((id) => ({ type: 'workspaces', id })) },
          vars: { data: (options.vars ?? []).map((attributes) => ({ type: 'vars', attributes })) },
          ...(options.parent ? { parent: { data: { type: 'projects', id: options.parent } } } : {}),
        },
      },
    };
  }

  const ids = (res: { body: any }) => res.body.data.map((d: { id: string }) => d.id).sort();

  // ---------------------------------------------------------------------------------------
  // What lists show each caller (before the matrix adds resources)

  it('lists only the variable sets a team may read', async () => {
    const list = async (name: Name) =>
      ids(await t.get(`/api/v2/organizations/${fx.org}/varsets?page%5Bsize%5D=100`, { token: token[name] }));
    const all = [fx.setOrg, fx.setProject, fx.setOther, fx.setGlobal].sort();
    for (const name of ORG_WIDE) assert.deepEqual(await list(name), all, name);
    for (const name of ['wsRead', 'wsPlan', 'wsWrite', 'wsAdmin', 'wsCustomRead', 'wsCustomWrite'] as Name[])
      assert.deepEqual(await list(name), [fx.setOrg, fx.setGlobal].sort(), name);
    for (const name of PRJ_GRANTS)
      assert.deepEqual(await list(name), [fx.setOrg, fx.setProject, fx.setGlobal].sort(), name);
    for (const name of ['wsCustomNone', 'member'] as Name[]) assert.deepEqual(await list(name), [], name);
    const counted = await t.get(`/api/v2/organizations/${fx.org}/varsets`, { token: token.wsRead });
    assert.equal(counted.body.meta.pagination['total-count'], 2);
  });

  it('lists only the workspaces, projects and teams a team may see', async () => {
    const list = async (path: string, name: Name) =>
      ids(await t.get(`/api/v2/organizations/${fx.org}/${path}?page%5Bsize%5D=100`, { token: token[name] }));
    assert.deepEqual(await list('workspaces', 'wsRead'), [fx.W]);
    assert.deepEqual(await list('workspaces', 'prjRead'), [fx.W, fx.W3].sort());
    assert.deepEqual(await list('workspaces', 'member'), []);
    assert.equal((await list('workspaces', 'orgToken')).length, 3);
    assert.deepEqual(await list('projects', 'wsCustomNone'), [fx.P]);
    assert.deepEqual(await list('projects', 'member'), []);
    assert.equal((await list('projects', 'manageWorkspaces')).length, 2);
    const owners = await ownersTeam(t, fx.org);
    assert.deepEqual(await list('teams', 'member'), [owners, fx.T0, fx.memberTeam].sort());
    assert.ok((await list('teams', 'owners')).includes(fx.Tsecret));
    const orgs = await t.get('/api/v2/organizations', { token: token.otherOrg });
    assert.deepEqual(ids(orgs), [fx.otherOrg]);
  });

  // ---------------------------------------------------------------------------------------
  // The `permissions` each caller is answered: what the matrix below lets it do

  /** Each member's permissions as `permissions` tells them, against the callers the matrix allows. */
  async function permissionsOf(url: string, readers: readonly Name[], pick: (body: any) => Record<string, boolean>) {
    const found = {} as Record<Name, Record<string, boolean>>;
    for (const name of readers) {
      const res = await t.get(url, { token: token[name] });
      expectStatus(res, 200);
      found[name] = pick(res.body);
    }
    return (permission: string) => readers.filter((name) => found[name][permission]).sort();
  }
  const sorted = (names: readonly Name[], among: readonly Name[]) => among.filter((n) => names.includes(n)).sort();

  it('answers each caller its permissions on the organization', async () => {
    const holders = await permissionsOf(
      `/api/v2/organizations/${fx.org}`,
      MEMBERS,
      (body) => body.data.attributes.permissions,
    );
    assert.deepEqual(holders('can-update'), sorted(OWNERS_ONLY, MEMBERS));
    assert.deepEqual(holders('can-destroy'), sorted(OWNERS_ONLY, MEMBERS));
    assert.deepEqual(holders('can-create-team'), sorted(TEAM_MANAGERS, MEMBERS));
    assert.deepEqual(holders('can-create-project'), sorted(PROJECT_OWNERS, MEMBERS));
    assert.deepEqual(holders('can-create-workspace'), sorted(ORG_WIDE, MEMBERS));
    assert.deepEqual(holders('can-manage-varsets'), sorted(ORG_WIDE, MEMBERS));
    assert.deepEqual(holders('can-read-varsets'), sorted(ORG_WIDE, MEMBERS));
    assert.deepEqual(holders('can-update-api-token'), sorted(TEAM_MANAGERS, MEMBERS));
    assert.deepEqual(holders('can-traverse'), sorted(MEMBERS, MEMBERS));
    // Features varsetd does not have.
    for (const absent of [
      'can-manage-run-tasks',
      'can-update-oauth',
      'can-update-sentinel',
      'can-enable-stacks',
      'can-manage-no-code-modules',
    ])
      assert.deepEqual(holders(absent), []);
    const listed = await t.get('/api/v2/organizations', { token: token.prjRead });
    assert.deepEqual(
      listed.body.data[0].attributes.permissions,
      (await t.get(`/api/v2/organizations/${fx.org}`, { token: token.prjRead })).body.data.attributes.permissions,
    );
  });

  it('answers each caller its permissions on a project, in every project response', async () => {
    const holders = await permissionsOf(`/api/v2/projects/${fx.P}`, READ_P, (body) => body.data.attributes.permissions);
    assert.deepEqual(holders('can-read'), sorted(READ_P, READ_P));
    assert.deepEqual(holders('can-update'), sorted(PROJECT_ADMINS, READ_P));
    // Project admins may delete their project (the matrix deletes a fresh project, which only owners of all projects may).
    assert.deepEqual(holders('can-destroy'), sorted(PROJECT_ADMINS, READ_P));
    assert.deepEqual(holders('can-create-workspace'), sorted(IN_P_ADMIN, READ_P));
    assert.deepEqual(holders('can-manage-varsets'), sorted(MANAGE_PROJECT_SETS, READ_P));
    assert.deepEqual(holders('can-manage-teams'), sorted(PROJECT_ADMINS, READ_P));
    assert.deepEqual(holders('can-move-stack'), []);
    const listed = await permissionsOf(
      `/api/v2/organizations/${fx.org}/projects?filter%5Bnames%5D=${encodeURIComponent((await t.get(`/api/v2/projects/${fx.P}`)).body.data.attributes.name)}`,
      READ_P,
      (body) => body.data[0].attributes.permissions,
    );
    assert.deepEqual(listed('can-update'), holders('can-update'));
    // The default project cannot be deleted, whoever asks.
    const organization = await t.get(`/api/v2/organizations/${fx.org}?include=default-project`);
    assert.equal(organization.body.included[0].attributes.permissions['can-destroy'], false);
  });

  it('answers each caller its permissions on a set, never serving one caller’s body to another', async () => {
    const readers = [...ORG_WIDE, ...PRJ_GRANTS];
    // Read twice in turn: the second round comes from the response cache where it may.
    for (let round = 0; round < 2; round++) {
      const onSet = await permissionsOf(
        `/api/v2/varsets/${fx.setProject}`,
        readers,
        (body) => body.data.attributes.permissions,
      );
      assert.deepEqual(onSet('can-update'), sorted(MANAGE_PROJECT_SETS, readers));
      const inList = await permissionsOf(
        `/api/v2/organizations/${fx.org}/varsets?page%5Bsize%5D=100`,
        readers,
        (body) => body.data.find((s: { id: string }) => s.id === fx.setProject).attributes.permissions,
      );
      assert.deepEqual(inList('can-update'), sorted(MANAGE_PROJECT_SETS, readers));
      const ofOrganization = await permissionsOf(
        `/api/v2/varsets/${fx.setOrg}`,
        READ_VARS_W,
        (body) => body.data.attributes.permissions,
      );
      assert.deepEqual(ofOrganization('can-update'), sorted(ORG_WIDE, READ_VARS_W));
    }
  });

  it('shows a team only its own team-access rows on a workspace it does not administer', async () => {
    const res = await t.get(`/api/v2/team-workspaces?filter%5Bworkspace%5D%5Bid%5D=${fx.W}`, { token: token.wsRead });
    assert.equal(res.body.data.length, 1);
    const all = await t.get(`/api/v2/team-workspaces?filter%5Bworkspace%5D%5Bid%5D=${fx.W}`, { token: token.wsAdmin });
    assert.equal(all.body.data.length, 8);
  });

  // ---------------------------------------------------------------------------------------
  // The matrix

  const rows = (): Row[] => [
    // Organizations
    {
      name: 'list organizations',
      allowed: TOKENS,
      ok: 200,
      request: () => ({ method: 'GET', url: '/api/v2/organizations' }),
    },
    {
      name: 'create an organization',
      allowed: ['admin'],
      ok: 201,
      request: () => ({
        method: 'POST',
        url: '/api/v2/organizations',
        body: {
          data: { type: 'organizations', attributes: { name: `o-${randomAlphanumeric(8)}`, email: 'o@example.com' } },
        },
      }),
    },
    {
      name: 'show the organization',
      allowed: MEMBERS,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/organizations/${fx.org}` }),
    },
    {
      name: 'list its stacks',
      allowed: MEMBERS,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/organizations/${fx.org}/stacks` }),
    },
    {
      name: 'read its entitlement set',
      allowed: MEMBERS,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/organizations/${fx.org}/entitlement-set` }),
    },
    {
      name: 'update the organization',
      allowed: OWNERS_ONLY,
      ok: 200,
      request: () => ({
        method: 'PATCH',
        url: `/api/v2/organizations/${fx.org}`,
        body: { data: { type: 'organizations', attributes: { email: 'same@example.com' } } },
      }),
    },
    {
      name: 'delete the organization',
      allowed: OWNERS_ONLY,
      ok: 204,
      skip: OWNERS_ONLY,
      request: () => ({ method: 'DELETE', url: `/api/v2/organizations/${fx.org}` }),
    },

    // Projects
    {
      name: 'list projects',
      allowed: MEMBERS,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/organizations/${fx.org}/projects` }),
    },
    {
      name: 'create a project',
      allowed: PROJECT_OWNERS,
      ok: 201,
      request: () => ({
        method: 'POST',
        url: `/api/v2/organizations/${fx.org}/projects`,
        body: { data: { type: 'projects', attributes: { name: `p-${randomAlphanumeric(8)}` } } },
      }),
    },
    {
      name: 'show the project',
      allowed: READ_P,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/projects/${fx.P}` }),
    },
    {
      name: 'update the project',
      allowed: PROJECT_ADMINS,
      ok: 200,
      request: () => ({
        method: 'PATCH',
        url: `/api/v2/projects/${fx.P}`,
        body: { data: { type: 'projects', attributes: { description: 'd' } } },
      }),
    },
    {
      name: 'delete a project',
      allowed: PROJECT_OWNERS,
      ok: 204,
      request: async () => ({ method: 'DELETE', url: `/api/v2/projects/${await t.createProject(fx.org)}` }),
    },

    // Workspaces
    {
      name: 'list workspaces',
      allowed: MEMBERS,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/organizations/${fx.org}/workspaces` }),
    },
    {
      name: 'create a workspace in the default project',
      allowed: ORG_WIDE,
      ok: 201,
      request: () => ({
        method: 'POST',
        url: `/api/v2/organizations/${fx.org}/workspaces`,
        body: { data: { type: 'workspaces', attributes: { name: `w-${randomAlphanumeric(8)}` } } },
      }),
    },
    {
      name: 'create a workspace in project P',
      allowed: IN_P_ADMIN,
      ok: 201,
      request: () => ({
        method: 'POST',
        url: `/api/v2/organizations/${fx.org}/workspaces`,
        body: {
          data: {
            type: 'workspaces',
            attributes: { name: `w-${randomAlphanumeric(8)}` },
            relationships: { project: { data: { type: 'projects', id: fx.P } } },
          },
        },
      }),
    },
    {
      name: 'show the workspace',
      allowed: READ_W,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/workspaces/${fx.W}` }),
    },
    {
      name: 'show the workspace by name',
      allowed: READ_W,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/organizations/${fx.org}/workspaces/${fx.Wname}` }),
    },
    {
      name: 'update the workspace',
      allowed: ADMIN_W,
      ok: 200,
      request: () => ({
        method: 'PATCH',
        url: `/api/v2/workspaces/${fx.W}`,
        body: { data: { type: 'workspaces', attributes: { description: 'd' } } },
      }),
    },
    {
      name: 'move the workspace to another project',
      allowed: PROJECT_OWNERS,
      ok: 200,
      request: async () => {
        const w = await t.createWorkspace(fx.org);
        return {
          method: 'PATCH',
          url: `/api/v2/workspaces/${w}`,
          body: { data: { type: 'workspaces', relationships: { project: { data: { type: 'projects', id: fx.P } } } } },
        };
      },
    },
    {
      name: 'delete a workspace of project P',
      allowed: IN_P_ADMIN,
      ok: 204,
      request: async () => ({
        method: 'DELETE',
        url: `/api/v2/workspaces/${await t.createWorkspace(fx.org, { projectId: fx.P })}`,
      }),
    },

    // Teams and tokens
    {
      name: 'list teams',
      allowed: MEMBERS,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/organizations/${fx.org}/teams` }),
    },
    {
      name: 'create a team',
      allowed: TEAM_MANAGERS,
      ok: 200,
      request: () => ({
        method: 'POST',
        url: `/api/v2/organizations/${fx.org}/teams`,
        body: { data: { type: 'teams', attributes: { name: `t-${randomAlphanumeric(8)}` } } },
      }),
    },
    {
      name: 'show a visible team',
      allowed: MEMBERS,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/teams/${fx.T0}` }),
    },
    {
      name: 'show a secret team',
      allowed: TEAM_MANAGERS,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/teams/${fx.Tsecret}` }),
    },
    {
      name: 'update a team',
      allowed: TEAM_MANAGERS,
      ok: 200,
      request: () => ({
        method: 'PATCH',
        url: `/api/v2/teams/${fx.T0}`,
        body: { data: { type: 'teams', attributes: { visibility: 'organization' } } },
      }),
    },
    {
      name: 'delete a team',
      allowed: TEAM_MANAGERS,
      ok: 204,
      request: async () => ({
        method: 'DELETE',
        url: `/api/v2/teams/${await createTeam(t, fx.org, { visibility: 'organization' })}`,
      }),
    },
    {
      name: 'create a team token',
      allowed: TEAM_MANAGERS,
      ok: 201,
      request: () => ({ method: 'POST', url: `/api/v2/teams/${fx.T0}/authentication-token` }),
    },
    {
      name: 'show a team token',
      allowed: TEAM_MANAGERS,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/teams/${fx.T0}/authentication-token` }),
    },
    {
      name: 'delete a team token',
      allowed: TEAM_MANAGERS,
      ok: 204,
      request: async () => {
        const team = await createTeam(t, fx.org, { visibility: 'organization' });
        await teamToken(t, team);
        return { method: 'DELETE', url: `/api/v2/teams/${team}/authentication-token` };
      },
    },
    {
      name: 'show the organization token',
      allowed: TEAM_MANAGERS,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/organizations/${fx.org}/authentication-token` }),
    },
    // Allowed callers would replace or revoke the organization token the matrix uses; tests/teams.test.ts covers them.
    {
      name: 'create the organization token',
      allowed: TEAM_MANAGERS,
      ok: 201,
      skip: TEAM_MANAGERS,
      request: () => ({ method: 'POST', url: `/api/v2/organizations/${fx.org}/authentication-token` }),
    },
    {
      name: 'delete the organization token',
      allowed: TEAM_MANAGERS,
      ok: 204,
      skip: TEAM_MANAGERS,
      request: () => ({ method: 'DELETE', url: `/api/v2/organizations/${fx.org}/authentication-token` }),
    },

    // Team access
    {
      name: 'list team access to the workspace',
      allowed: READ_W,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/team-workspaces?filter%5Bworkspace%5D%5Bid%5D=${fx.W}` }),
    },
    {
      name: 'show a team’s access to the workspace',
      allowed: ADMIN_W,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/team-workspaces/${fx.G}` }),
    },
    {
      name: 'update a team’s access to the workspace',
      allowed: ADMIN_W,
      ok: 200,
      request: () => ({
        method: 'PATCH',
        url: `/api/v2/team-workspaces/${fx.G}`,
        body: { data: { type: 'team-workspaces', attributes: { access: 'read' } } },
      }),
    },
    {
      name: 'grant a team access to the workspace',
      allowed: ADMIN_W,
      ok: 201,
      request: async () => {
        const team = await createTeam(t, fx.org, { visibility: 'organization' });
        return {
          method: 'POST',
          url: '/api/v2/team-workspaces',
          body: {
            data: {
              type: 'team-workspaces',
              attributes: { access: 'read' },
              relationships: {
                team: { data: { type: 'teams', id: team } },
                workspace: { data: { type: 'workspaces', id: fx.W } },
              },
            },
          },
        };
      },
    },
    {
      name: 'remove a team’s access to the workspace',
      allowed: ADMIN_W,
      ok: 204,
      request: async () => {
        const team = await createTeam(t, fx.org, { visibility: 'organization' });
        return {
          method: 'DELETE',
          url: `/api/v2/team-workspaces/${await grantWorkspace(t, team, fx.W, { access: 'read' })}`,
        };
      },
    },
    {
      name: 'list team access to the project',
      allowed: READ_P,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/team-projects?filter%5Bproject%5D%5Bid%5D=${fx.P}` }),
    },
    {
      name: 'show a team’s access to the project',
      allowed: PROJECT_ADMINS,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/team-projects/${fx.GP}` }),
    },
    {
      name: 'update a team’s access to the project',
      allowed: PROJECT_ADMINS,
      ok: 200,
      request: () => ({
        method: 'PATCH',
        url: `/api/v2/team-projects/${fx.GP}`,
        body: { data: { type: 'team-projects', attributes: { access: 'read' } } },
      }),
    },
    {
      name: 'grant a team access to the project',
      allowed: PROJECT_ADMINS,
      ok: 201,
      request: async () => {
        const team = await createTeam(t, fx.org, { visibility: 'organization' });
        return {
          method: 'POST',
          url: '/api/v2/team-projects',
          body: {
            data: {
              type: 'team-projects',
              attributes: { access: 'read' },
              relationships: {
                team: { data: { type: 'teams', id: team } },
                project: { data: { type: 'projects', id: fx.P } },
              },
            },
          },
        };
      },
    },
    {
      name: 'remove a team’s access to the project',
      allowed: PROJECT_ADMINS,
      ok: 204,
      request: async () => {
        const team = await createTeam(t, fx.org, { visibility: 'organization' });
        return {
          method: 'DELETE',
          url: `/api/v2/team-projects/${await grantProject(t, team, fx.P, { access: 'read' })}`,
        };
      },
    },

    // Variable sets: reads
    {
      name: 'list the organization’s variable sets',
      allowed: MEMBERS,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/organizations/${fx.org}/varsets` }),
    },
    {
      name: 'list the project’s variable sets',
      allowed: READ_VARS_P,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/projects/${fx.P}/varsets` }),
    },
    {
      name: 'list the workspace’s variable sets',
      allowed: READ_VARS_W,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/workspaces/${fx.W}/varsets` }),
    },
    {
      name: 'show a set applied to the workspace',
      allowed: READ_VARS_W,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/varsets/${fx.setOrg}?include=vars` }),
    },
    {
      name: 'list its variables',
      allowed: READ_VARS_W,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/varsets/${fx.setOrg}/relationships/vars` }),
    },
    {
      name: 'show one of its variables',
      allowed: READ_VARS_W,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/varsets/${fx.setOrg}/relationships/vars/${fx.setOrgVar}` }),
    },
    {
      name: 'show a global set',
      allowed: [...ORG_WIDE, ...READ_VARS_W],
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/varsets/${fx.setGlobal}` }),
    },
    {
      name: 'show a set applied elsewhere',
      allowed: ORG_WIDE,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/varsets/${fx.setOther}` }),
    },
    {
      name: 'show a set owned by the project',
      allowed: [...ORG_WIDE, ...PRJ_GRANTS],
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/varsets/${fx.setProject}` }),
    },

    // Variable sets: writes
    {
      name: 'create a set',
      allowed: ORG_WIDE,
      ok: 200,
      request: () => ({ method: 'POST', url: `/api/v2/organizations/${fx.org}/varsets`, body: setBody() }),
    },
    {
      name: 'create a set owned by the project',
      allowed: MANAGE_PROJECT_SETS,
      ok: 200,
      request: () => ({
        method: 'POST',
        url: `/api/v2/organizations/${fx.org}/varsets`,
        body: setBody({ parent: fx.P }),
      }),
    },
    {
      name: 'update a set',
      allowed: ORG_WIDE,
      ok: 200,
      request: () => ({
        method: 'PATCH',
        url: `/api/v2/varsets/${fx.setOrg}`,
        body: { data: { type: 'varsets', attributes: { description: 'd' } } },
      }),
    },
    {
      name: 'update it with PUT',
      allowed: ORG_WIDE,
      ok: 200,
      request: () => ({
        method: 'PUT',
        url: `/api/v2/varsets/${fx.setOrg}`,
        body: { data: { type: 'varsets', attributes: { description: 'e' } } },
      }),
    },
    {
      name: 'update a set owned by the project',
      allowed: MANAGE_PROJECT_SETS,
      ok: 200,
      request: () => ({
        method: 'PATCH',
        url: `/api/v2/varsets/${fx.setProject}`,
        body: { data: { type: 'varsets', attributes: { description: 'd' } } },
      }),
    },
    {
      name: 'delete a set',
      allowed: ORG_WIDE,
      ok: 204,
      request: async () => ({ method: 'DELETE', url: `/api/v2/varsets/${await createSet()}` }),
    },
    {
      name: 'delete a set owned by the project',
      allowed: MANAGE_PROJECT_SETS,
      ok: 204,
      request: async () => ({ method: 'DELETE', url: `/api/v2/varsets/${await createSet({ parent: fx.P })}` }),
    },
    {
      name: 'add a variable to a set',
      allowed: ORG_WIDE,
      ok: 200,
      request: () => ({
        method: 'POST',
        url: `/api/v2/varsets/${fx.setOrg}/relationships/vars`,
        body: { data: { type: 'vars', attributes: { key: `k${randomAlphanumeric(8)}`, category: 'env' } } },
      }),
    },
    {
      name: 'add a variable to a set owned by the project',
      allowed: MANAGE_PROJECT_SETS,
      ok: 200,
      request: () => ({
        method: 'POST',
        url: `/api/v2/varsets/${fx.setProject}/relationships/vars`,
        body: { data: { type: 'vars', attributes: { key: `k${randomAlphanumeric(8)}`, category: 'env' } } },
      }),
    },
    {
      name: 'update a variable of a set',
      allowed: ORG_WIDE,
      ok: 200,
      request: () => ({
        method: 'PATCH',
        url: `/api/v2/varsets/${fx.setOrg}/relationships/vars/${fx.setOrgVar}`,
        body: { data: { type: 'vars', attributes: { value: 'us' } } },
      }),
    },
    {
      name: 'delete a variable of a set',
      allowed: ORG_WIDE,
      ok: 204,
      request: async () => {
        const res = await t.post(`/api/v2/varsets/${fx.setOrg}/relationships/vars`, {
          data: { type: 'vars', attributes: { key: `k${randomAlphanumeric(8)}`, category: 'env' } },
        });
        expectStatus(res, 200);
        return { method: 'DELETE', url: `/api/v2/varsets/${fx.setOrg}/relationships/vars/${res.body.data.id}` };
      },
    },
    {
      name: 'apply a set to a workspace',
      allowed: ORG_WIDE,
      ok: 204,
      request: () => ({
        method: 'POST',
        url: `/api/v2/varsets/${fx.setOrg}/relationships/workspaces`,
        body: { data: [{ type: 'workspaces', id: fx.W2 }] },
      }),
    },
    {
      name: 'remove a set from a workspace',
      allowed: ORG_WIDE,
      ok: 204,
      request: () => ({
        method: 'DELETE',
        url: `/api/v2/varsets/${fx.setOrg}/relationships/workspaces`,
        body: { data: [{ type: 'workspaces', id: fx.W2 }] },
      }),
    },
    {
      name: 'apply a set to a project',
      allowed: ORG_WIDE,
      ok: 204,
      request: () => ({
        method: 'POST',
        url: `/api/v2/varsets/${fx.setOther}/relationships/projects`,
        body: { data: [{ type: 'projects', id: fx.P }] },
      }),
    },
    {
      name: 'remove a set from a project',
      allowed: ORG_WIDE,
      ok: 204,
      request: () => ({
        method: 'DELETE',
        url: `/api/v2/varsets/${fx.setOther}/relationships/projects`,
        body: { data: [{ type: 'projects', id: fx.P }] },
      }),
    },
    {
      name: 'apply a set owned by the project to one of its workspaces',
      allowed: MANAGE_PROJECT_SETS,
      ok: 204,
      request: () => ({
        method: 'POST',
        url: `/api/v2/varsets/${fx.setProject}/relationships/workspaces`,
        body: { data: [{ type: 'workspaces', id: fx.W3 }] },
      }),
    },

    // Workspace variables
    {
      name: 'list the workspace’s variables',
      allowed: READ_VARS_W,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/workspaces/${fx.W}/vars` }),
    },
    {
      name: 'show a workspace variable',
      allowed: READ_VARS_W,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/workspaces/${fx.W}/vars/${fx.wsVar}` }),
    },
    {
      name: 'read the workspace’s effective variables',
      allowed: READ_VARS_W,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/workspaces/${fx.W}/all-vars` }),
    },
    {
      name: 'create a workspace variable',
      allowed: WRITE_VARS_W,
      ok: 201,
      request: () => ({
        method: 'POST',
        url: `/api/v2/workspaces/${fx.W}/vars`,
        body: { data: { type: 'vars', attributes: { key: `k${randomAlphanumeric(8)}`, category: 'env' } } },
      }),
    },

    // Configuration versions, runs, run events and comments
    {
      name: 'create a configuration version',
      allowed: PLAN_W,
      ok: 201,
      request: () => ({
        method: 'POST',
        url: `/api/v2/workspaces/${fx.W}/configuration-versions`,
        body: { data: { type: 'configuration-versions', attributes: {} } },
      }),
    },
    {
      name: 'list configuration versions',
      allowed: READ_W,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/workspaces/${fx.W}/configuration-versions` }),
    },
    {
      name: 'show a configuration version',
      allowed: READ_W,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/configuration-versions/${fx.cv}` }),
    },
    {
      name: 'create a run',
      allowed: PLAN_W,
      ok: 201,
      request: () => ({
        method: 'POST',
        url: '/api/v2/runs',
        body: {
          data: {
            type: 'runs',
            relationships: {
              workspace: { data: { type: 'workspaces', id: fx.W } },
              'configuration-version': { data: { type: 'configuration-versions', id: fx.cv } },
            },
          },
        },
      }),
    },
    {
      name: 'list runs',
      allowed: READ_W,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/workspaces/${fx.W}/runs` }),
    },
    { name: 'show a run', allowed: READ_W, ok: 200, request: () => ({ method: 'GET', url: `/api/v2/runs/${fx.run}` }) },
    {
      name: 'read a run’s effective variables',
      allowed: READ_VARS_W,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/runs/${fx.run}/effective-variables` }),
    },
    {
      name: 'list run events',
      allowed: READ_W,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/runs/${fx.run}/run-events` }),
    },
    {
      name: 'show a run event',
      allowed: READ_W,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/run-events/${fx.event}` }),
    },
    {
      name: 'list comments',
      allowed: READ_W,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/runs/${fx.run}/comments` }),
    },
    {
      name: 'show a comment',
      allowed: READ_W,
      ok: 200,
      request: () => ({ method: 'GET', url: `/api/v2/comments/${fx.comment}` }),
    },
    {
      name: 'comment on a run',
      allowed: PLAN_W,
      ok: 201,
      request: () => ({
        method: 'POST',
        url: `/api/v2/runs/${fx.run}/comments`,
        body: { data: { type: 'comments', attributes: { body: 'ship it' } } },
      }),
    },
  ];

  for (const row of rows()) {
    it(row.name, async () => {
      const wrong: string[] = [];
      for (const name of SUBJECTS) {
        if (row.skip?.includes(name)) continue;
        const req = await row.request();
        const res = await t.request(req.method, req.url, {
          token: token[name],
          ...(req.body === undefined ? { contentType: 'application/vnd.api+json' } : { body: req.body }),
        });
        const expected = name === 'none' || name === 'expired' ? 401 : row.allowed.includes(name) ? row.ok : 404;
        if (res.status !== expected)
          wrong.push(`${name}: expected ${expected}, got ${res.status} ${JSON.stringify(res.body)}`);
        else if (expected === 404 && JSON.stringify(res.body) !== JSON.stringify(NOT_FOUND))
          wrong.push(`${name}: a refusal must look exactly like a missing resource, got ${JSON.stringify(res.body)}`);
      }
      assert.deepEqual(wrong, []);
    });
  }
});
