import Type from 'typebox';
import { PROJECT_PERMISSIONS } from '../auth/permissions.js';
import { Maybe, Nullable, Resource, ResourceBody, ToOne, ToOneInput } from '../jsonapi/schemas.js';
import { EXECUTION_MODES } from '../organizations/model.js';
import { AUTO_DESTROY_DURATION_PATTERN } from './model.js';
import { EffectiveTagBindingsRelationship, TagBindingsLink, TagBindingsRelationship } from '../tag-bindings/schemas.js';

export const ProjectBody = ResourceBody(
  'projects',
  {
    name: Maybe(
      Type.String({
        minLength: 1,
        maxLength: 40,
        pattern: '^[A-Za-z0-9 _-]+$',
        description: 'letters, numbers, spaces, "-" and "_"',
      }),
    ),
    description: Maybe(Type.String({ maxLength: 512 })),
    'auto-destroy-activity-duration': Type.Optional(
      Nullable(
        Type.String({
          pattern: AUTO_DESTROY_DURATION_PATTERN,
          description: "up to 4 digits and a unit, 'd' or 'h'; null for never",
        }),
      ),
    ),
    'default-execution-mode': Maybe(Type.Union(EXECUTION_MODES.map((mode) => Type.Literal(mode)))),
    'default-agent-pool-id': Maybe(Type.String({ minLength: 1 })),
    'setting-overwrites': Maybe(
      Type.Object({
        'default-execution-mode': Maybe(
          Type.Boolean({ description: "false follows the organization's default execution mode" }),
        ),
        'default-agent-pool': Maybe(Type.Boolean()),
      }),
    ),
  },
  { 'default-agent-pool': Type.Optional(ToOneInput('agent-pools')), 'tag-bindings': Maybe(TagBindingsRelationship) },
);

/** The caller's permissions on a project (`projectPermissions` in auth/permissions.ts); null where a response does not tell them. */
const ProjectPermissions = Nullable(
  Type.Object(Object.fromEntries(PROJECT_PERMISSIONS.map((name) => [name, Type.Boolean()]))),
);

export const ProjectResource = Resource(
  'projects',
  {
    name: Type.String(),
    description: Type.String(),
    'created-at': Type.String(),
    'is-default': Type.Boolean(),
    'auto-destroy-activity-duration': Nullable(Type.String()),
    'default-execution-mode': Type.String(),
    'setting-overwrites': Type.Object({
      'default-execution-mode': Type.Boolean(),
      'default-agent-pool': Type.Boolean(),
    }),
    permissions: ProjectPermissions,
  },
  {
    organization: ToOne('organizations'),
    'default-agent-pool': ToOne('agent-pools'),
    'tag-bindings': TagBindingsLink,
    'effective-tag-bindings': EffectiveTagBindingsRelationship,
  },
);
