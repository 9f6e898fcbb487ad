import Type from 'typebox';
import {
  PROJECT_ACCESS,
  PROJECT_SETTINGS,
  PROJECT_TEAMS,
  PROJECT_VARIABLE_SETS,
  RUNS,
  SENTINEL_MOCKS,
  STATE_VERSIONS,
  VARIABLES,
  WORKSPACE_ACCESS,
} from '../auth/levels.js';
import { Maybe, Resource, ResourceBody, ToOne, ToOneInput } from '../jsonapi/schemas.js';

/**
 * Team access bodies: an access level and, for `custom`, the fine-grained permissions
 * (a fixed level accepts only the values it grants; see the service). A permission left out
 * or null is not given.
 */

export const workspacePermissions = {
  runs: Maybe(Type.Enum(RUNS)),
  variables: Maybe(Type.Enum(VARIABLES)),
  'state-versions': Maybe(Type.Enum(STATE_VERSIONS)),
  'sentinel-mocks': Maybe(Type.Enum(SENTINEL_MOCKS)),
  'workspace-locking': Maybe(Type.Boolean()),
  'run-tasks': Maybe(Type.Boolean()),
  'policy-overrides': Maybe(Type.Boolean()),
};

const teamWorkspaceAttributes = { access: Maybe(Type.Enum(WORKSPACE_ACCESS)), ...workspacePermissions };

export const NewTeamWorkspaceBody = ResourceBody('team-workspaces', teamWorkspaceAttributes, {
  team: Maybe(ToOneInput('teams')),
  workspace: Maybe(ToOneInput('workspaces')),
});
export const TeamWorkspaceBody = ResourceBody('team-workspaces', teamWorkspaceAttributes);

/** The fine-grained permissions a team-projects body may give; other members are ignored. */
export const ProjectAccessInput = Type.Object({
  settings: Maybe(Type.Enum(PROJECT_SETTINGS)),
  teams: Maybe(Type.Enum(PROJECT_TEAMS)),
  'variable-sets': Maybe(Type.Enum(PROJECT_VARIABLE_SETS)),
});
export const ProjectWorkspaceAccessInput = Type.Object({
  create: Maybe(Type.Boolean()),
  move: Maybe(Type.Boolean()),
  locking: Maybe(Type.Boolean()),
  delete: Maybe(Type.Boolean()),
  runs: Maybe(Type.Enum(RUNS)),
  variables: Maybe(Type.Enum(VARIABLES)),
  'state-versions': Maybe(Type.Enum(STATE_VERSIONS)),
  'sentinel-mocks': Maybe(Type.Enum(SENTINEL_MOCKS)),
  'run-tasks': Maybe(Type.Boolean()),
  'policy-overrides': Maybe(Type.Boolean()),
});

const teamProjectAttributes = {
  access: Maybe(Type.Enum(PROJECT_ACCESS)),
  'project-access': Maybe(ProjectAccessInput),
  'workspace-access': Maybe(ProjectWorkspaceAccessInput),
};

export const NewTeamProjectBody = ResourceBody('team-projects', teamProjectAttributes, {
  team: Maybe(ToOneInput('teams')),
  project: Maybe(ToOneInput('projects')),
});
export const TeamProjectBody = ResourceBody('team-projects', teamProjectAttributes);

export const TeamWorkspaceResource = Resource(
  'team-workspaces',
  {
    access: Type.Enum(WORKSPACE_ACCESS),
    runs: Type.Enum(RUNS),
    variables: Type.Enum(VARIABLES),
    'state-versions': Type.Enum(STATE_VERSIONS),
    'sentinel-mocks': Type.Enum(SENTINEL_MOCKS),
    'workspace-locking': Type.Boolean(),
    'run-tasks': Type.Boolean(),
    'policy-overrides': Type.Boolean(),
  },
  { team: ToOne('teams'), workspace: ToOne('workspaces') },
);

export const TeamProjectResource = Resource(
  'team-projects',
  {
    access: Type.Enum(PROJECT_ACCESS),
    'project-access': Type.Object({
      settings: Type.Enum(PROJECT_SETTINGS),
      teams: Type.Enum(PROJECT_TEAMS),
      'variable-sets': Type.Enum(PROJECT_VARIABLE_SETS),
    }),
    'workspace-access': Type.Object({
      create: Type.Boolean(),
      move: Type.Boolean(),
      locking: Type.Boolean(),
      delete: Type.Boolean(),
      runs: Type.Enum(RUNS),
      variables: Type.Enum(VARIABLES),
      'state-versions': Type.Enum(STATE_VERSIONS),
      'sentinel-mocks': Type.Enum(SENTINEL_MOCKS),
      'run-tasks': Type.Boolean(),
      'policy-overrides': Type.Boolean(),
    }),
  },
  { team: ToOne('teams'), project: ToOne('projects') },
);
