import type { Resource } from '../jsonapi/document.js';
import { projectPermissionsOf, workspacePermissionsOf, type TeamProject, type TeamWorkspace } from './store.js';

const related = (type: string, id: string, path: string) => ({ data: { id, type }, links: { related: `/api/v2/${path}/${id}` } });

export function serializeTeamWorkspace(grant: TeamWorkspace): Resource {
  return {
    id: grant.id,
    type: 'team-workspaces',
    attributes: { access: grant.access, ...workspacePermissionsOf(grant), 'policy-overrides': false },
    relationships: { team: related('teams', grant.team_id, 'teams'), workspace: related('workspaces', grant.workspace_id, 'workspaces') },
    links: { self: `/api/v2/team-workspaces/${grant.id}` },
  };
}

export function serializeTeamProject(grant: TeamProject): Resource {
  const permissions = projectPermissionsOf(grant);
  return {
    id: grant.id,
    type: 'team-projects',
    attributes: {
      access: grant.access,
      'project-access': permissions.project,
      'workspace-access': { ...permissions.workspace, 'policy-overrides': false },
    },
    relationships: { team: related('teams', grant.team_id, 'teams'), project: related('projects', grant.project_id, 'projects') },
    links: { self: `/api/v2/team-projects/${grant.id}` },
  };
}
