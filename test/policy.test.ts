import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PROJECT_LEVELS, WORKSPACE_LEVELS, type ProjectAccess, type WorkspaceAccess } from '../src/auth/levels.js';
import type { Action, Target } from '../src/auth/actions.js';
import { can, ensure } from '../src/auth/decisions.js';
import { projectGrantRights, workspaceGrantRights } from '../src/auth/grants.js';
import {
  organizationListScope,
  projectListScope,
  teamListScope,
  varsetListScope,
  workspaceListScope,
} from '../src/auth/list-scopes.js';
import type { Subject, TeamRights } from '../src/auth/subject.js';
import { TokenRefused } from '../src/common/errors.js';

/** The pure permission policy: every decision from an in-memory subject, no store involved. */

const ORG = 'org-1';
const OTHER_ORG = 'org-2';
const PRJ = 'prj-a';
const PRJ_B = 'prj-b';
const WS = 'ws-a1'; // in PRJ
const WS_B = 'ws-b1'; // in PRJ_B

const admin: Subject = {
  kind: 'site-admin',
  tokenId: 'at-admin',
  description: 'site administrator',
  refusedBy: new Set(),
};
/** The site admin, in a world where ORG turned user tokens off. */
const refusedAdmin: Subject = {
  kind: 'site-admin',
  tokenId: 'at-admin',
  description: 'site administrator',
  refusedBy: new Set([ORG]),
};
const orgToken: Subject = { kind: 'organization', tokenId: 'at-org', description: 'organization', organizationId: ORG };

function team(rights: Partial<TeamRights> = {}, teamId = 'team-me'): Subject {
  return {
    kind: 'team',
    tokenId: 'at-team',
    description: 'team',
    teamId,
    organizationId: ORG,
    rights: {
      owners: false,
      manageWorkspaces: false,
      manageProjects: false,
      readWorkspaces: false,
      readProjects: false,
      manageTeams: false,
      manageOrganizationAccess: false,
      accessSecretTeams: false,
      workspaces: new Map(),
      projects: new Map(),
      ...rights,
    },
  };
}

const owners = team({
  owners: true,
  manageProjects: true,
  manageWorkspaces: true,
  readWorkspaces: true,
  readProjects: true,
  manageTeams: true,
  manageOrganizationAccess: true,
  accessSecretTeams: true,
});
const manageWorkspaces = team({ manageWorkspaces: true });

function workspaceGrant(
  access: WorkspaceAccess,
  custom: Partial<(typeof WORKSPACE_LEVELS)['custom']> = {},
  workspaceId = WS,
  projectId = PRJ,
): Subject {
  const set = { ...WORKSPACE_LEVELS[access], ...custom };
  return team({
    workspaces: new Map([
      [
        workspaceId,
        {
          projectId,
          rights: workspaceGrantRights({
            access,
            runs: set.runs,
            variables: set.variables,
            locking: set['workspace-locking'],
            runTasks: set['run-tasks'],
          }),
        },
      ],
    ]),
  });
}

function projectGrant(
  access: ProjectAccess,
  custom: { project?: object; workspace?: object } = {},
  projectId = PRJ,
): Subject {
  const level = PROJECT_LEVELS[access];
  const project = { ...level.project, ...custom.project };
  const workspace = { ...level.workspace, ...custom.workspace };
  return team({
    projects: new Map([
      [
        projectId,
        projectGrantRights({
          access,
          settings: project.settings,
          teams: project.teams,
          variableSets: project['variable-sets'],
          workspace,
        }),
      ],
    ]),
  });
}

const inWorkspace: Target = { organizationId: ORG, projectId: PRJ, workspaceId: WS };
const inOtherWorkspace: Target = { organizationId: ORG, projectId: PRJ_B, workspaceId: WS_B };

