import type { Static } from 'typebox';
import { API_PREFIX } from '../jsonapi/document.js';
import type { Variable } from '../variables/model.js';
import { variableAttributes } from '../variables/serialize.js';
import type { WorkspaceVariableResource } from './schemas.js';

/** A workspace's sensitive value opened, as every variable's is (the site administrator's read). */
export { serializeSensitiveValue } from '../variables/serialize.js';

/** A variable of a workspace, as HCP Terraform shows it: `configurable` names the workspace. */
export function serializeWorkspaceVariable(variable: Variable): Static<typeof WorkspaceVariableResource> {
  const workspaceId = variable.owner.id;
  return {
    id: variable.id,
    type: 'vars',
    attributes: variableAttributes(variable),
    relationships: {
      configurable: {
        data: { id: workspaceId, type: 'workspaces' },
        links: { related: `${API_PREFIX}/workspaces/${workspaceId}` },
      },
    },
    links: { self: `${API_PREFIX}/workspaces/${workspaceId}/vars/${variable.id}` },
  };
}
