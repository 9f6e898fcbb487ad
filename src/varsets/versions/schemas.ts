import Type from 'typebox';
import { Identifier, Nullable, Resource, ToOne } from '../../jsonapi/schemas.js';
import { CATEGORIES } from '../../variables/model.js';
import { ATTRIBUTES, VARIABLE_FIELDS } from './model.js';

/** An attribute's or a variable field's value: null when absent, or sensitive. */
const Value = Nullable(Type.Union([Type.String(), Type.Boolean()]));
const Category = Type.Enum([...CATEGORIES]);

/** A variable as a change shows it whole: its value is null when it is sensitive. */
const ShownVariable = Type.Object(
  {
    key: Type.String(),
    value: Nullable(Type.String()),
    description: Type.String(),
    category: Category,
    hcl: Type.Boolean(),
    sensitive: Type.Boolean(),
    'value-needed': Type.Optional(
      Type.Literal(true, { description: 'a sensitive variable with no value yet; absent otherwise' }),
    ),
  },
  { additionalProperties: false },
);

/** One thing a version changed: each kind of change has its own shape. */
export const Change = Type.Union([
  Type.Object(
    {
      target: Type.Literal('varset'),
      action: Type.Literal('changed'),
      field: Type.Enum([...ATTRIBUTES]),
      before: Value,
      after: Value,
    },
    {
      additionalProperties: false,
      description: "one of the set's attributes; before is null on creation, after on deletion",
    },
  ),
  Type.Object(
    {
      target: Type.Literal('variable'),
      id: Type.String(),
      key: Type.String(),
      category: Category,
      action: Type.Enum(['added', 'removed']),
      before: Nullable(ShownVariable),
      after: Nullable(ShownVariable),
    },
    { additionalProperties: false, description: 'a variable added or removed, whole on one side' },
  ),
  Type.Object(
    {
      target: Type.Literal('variable'),
      id: Type.String(),
      key: Type.String(),
      category: Category,
      action: Type.Literal('changed'),
      field: Type.Enum([...VARIABLE_FIELDS]),
      before: Value,
      after: Value,
      sensitive: Type.Boolean({ description: 'the value changed but is sensitive: before and after are null' }),
    },
    { additionalProperties: false, description: "one field of a variable's" },
  ),
  Type.Object(
    { target: Type.Enum(['workspace', 'project']), id: Type.String(), action: Type.Enum(['added', 'removed']) },
    { additionalProperties: false, description: 'an assignment added or removed' },
  ),
]);

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
    cause: Nullable(
      Type.String({
        description: "why the version was written, when its writer said (varsetd import: 'import from URL'); else null",
      }),
    ),
    changes: Type.Array(Change),
  },
  { varset: ToOne('varsets'), organization: ToOne('organizations') },
);

export const RollbackBody = Type.Object({ data: Identifier('varset-versions') });
