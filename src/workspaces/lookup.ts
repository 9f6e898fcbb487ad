import { confirmCredentials, type Context } from '../auth/context.js';
import { ensure } from '../auth/decisions.js';
import type { Action } from '../auth/actions.js';
import { NotFound } from '../common/errors.js';
import { locationOfWorkspace } from '../common/location.js';
import type { Organization } from '../organizations/model.js';
import type { Workspace, WorkspaceLocator } from './model.js';
import * as store from './store.js';

export interface WorkspaceWithOrganization {
  workspace: Workspace;
  organization: Organization;
}

/**
 * A workspace (by id, or by organization and name) with its organization (and the
 * organization's version, read in the same statement), if the subject may do `action` on it;
 * otherwise the 404 of a missing one.
 */
export async function getWorkspace(
  ctx: Context,
  where: WorkspaceLocator,
  action: Action = 'workspace:read',
): Promise<WorkspaceWithOrganization & { organizationVersion: number }> {
  const found = await store.findWorkspaceWithOrganization(ctx.store.db, where);
  // Before anything is decided from the subject: a kept one may be stale, and a workspace not found no proof it is not.
  confirmCredentials(ctx, found?.credentialsVersion);
  if (!found) throw new NotFound();
  const { workspace } = found;
  ensure(ctx.subject, action, locationOfWorkspace(workspace));
  return found;
}