describe('policy: subjects and organizations', () => {
  it('lets the site admin do everything, in any organization', () => {
    for (const action of [
      'organizations:create',
      'organization:delete',
      'run:create',
      'varset:update',
      'team:delete',
    ] as Action[]) {
      assert.ok(can(admin, action, { organizationId: OTHER_ORG }));
    }
  });

  it('refuses the site admin in an organization that turned user tokens off, as a refused token (a 401 at the edge), and only there', () => {
    for (const action of ['organization:read', 'workspace:read', 'varset:read', 'team:read', 'run:read'] as Action[]) {
      assert.equal(
        can(refusedAdmin, action, { ...inWorkspace, team: { id: 'team-x', visibility: 'organization' } }),
        false,
      );
      assert.throws(
        () => ensure(refusedAdmin, action, inWorkspace),
        (error) => error instanceof TokenRefused,
      );
      assert.ok(can(refusedAdmin, action, { ...inWorkspace, organizationId: OTHER_ORG }));
    }
    assert.ok(can(refusedAdmin, 'organizations:create'));
    for (const scope of [varsetListScope, workspaceListScope, projectListScope, teamListScope]) {
      assert.equal(scope(refusedAdmin, ORG), 'none');
      assert.equal(scope(refusedAdmin, OTHER_ORG), 'all');
    }
    assert.deepEqual(organizationListScope(refusedAdmin), { except: [ORG] });
    assert.deepEqual(organizationListScope(owners), { only: [ORG] });
  });

  it('lets only the site admin create organizations', () => {
    for (const subject of [owners, orgToken, manageWorkspaces])
      assert.equal(can(subject, 'organizations:create', {}), false);
  });

  it('never lets a team or organization token act in another organization, nor on a target without one', () => {
    for (const subject of [owners, orgToken, manageWorkspaces]) {
      assert.equal(can(subject, 'organization:read', { organizationId: OTHER_ORG }), false);
      assert.equal(can(subject, 'workspace:read', { ...inWorkspace, organizationId: OTHER_ORG }), false);
      assert.equal(can(subject, 'workspace:read', { projectId: PRJ, workspaceId: WS }), false);
    }
  });

  it('lets every member read its organization; owners alone change or delete it', () => {
    for (const subject of [owners, orgToken, team()])
      assert.ok(can(subject, 'organization:read', { organizationId: ORG }));
    assert.ok(can(owners, 'organization:update', { organizationId: ORG }));
    assert.ok(can(owners, 'organization:delete', { organizationId: ORG }));
    for (const subject of [orgToken, manageWorkspaces, team({ manageProjects: true, manageWorkspaces: true })]) {
      assert.equal(can(subject, 'organization:update', { organizationId: ORG }), false);
      assert.equal(can(subject, 'organization:delete', { organizationId: ORG }), false);
    }
  });

  it('lets the organization token do what owners do, except runs, configuration versions, comments and the organization itself', () => {
    for (const action of [
      'varsets:create',
      'varset:update',
      'workspace:write-variables',
      'teams:create',
      'workspaces:create',
      'projects:create',
      'run:read',
      'comment:read',
      'organization-token:manage',
    ] as Action[]) {
      assert.ok(can(orgToken, action, { ...inWorkspace, varset: { ownerProjectId: null } }), action);
    }
    for (const action of ['run:create', 'run:apply', 'configuration-version:create', 'comment:create'] as Action[]) {
      assert.equal(can(orgToken, action, inWorkspace), false, action);
    }
  });
});

