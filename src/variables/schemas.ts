import Type, { type Static } from 'typebox';
import { Maybe, Nullable, Resource, ResourceBody } from '../jsonapi/schemas.js';
import { CATEGORIES, DESCRIPTION_MAX_LENGTH, KEY_MAX_LENGTH, KEY_PATTERN, type VariableChanges } from './model.js';

/** The attributes of a `vars` resource in a request, the same for every kind of variable; null counts as not given. */
export const VariableInputAttributes = {
  key: Maybe(
    Type.String({
      minLength: 1,
      maxLength: KEY_MAX_LENGTH,
      pattern: KEY_PATTERN,
      description: 'no white space, control characters or "="',
    }),
  ),
  value: Maybe(Type.String({ description: 'at most 256 KiB in UTF-8' })),
  description: Maybe(Type.String({ maxLength: DESCRIPTION_MAX_LENGTH })),
  category: Maybe(Type.Enum([...CATEGORIES])),
  hcl: Maybe(Type.Boolean()),
  sensitive: Maybe(Type.Boolean()),
};

/** A `vars` resource in a request body (also an element of a set's `vars` relationship). */
export const VariableInput = Type.Object({
  type: Type.Literal('vars'),
  attributes: Maybe(Type.Object(VariableInputAttributes)),
});

export const VariableBody = ResourceBody('vars', VariableInputAttributes);

/** What a request's attributes change: those absent or null are left out. */
export function variableChanges(attributes: Static<typeof VariableBody>['data']['attributes']): VariableChanges {
  const changes: VariableChanges = {};
  if (!attributes) return changes;
  if (attributes.key != null) changes.key = attributes.key;
  if (attributes.value != null) changes.value = attributes.value;
  if (attributes.description != null) changes.description = attributes.description;
  if (attributes.category != null) changes.category = attributes.category;
  if (attributes.hcl != null) changes.hcl = attributes.hcl;
  if (attributes.sensitive != null) changes.sensitive = attributes.sensitive;
  return changes;
}

/** The attributes of a variable in every response; a sensitive value is always null. */
export const VariableAttributeProperties = {
  key: Type.String(),
  value: Nullable(Type.String()),
  description: Type.String(),
  category: Type.Enum([...CATEGORIES]),
  hcl: Type.Boolean(),
  sensitive: Type.Boolean(),
  'value-needed': Type.Optional(
    Type.Literal(true, {
      description:
        "varsetd's own: present when a sensitive variable has no value yet (an import brought it without one); varsetd exec refuses to run with it until a value is written",
    }),
  ),
  'created-at': Type.String(),
  'version-id': Type.String(),
};
export const VariableAttributes = Type.Object(VariableAttributeProperties);

/**
 * varsetd's own: a sensitive variable's value opened, which only the site administrator reads
 * (`GET /varsets/:id/sensitive-values`, `GET /workspaces/:id/sensitive-values`), to move an
 * organization to another varsetd. Its id is the variable's.
 */
export const SensitiveValueResource = Resource(
  'sensitive-values',
  { key: Type.String(), category: Type.Enum([...CATEGORIES]), value: Type.String() },
  undefined,
  null,
);
