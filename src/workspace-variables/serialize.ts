import type { Resource } from '../jsonapi/document.js';
import { variableAttributes } from '../variables/serialize.js';
import type { WorkspaceVariable } from './store.js';

/** A variable of a workspace, as HCP Terraform shows it: `configurable` names the workspace. */
export function serializeWorkspaceVariable(variable: WorkspaceVariable): Resource {
  return {
    id: variable.id,
    type: 'vars',
    attributes: variableAttributes(variable),
    relationships: {
      configurable: { data: { id: variable.workspace_id, type: 'workspaces' }, links: { related: `/api/v2/workspaces/${variable.workspace_id}` } },
    },
    links: { self: `/api/v2/workspaces/${variable.workspace_id}/vars/${variable.id}` },
  };
}
