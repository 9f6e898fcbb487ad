import Type from 'typebox';
import { CollectionDocument, Nullable, Query, Resource } from '../jsonapi/schemas.js';
import { CATEGORIES } from '../variables/model.js';

/** The set a value comes from, as every answer about effective variables names it. */
export const SOURCE_SET = {
  id: Type.String(),
  name: Type.String(),
  scope: Type.Enum(['global', 'project', 'workspace']),
  owner: Type.Enum(['organization', 'project']),
  priority: Type.Boolean(),
};

/** Where a value comes from, and its precedence (1 is highest); a set's value names the set. */
const Source = Type.Object({
  type: Type.Enum(['workspace', 'run', 'varset']),
  precedence: Type.Integer(),
  /** With `explain=true` only: the level's name in words. */
  'level-name': Type.Optional(Type.String()),
  varset: Type.Optional(
    Type.Object({
      ...SOURCE_SET,
      version: Nullable(
        Type.Integer({
          description:
            "the number of the set's version the value is of (GET /varsets/:id/versions); null when no write has changed the set since versions were kept",
        }),
      ),
    }),
  ),
});

const ValueProperties = {
  'variable-id': Nullable(Type.String()),
  'version-id': Nullable(Type.String()),
  /** Null for a sensitive value, here as everywhere. */
  value: Nullable(Type.String()),
  description: Type.String(),
  hcl: Type.Boolean(),
  sensitive: Type.Boolean(),
  'value-needed': Type.Optional(
    Type.Literal(true, {
      description:
        "varsetd's own: present when a sensitive variable has no value yet (an import brought it without one); varsetd exec refuses to run with it until a value is written",
    }),
  ),
  source: Source,
};

/** varsetd's own resource: a variable's winning value, its source and what it overrode (highest first). */
export const EffectiveVariableResource = Resource(
  'effective-variables',
  {
    key: Type.String(),
    category: Type.Enum([...CATEGORIES]),
    ...ValueProperties,
    overridden: Type.Array(Type.Object(ValueProperties)),
    /** With `explain=true` only: what settled the winner, and why in words. */
    'decided-by': Type.Optional(Type.Enum(['only-value', 'precedence', 'name', 'order'])),
    reason: Type.Optional(Type.String()),
  },
  undefined,
  null,
);

/** `explain=true` adds every level's name, the reason of each winner, and the table of levels in `meta`. */
export const ExplainQuery = Query({
  explain: Type.Optional(
    Type.Literal('true', {
      description: "adds each level's name, why each winner won, and the precedence levels in meta",
    }),
  ),
});

export const EffectiveVariablesDocument = Type.Object({
  ...CollectionDocument(EffectiveVariableResource).properties,
  meta: Type.Optional(
    Type.Object({
      precedence: Type.Array(Type.Object({ level: Type.Integer(), name: Type.String() })),
      'dynamic-credentials': Type.Array(
        Type.Object({
          target: Type.String(),
          alias: Type.Union([Type.String(), Type.Null()], {
            description: "an alias's tag (TFC_AWS_PROVIDER_AUTH_<TAG>); null for the cloud's default configuration",
          }),
          audience: Type.String(),
          phases: Type.Array(Type.Union([Type.Literal('plan'), Type.Literal('apply')]), {
            description: 'the phases the configuration has every variable it needs for',
          }),
        }),
        {
          description:
            "the configurations of dynamic credentials the workspace's env variables turn on, each cloud's default one first, then its aliases (docs/workload-identity.md)",
        },
      ),
    }),
  ),
});