describe('policy: workspace access levels', () => {
  const expectations: [string, Subject, Partial<Record<Action, boolean>>][] = [
    [
      'read',
      workspaceGrant('read'),
      {
        'workspace:read': true,
        'workspace:read-variables': true,
        'workspace:write-variables': false,
        'run:create': false,
        'comment:create': false,
        'run:read': true,
        'workspace:update': false,
        'workspace:delete': false,
      },
    ],
    [
      'plan',
      workspaceGrant('plan'),
      {
        'workspace:read-variables': true,
        'workspace:write-variables': false,
        'run:create': true,
        'comment:create': true,
        'run:apply': false,
        'workspace:update': false,
      },
    ],
    [
      'write',
      workspaceGrant('write'),
      { 'workspace:write-variables': true, 'run:apply': true, 'workspace:update': false, 'workspace:delete': false },
    ],
    [
      'admin',
      workspaceGrant('admin'),
      {
        'workspace:write-variables': true,
        'workspace:update': true,
        'workspace:delete': true,
        'team-workspace:read': true,
      },
    ],
    [
      'custom none',
      workspaceGrant('custom', { variables: 'none' }),
      { 'workspace:read': true, 'workspace:read-variables': false, 'run:read': true, 'run:create': false },
    ],
    [
      'custom read',
      workspaceGrant('custom', { variables: 'read' }),
      { 'workspace:read-variables': true, 'workspace:write-variables': false },
    ],
    [
      'custom write',
      workspaceGrant('custom', { variables: 'write', runs: 'plan' }),
      { 'workspace:write-variables': true, 'comment:create': true, 'run:apply': false },
    ],
    [
      'manage-workspaces',
      manageWorkspaces,
      { 'workspace:delete': true, 'workspace:write-variables': true, 'run:apply': true, 'workspaces:create': true },
    ],
    [
      'read-workspaces',
      team({ readWorkspaces: true }),
      {
        'workspace:read': true,
        'workspace:read-variables': true,
        'workspace:write-variables': false,
        'run:create': false,
      },
    ],
    ['no grant', team(), { 'workspace:read': false, 'run:read': false, 'comment:read': false }],
  ];
  for (const [name, subject, actions] of expectations) {
    it(`decides for ${name}`, () => {
      for (const [action, expected] of Object.entries(actions)) {
        assert.equal(can(subject, action as Action, inWorkspace), expected, `${name}: ${action}`);
      }
    });
  }

  it('confines a workspace grant to its workspace', () => {
    assert.equal(can(workspaceGrant('admin'), 'workspace:read', inOtherWorkspace), false);
  });

  it('takes the greatest of all grants that reach a workspace', () => {
    const read = PROJECT_LEVELS.read;
    const both = team({
      workspaces: new Map([
        [
          WS,
          {
            projectId: PRJ,
            rights: workspaceGrantRights({
              access: 'custom',
              runs: 'apply',
              variables: 'none',
              locking: false,
              runTasks: false,
            }),
          },
        ],
      ]),
      projects: new Map([
        [
          PRJ,
          projectGrantRights({
            access: 'read',
            settings: 'read',
            teams: 'none',
            variableSets: 'read',
            workspace: read.workspace,
          }),
        ],
      ]),
    });
    assert.ok(can(both, 'workspace:read-variables', inWorkspace));
    assert.ok(can(both, 'run:apply', inWorkspace));
  });
});

