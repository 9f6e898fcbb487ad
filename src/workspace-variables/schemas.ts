import { Resource, ToOne } from '../jsonapi/schemas.js';
import { VariableAttributeProperties } from '../variables/schemas.js';

/** A variable of a workspace, as HCP Terraform shows it: `configurable` names the workspace. */
export const WorkspaceVariableResource = Resource('vars', VariableAttributeProperties, {
  configurable: ToOne('workspaces'),
});
