import type { Resource } from '../jsonapi/document.js';
import { toOne } from '../jsonapi/document.js';
import type { Project } from './store.js';

export function serializeProject(project: Project, organizationName: string): Resource {
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