describe('policy: project access levels', () => {
  const project: Target = { organizationId: ORG, projectId: PRJ };
  it('gives every workspace of the project the project grant’s workspace permissions', () => {
    assert.ok(can(projectGrant('read'), 'workspace:read-variables', inWorkspace));
    assert.equal(can(projectGrant('read'), 'run:create', inWorkspace), false);
    assert.ok(can(projectGrant('write'), 'run:apply', inWorkspace));
    assert.equal(can(projectGrant('write'), 'workspace:update', inWorkspace), false);
    assert.ok(can(projectGrant('maintain'), 'workspace:update', inWorkspace));
    assert.ok(can(projectGrant('maintain'), 'workspace:delete', inWorkspace));
    assert.equal(can(projectGrant('admin'), 'workspace:read', inOtherWorkspace), false);
  });

  it('decides on the project itself', () => {
    assert.ok(can(projectGrant('read'), 'project:read', project));
    assert.equal(can(projectGrant('read'), 'project:update', project), false);
    assert.equal(can(projectGrant('maintain'), 'project:update', project), false);
    assert.ok(can(projectGrant('maintain'), 'workspaces:create', project));
    assert.equal(can(projectGrant('write'), 'workspaces:create', project), false);
    assert.ok(can(projectGrant('admin'), 'project:delete', project));
    assert.ok(
      can(projectGrant('admin'), 'team-project:manage', {
        ...project,
        team: { id: 'team-x', visibility: 'organization' },
      }),
    );
    assert.equal(
      can(projectGrant('admin'), 'team-project:manage', { ...project, team: { id: 'team-x', visibility: 'secret' } }),
      false,
    );
    assert.ok(can(projectGrant('custom', { project: { settings: 'update' } }), 'project:update', project));
    assert.ok(can(projectGrant('read'), 'project:read-variables', project));
    assert.equal(can(projectGrant('custom'), 'project:read-variables', project), false);
    assert.ok(can(team({ readProjects: true }), 'project:read', project));
    assert.ok(can(workspaceGrant('read'), 'project:read', project), 'a workspace grant shows its project');
    assert.equal(can(team(), 'project:read', project), false);
  });

  it('lets manage-projects create, change and delete projects and manage their team access', () => {
    const manager = team({ manageProjects: true, manageWorkspaces: true });
    assert.ok(can(manager, 'projects:create', { organizationId: ORG }));
    assert.ok(can(manager, 'project:delete', project));
    assert.ok(can(manager, 'team-project:manage', { ...project, team: { id: 'team-x', visibility: 'organization' } }));
    assert.equal(can(manageWorkspaces, 'projects:create', { organizationId: ORG }), false);
    assert.equal(can(manageWorkspaces, 'project:update', project), false);
  });
});

