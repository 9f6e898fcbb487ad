import type { Resource } from '../jsonapi/document.js';
import type { TeamProject, TeamWorkspace } from './store.js';

const related = (type: string, id: string, path: string) => ({ data: { id, type }, links: { related: `/api/v2/${path}/${id}` } });

export function serializeTeamWorkspace(grant: TeamWorkspace): Resource {
  return {
    id: grant.id,
    type: 'team-workspaces',
    attributes: {
      access: grant.access,
      runs: grant.runs,
      variables: grant.variables,
      'state-versions': grant.state_versions,
      'sentinel-mocks': grant.sentinel_mocks,
      'workspace-locking': grant.workspace_locking === 1,
      'run-tasks': grant.run_tasks === 1,
      'policy-overrides': false,
    },
    relationships: { team: related('teams', grant.team_id, 'teams'), workspace: related('workspaces', grant.workspace_id, 'workspaces') },
    links: { self: `/api/v2/team-workspaces/${grant.id}` },
  };
}

export function serializeTeamProject(grant: TeamProject): Resource {
  return {
    id: grant.id,
    type: 'team-projects',
    attributes: {
      access: grant.access,
      'project-access': { settings: grant.settings, teams: grant.teams, 'variable-sets': grant.variable_sets },
      'workspace-access': {
        create: grant.workspace_create === 1,
        move: grant.workspace_move === 1,
        locking: grant.workspace_locking === 1,
        delete: grant.workspace_delete === 1,
        runs: grant.workspace_runs,
        variables: grant.workspace_variables,
        'state-versions': grant.workspace_state_versions,
        'sentinel-mocks': grant.workspace_sentinel_mocks,
        'run-tasks': grant.workspace_run_tasks === 1,
        'policy-overrides': false,
      },
    },
    relationships: { team: related('teams', grant.team_id, 'teams'), project: related('projects', grant.project_id, 'projects') },
    links: { self: `/api/v2/team-projects/${grant.id}` },
  };
}
