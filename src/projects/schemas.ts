import Type from 'typebox';
import { Maybe, Resource, ResourceBody, ToOne } from '../jsonapi/schemas.js';
import { TagBindingsRelationship } from '../tag-bindings/schemas.js';

export const ProjectBody = ResourceBody(
  'projects',
  {
    name: Maybe(Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9 _-]+$', description: 'letters, numbers, spaces, "-" and "_"' })),
    description: Maybe(Type.String({ maxLength: 512 })),
  },
  { 'tag-bindings': Maybe(TagBindingsRelationship) },
);

export const ProjectResource = Resource(
  'projects',
  {
    name: Type.String(),
    description: Type.String(),
    'created-at': Type.String(),
    'is-default': Type.Boolean(),
  },
  { organization: ToOne('organizations') },
);
