import type { ProjectDeletionStep } from './projects/service.js';
import { recordProjectDeletion, recordWorkspaceDeletion } from './varsets/service.js';
import type { WorkspaceDeletionStep } from './workspaces/service.js';

/**
 * What other features do when a workspace or a project is deleted, in the deletion's
 * transaction, before the database's cascades remove their rows (the workspaces and projects
 * features know none of them): the sets it changes record their versions.
 */
export const WORKSPACE_DELETION_STEPS: readonly WorkspaceDeletionStep[] = [recordWorkspaceDeletion];
export const PROJECT_DELETION_STEPS: readonly ProjectDeletionStep[] = [recordProjectDeletion];