describe('policy: variable sets', () => {
  const set = (varset: Target['varset']): Target => ({ organizationId: ORG, varset });
  const orgSet = { ownerProjectId: null, global: false, workspaces: [{ id: WS, projectId: PRJ }], projectIds: [] };

  it('lets manage-workspaces, owners and the organization token create and change any set', () => {
    for (const subject of [owners, manageWorkspaces, orgToken]) {
      for (const action of ['varsets:create', 'varset:update', 'varset:delete', 'varset:read'] as Action[]) {
        assert.ok(can(subject, action, set({ ownerProjectId: null })), action);
      }
    }
  });

  it('lets the project’s write, maintain and admin teams manage a project-owned set, not an organization one', () => {
    for (const access of ['write', 'maintain', 'admin'] as const) {
      assert.ok(can(projectGrant(access), 'varset:update', set({ ownerProjectId: PRJ })), access);
      assert.ok(can(projectGrant(access), 'varsets:create', set({ ownerProjectId: PRJ })), access);
      assert.equal(can(projectGrant(access), 'varset:update', set({ ownerProjectId: null })), false, access);
      assert.equal(can(projectGrant(access), 'varset:update', set({ ownerProjectId: PRJ_B })), false, access);
    }
    assert.equal(can(projectGrant('read'), 'varset:update', set({ ownerProjectId: PRJ })), false);
    assert.ok(can(projectGrant('read'), 'varset:read', set({ ownerProjectId: PRJ })));
    assert.ok(
      can(
        projectGrant('custom', { project: { 'variable-sets': 'write' } }),
        'varset:delete',
        set({ ownerProjectId: PRJ }),
      ),
    );
    assert.equal(can(workspaceGrant('admin'), 'varset:update', set({ ownerProjectId: PRJ })), false);
  });

  it('lets a team read a set where it reads variables on a workspace or project the set applies to', () => {
    assert.ok(can(workspaceGrant('read'), 'varset:read', set(orgSet)));
    assert.equal(can(workspaceGrant('custom', { variables: 'none' }), 'varset:read', set(orgSet)), false);
    assert.equal(can(workspaceGrant('admin', {}, WS_B, PRJ_B), 'varset:read', set(orgSet)), false);
    // A set on a project reaches the project's workspaces.
    assert.ok(can(workspaceGrant('read'), 'varset:read', set({ ownerProjectId: null, projectIds: [PRJ] })));
    // A project grant reaches sets on the project and on its workspaces.
    assert.ok(can(projectGrant('read'), 'varset:read', set({ ownerProjectId: null, projectIds: [PRJ] })));
    assert.ok(can(projectGrant('read'), 'varset:read', set(orgSet)));
    assert.equal(can(projectGrant('read', {}, PRJ_B), 'varset:read', set(orgSet)), false);
    // A global set applies everywhere.
    assert.ok(can(workspaceGrant('read', {}, WS_B, PRJ_B), 'varset:read', set({ ownerProjectId: null, global: true })));
    assert.equal(can(team(), 'varset:read', set({ ownerProjectId: null, global: true })), false);
    assert.ok(can(team({ readWorkspaces: true }), 'varset:read', set({ ownerProjectId: null })));
    // Without applicability nothing is readable for a team without organization-wide access.
    assert.equal(can(workspaceGrant('admin'), 'varset:read', set({ ownerProjectId: null })), false);
  });

  it('turns the same rules into list scopes', () => {
    assert.equal(varsetListScope(admin, OTHER_ORG), 'all');
    assert.equal(varsetListScope(orgToken, ORG), 'all');
    assert.equal(varsetListScope(orgToken, OTHER_ORG), 'none');
    assert.equal(varsetListScope(manageWorkspaces, ORG), 'all');
    assert.deepEqual(varsetListScope(workspaceGrant('read'), ORG), {
      global: true,
      workspaceIds: [WS],
      workspaceProjectIds: [],
      projectIds: [PRJ],
      ownerProjectIds: [],
    });
    assert.deepEqual(varsetListScope(projectGrant('read'), ORG), {
      global: true,
      workspaceIds: [],
      workspaceProjectIds: [PRJ],
      projectIds: [PRJ],
      ownerProjectIds: [PRJ],
    });
    assert.deepEqual(varsetListScope(workspaceGrant('custom'), ORG), {
      global: false,
      workspaceIds: [],
      workspaceProjectIds: [],
      projectIds: [],
      ownerProjectIds: [],
    });
  });
});

describe('policy: teams and list scopes', () => {
  it('shows secret teams to owners and themselves only', () => {
    const secret = { organizationId: ORG, team: { id: 'team-other', visibility: 'secret' as const } };
    const visible = { organizationId: ORG, team: { id: 'team-other', visibility: 'organization' as const } };
    assert.ok(can(owners, 'team:read', secret));
    assert.equal(can(team(), 'team:read', secret), false);
    assert.ok(can(team({}, 'team-other'), 'team:read', secret));
    assert.ok(can(team(), 'team:read', visible));
    assert.equal(can(team(), 'team:update', visible), false);
    assert.equal(can(manageWorkspaces, 'teams:create', { organizationId: ORG }), false);
    assert.deepEqual(teamListScope(team(), ORG), { ownTeamId: 'team-me' });
    assert.equal(teamListScope(owners, ORG), 'all');
  });

  it('scopes workspace and project lists to what a team can see', () => {
    assert.equal(workspaceListScope(team({ readWorkspaces: true }), ORG), 'all');
    assert.deepEqual(workspaceListScope(workspaceGrant('read'), ORG), { workspaceIds: [WS], projectIds: [] });
    assert.deepEqual(workspaceListScope(projectGrant('read'), ORG), { workspaceIds: [], projectIds: [PRJ] });
    assert.equal(workspaceListScope(workspaceGrant('read'), OTHER_ORG), 'none');
    assert.deepEqual(projectListScope(workspaceGrant('read'), ORG), { projectIds: [PRJ] });
    assert.equal(projectListScope(team({ readProjects: true }), ORG), 'all');
  });
});
