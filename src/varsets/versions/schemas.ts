import Type from 'typebox';
import { Identifier, Nullable, Resource, ToOne } from '../../jsonapi/schemas.js';
import { ATTRIBUTES, VARIABLE_FIELDS } from './model.js';

/** A value of an attribute or a variable's field, or a whole variable: null when absent or sensitive. */
const Value = Type.Unknown({ description: 'the value (a string, a boolean, or a variable as an object); null when absent or sensitive' });

export const Change = Type.Object(
  {
    target: Type.Enum(['varset', 'variable', 'workspace', 'project']),
    action: Type.Enum(['added', 'removed', 'changed']),
    id: Type.Optional(Type.String({ description: 'the variable, workspace or project' })),
    key: Type.Optional(Type.String({ description: "the variable's key" })),
    category: Type.Optional(Type.Enum(['terraform', 'env'])),
    field: Type.Optional(Type.Enum([...new Set([...ATTRIBUTES, ...VARIABLE_FIELDS])])),
    before: Type.Optional(Value),
    after: Type.Optional(Value),
    sensitive: Type.Optional(Type.Boolean({ description: 'the value changed but is sensitive: before and after are null' })),
  },
  { additionalProperties: false },
);

const Actor = Type.Object({
  'token-id': Type.String(),
  kind: Type.Enum(['site-admin', 'team', 'organization']),
  'team-id': Nullable(Type.String()),
  description: Type.String(),
});

export const VarsetVersionResource = Resource(
  'varset-versions',
  {
    number: Type.Integer({ minimum: 1 }),
    action: Type.Enum(['create', 'update', 'delete', 'rollback']),
    'rolled-back-to': Nullable(Type.Integer({ minimum: 1 })),
    'varset-name': Type.String(),
    'created-at': Type.String(),
    actor: Actor,
    'request-id': Type.String(),
    changes: Type.Array(Change),
  },
  { varset: ToOne('varsets'), organization: ToOne('organizations') },
);

export const RollbackBody = Type.Object({ data: Identifier('varset-versions') });
