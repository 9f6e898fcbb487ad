import type { Static } from 'typebox';
import { API_PREFIX } from '../jsonapi/document.js';
import type { TeamProject, TeamWorkspace } from './model.js';
import type { TeamProjectResource, TeamWorkspaceResource } from './schemas.js';

const related = <T extends string>(type: T, id: string, path: string) => ({
  data: { id, type },
  links: { related: `${API_PREFIX}/${path}/${id}` },
});

export function serializeTeamWorkspace(grant: TeamWorkspace): Static<typeof TeamWorkspaceResource> {
  return {
    id: grant.id,
    type: 'team-workspaces',
    attributes: { access: grant.access, ...grant.permissions },
    relationships: {
      team: related('teams', grant.team_id, 'teams'),
      workspace: related('workspaces', grant.workspace_id, 'workspaces'),
    },
    links: { self: `${API_PREFIX}/team-workspaces/${grant.id}` },
  };
}

export function serializeTeamProject(grant: TeamProject): Static<typeof TeamProjectResource> {
  return {
    id: grant.id,
    type: 'team-projects',
    attributes: {
      access: grant.access,
      'project-access': grant.project,
      'workspace-access': grant.workspace,
    },
    relationships: {
      team: related('teams', grant.team_id, 'teams'),
      project: related('projects', grant.project_id, 'projects'),
    },
    links: { self: `${API_PREFIX}/team-projects/${grant.id}` },
  };
}
