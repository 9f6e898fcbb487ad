import type { Static } from 'typebox';
import type { ProjectPermission } from '../auth/permissions.js';
import { API_PREFIX, toOne } from '../jsonapi/document.js';
import type { Project } from './model.js';
import type { ProjectResource } from './schemas.js';

/**
 * A project. `permissions` are the caller's (`projectPermissions` in auth/permissions.ts); a project
 * included in a variable-set response, which may be shared between callers, leaves them null.
 * `effectiveTagBindingIds` are given when `include=effective_tag_bindings` puts the bindings in `included`.
 */
export function serializeProject(
  project: Project,
  organizationName: string,
  permissions: Record<ProjectPermission, boolean> | null = null,
  effectiveTagBindingIds?: string[],
): Static<typeof ProjectResource> {
  const self = `${API_PREFIX}/projects/${project.id}`;
  return {
    id: project.id,
    type: 'projects',
    attributes: {
      name: project.name,
      description: project.description,
      'created-at': project.created_at,
      'is-default': project.is_default,
      'auto-destroy-activity-duration': project.auto_destroy_activity_duration,
      'default-execution-mode': project.default_execution_mode,
      // varsetd has no agent pools: a project's pool is always its organization's, none.
      'setting-overwrites': {
        'default-execution-mode': project.execution_mode_overwritten,
        'default-agent-pool': project.execution_mode_overwritten,
      },
      permissions,
    },
    relationships: {
      organization: toOne('organizations', organizationName),
      'default-agent-pool': { data: null },
      'tag-bindings': { links: { related: `${self}/tag-bindings` } },
      'effective-tag-bindings': {
        ...(effectiveTagBindingIds
          ? { data: effectiveTagBindingIds.map((id) => ({ id, type: 'effective-tag-bindings' as const })) }
          : {}),
        links: { related: `${self}/effective-tag-bindings` },
      },
    },
    links: { self },
  };
}
