/**
 * varsetd's permission policy, in four parts: decisions (`can`, `ensure`: decisions.ts, with
 * what a team's grants add up to in team-rights.ts), the scopes of lists (list-scopes.ts), the
 * `permissions` attributes of responses (permissions.ts), and what a stored grant means
 * (grants.ts). This file gathers them in one entry.
 */
export type { Action, Target, VarsetApplicability } from './actions.js';
export { can, ensure } from './decisions.js';
export { workspaceRights, type VarsetReadScope } from './team-rights.js';
export {
  organizationListScope,
  projectActionScope,
  projectListScope,
  teamAccessListScope,
  teamListScope,
  varsetListScope,
  workspaceListScope,
  type Scope,
} from './list-scopes.js';
export {
  ORGANIZATION_PERMISSIONS,
  PROJECT_PERMISSIONS,
  organizationPermissions,
  projectPermissions,
  teamPermissions,
  varsetPermissions,
  varsetPermissionsKey,
  workspacePermissions,
  type OrganizationPermission,
  type ProjectPermission,
} from './permissions.js';
export { projectGrantRights, workspaceGrantRights } from './grants.js';
