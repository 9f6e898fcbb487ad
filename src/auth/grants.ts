import type {
  ProjectAccess,
  ProjectSettings,
  ProjectTeams,
  ProjectVariableSets,
  ProjectWorkspacePermissionSet,
  Runs,
  Variables,
  WorkspaceAccess,
} from './levels.js';
import type { ProjectRights, WorkspaceRights } from './subject.js';

// What a stored grant means: the rights a team-workspace or team-project row gives.

const RUNS_LEVEL = { read: 1, plan: 2, apply: 3 } as const;
const LEVEL = { none: 0, read: 1, write: 2 } as const;

/** The rights of one team-workspace row. Admin is the one level that carries settings, team access and deletion. */
export function workspaceGrantRights(grant: {
  access: WorkspaceAccess;
  runs: Runs;
  variables: Variables;
  locking: boolean;
  runTasks: boolean;
}): WorkspaceRights {
  const admin = grant.access === 'admin';
  return {
    runs: RUNS_LEVEL[grant.runs],
    variables: LEVEL[grant.variables],
    admin,
    delete: admin,
    lock: grant.locking,
    runTasks: grant.runTasks,
  };
}

/** The rights of one team-project row. Maintain and admin make the team admin of every workspace in the project. */
export function projectGrantRights(grant: {
  access: ProjectAccess;
  settings: ProjectSettings;
  teams: ProjectTeams;
  variableSets: ProjectVariableSets;
  workspace: Pick<
    ProjectWorkspacePermissionSet,
    'create' | 'move' | 'delete' | 'runs' | 'variables' | 'locking' | 'run-tasks'
  >;
}): ProjectRights {
  const w = grant.workspace;
  return {
    settings: ({ read: 0, update: 1, delete: 2 } as const)[grant.settings],
    teams: ({ none: 0, read: 1, manage: 2 } as const)[grant.teams],
    varsets: LEVEL[grant.variableSets],
    workspaces: {
      runs: RUNS_LEVEL[w.runs],
      variables: LEVEL[w.variables],
      admin: grant.access === 'maintain' || grant.access === 'admin',
      delete: w.delete,
      lock: w.locking,
      runTasks: w['run-tasks'],
      create: w.create,
      move: w.move,
    },
  };
}
