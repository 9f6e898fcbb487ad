import Type from 'typebox';
import { Maybe, Resource, ResourceBody } from '../jsonapi/schemas.js';

export const OrganizationBody = ResourceBody('organizations', {
  name: Maybe(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'letters, numbers, "-" and "_"; the organization\'s id' })),
  email: Maybe(Type.String({ minLength: 1, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+$' })),
});

export const OrganizationResource = Resource('organizations', {
  name: Type.String(),
  email: Type.String(),
  'created-at': Type.String(),
  'external-id': Type.String(),
});

export const OrganizationParams = Type.Object({ name: Type.String() });
