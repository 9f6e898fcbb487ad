import Type, { type TSchema } from 'typebox';
import { ORGANIZATION_ACCESS } from '../auth/levels.js';
import { Maybe, Nullable, Related, Resource, ResourceBody, ToMany, ToOne } from '../jsonapi/schemas.js';
import { TEAM_VISIBILITIES } from './model.js';

/** An object whose members are the named flags, each of `schema`; with `closed`, no other member is allowed. */
const flags = <T extends TSchema>(names: readonly string[], schema: () => T, closed = false) =>
  Type.Object(Object.fromEntries(names.map((name) => [name, schema()])), closed ? { additionalProperties: false } : {});

export const TeamBody = ResourceBody('teams', {
  name: Maybe(
    Type.String({
      minLength: 1,
      maxLength: 90,
      pattern: '^(?=.*[A-Za-z0-9_-])[A-Za-z0-9 _-]+$',
      description: 'letters, numbers, spaces, "-" and "_", not only spaces',
    }),
  ),
  visibility: Maybe(Type.Enum(TEAM_VISIBILITIES)),
  'sso-team-id': Type.Optional(Nullable(Type.String({ description: 'null clears it' }))),
  'allow-member-token-management': Maybe(Type.Boolean()),
  'organization-access': Maybe(
    flags(ORGANIZATION_ACCESS, () => Maybe(Type.Boolean({ description: 'null counts as false' })), true),
  ),
});

/** The caller's permissions on a team (`teamPermissions` in auth/permissions.ts). */
const TEAM_PERMISSIONS = [
  'can-update-membership',
  'can-destroy',
  'can-update-organization-access',
  'can-update-api-token',
  'can-update-visibility',
  'can-update-name',
  'can-update-sso-team-id',
  'can-update-member-token-management',
  'can-view-api-token',
] as const;

export const TeamResource = Resource(
  'teams',
  {
    name: Type.String(),
    'users-count': Type.Integer(),
    visibility: Type.Enum(TEAM_VISIBILITIES),
    'sso-team-id': Nullable(Type.String()),
    'allow-member-token-management': Type.Boolean(),
    'is-unified': Type.Boolean(),
    'organization-access': flags(ORGANIZATION_ACCESS, () => Type.Boolean()),
    permissions: flags(TEAM_PERMISSIONS, () => Type.Boolean()),
    'created-at': Type.String(),
  },
  {
    organization: ToOne('organizations'),
    users: ToMany('users'),
    'organization-memberships': ToMany('organization-memberships'),
    'authentication-token': Related,
  },
);
