import type { Static } from 'typebox';
import type { Variable } from '../variables/model.js';
import { serializeVarsetVariable } from '../varsets/serialize.js';
import { serializeWorkspaceVariable } from '../workspace-variables/serialize.js';
import type { EffectiveValue, EffectiveVariable } from './model.js';
import type { EffectiveVariableResource, EffectiveVariablesDocument } from './schemas.js';
import { explainWinner, levelName, PRECEDENCE_LEVELS } from './explain.js';
import { dynamicCredentialsOf } from '../common/dynamic-credentials.js';

type EffectiveResource = Static<typeof EffectiveVariableResource>;

/**
 * A winner of all-vars, in the shape of its own kind: a workspace variable names its
 * workspace in `configurable`, a set's variable names its set in `varset`. (go-tfe reads
 * `configurable` as a workspace only and refuses the whole list when it names anything else.)
 */
export function serializeWinningVariable(variable: Variable) {
  return variable.owner.kind === 'varset' ? serializeVarsetVariable(variable) : serializeWorkspaceVariable(variable);
}

function valueAttributes(
  value: EffectiveValue,
  explain: boolean,
): EffectiveResource['attributes']['overridden'][number] {
  const { source } = value;
  return {
    'variable-id': value.variableId,
    'version-id': value.versionId,
    // Sensitive values are write-only, here as everywhere.
    value: value.sensitive ? null : value.value,
    description: value.description,
    hcl: value.hcl,
    sensitive: value.sensitive,
    ...(value.valueNeeded ? { 'value-needed': true as const } : {}),
    source: {
      type: source.kind,
      precedence: value.level,
      ...(explain ? { 'level-name': levelName(value.level) } : {}),
      ...(source.kind === 'varset'
        ? {
            varset: {
              id: source.id,
              name: source.name,
              scope: source.scope,
              owner: source.owner,
              priority: source.priority,
              version: source.version,
            },
          }
        : {}),
    },
  };
}

function explanation(variable: EffectiveVariable): Pick<EffectiveResource['attributes'], 'decided-by' | 'reason'> {
  const { decidedBy, reason } = explainWinner(variable);
  return { 'decided-by': decidedBy, reason };
}

/**
 * varsetd's own resource: a variable's winning value, its source and what it overrode; when
 * `explain`, also each level's name and why the winner won.
 */
export function serializeEffectiveVariable(variable: EffectiveVariable, explain = false): EffectiveResource {
  return {
    id: `${variable.category}:${variable.key}`,
    type: 'effective-variables',
    attributes: {
      key: variable.key,
      category: variable.category,
      ...valueAttributes(variable.winner, explain),
      overridden: variable.overridden.map((value) => valueAttributes(value, explain)),
      ...(explain ? explanation(variable) : {}),
    },
  };
}

/**
 * The document of effective variables; when `explain`, `meta.precedence` lists every level,
 * highest first, and `meta.dynamic-credentials` the clouds the winning env variables turn on
 * (a configuration, never a secret: a sensitive switch is not read).
 */
export function serializeEffectiveVariables(
  variables: EffectiveVariable[],
  explain: boolean,
): Static<typeof EffectiveVariablesDocument> {
  const data = variables.map((variable) => serializeEffectiveVariable(variable, explain));
  if (!explain) return { data };
  const env = new Map(
    variables.filter((v) => v.category === 'env' && !v.winner.sensitive).map((v) => [v.key, v.winner.value]),
  );
  return {
    data,
    meta: {
      precedence: [...PRECEDENCE_LEVELS].map(([level, name]) => ({ level, name })),
      'dynamic-credentials': dynamicCredentialsOf(env),
    },
  };
}
