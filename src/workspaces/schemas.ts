import Type from 'typebox';
import { Maybe, Resource, ResourceBody, ToOne, ToOneInput } from '../jsonapi/schemas.js';

export const WorkspaceBody = ResourceBody(
  'workspaces',
  {
    name: Maybe(Type.String({ minLength: 1, maxLength: 90, pattern: '^[A-Za-z0-9_-]+$', description: 'letters, numbers, "-" and "_"' })),
    description: Maybe(Type.String({ maxLength: 512 })),
  },
  { project: Maybe(ToOneInput('projects')) },
);

export const WorkspaceResource = Resource(
  'workspaces',
  {
    name: Type.String(),
    description: Type.String(),
    'created-at': Type.String(),
    'updated-at': Type.String(),
    'execution-mode': Type.String(),
    locked: Type.Boolean(),
  },
  { organization: ToOne('organizations'), project: ToOne('projects') },
);
