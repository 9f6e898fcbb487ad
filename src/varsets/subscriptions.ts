import type { Subscriptions } from '../events/registry.js';
import { recordProjectDeletion, recordWorkspaceDeletion } from './cascades.js';

/** The sets a workspace's or project's deletion changes record their versions, in its transaction. */
export function subscribe(on: Subscriptions): void {
  on.inTransaction('workspace.deleting', ({ trx, ctx, workspaceId }) => recordWorkspaceDeletion(trx, ctx, workspaceId));
  on.inTransaction('project.deleting', ({ trx, ctx, projectId }) => recordProjectDeletion(trx, ctx, projectId));
}
