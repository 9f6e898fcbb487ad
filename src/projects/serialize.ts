import type { Static } from 'typebox';
import { toOne } from '../jsonapi/document.js';
import type { Project } from './model.js';
import type { ProjectResource } from './schemas.js';

export function serializeProject(project: Project, organizationName: string): Static<typeof ProjectResource> {
  return {
    id: project.id,
    type: 'projects',
    attributes: {
      name: project.name,
      description: project.description,
      'created-at': project.created_at,
      'is-default': project.is_default,
    },
    relationships: { organization: toOne('organizations', organizationName) },
    links: { self: `/api/v2/projects/${project.id}` },
  };
}
