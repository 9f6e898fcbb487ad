import type { Static } from 'typebox';
import { toOne } from '../jsonapi/document.js';
import type { Workspace } from './model.js';
import type { WorkspaceResource } from './schemas.js';

export function serializeWorkspace(workspace: Workspace, organizationName: string): Static<typeof WorkspaceResource> {
  return {
    id: workspace.id,
    type: 'workspaces',
    attributes: {
      name: workspace.name,
      description: workspace.description,
      'created-at': workspace.created_at,
      'updated-at': workspace.updated_at,
      'execution-mode': 'remote',
      locked: false,
    },
    relationships: {
      organization: toOne('organizations', organizationName),
      project: toOne('projects', workspace.project_id),
    },
    links: { self: `/api/v2/organizations/${encodeURIComponent(organizationName)}/workspaces/${encodeURIComponent(workspace.name)}` },
  };
}
