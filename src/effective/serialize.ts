import type { Static } from 'typebox';
import type { Variable } from '../variables/model.js';
import { serializeVarsetVariable } from '../varsets/serialize.js';
import { serializeWorkspaceVariable } from '../workspace-variables/serialize.js';
import type { EffectiveValue, EffectiveVariable } from './model.js';
import type { EffectiveVariableResource } from './schemas.js';

type EffectiveResource = Static<typeof EffectiveVariableResource>;

/**
 * A winner of all-vars, in the shape of its own kind: a workspace variable names its
 * workspace in `configurable`, a set's variable names its set in `varset`. (go-tfe reads
 * `configurable` as a workspace only and refuses the whole list when it names anything else.)
 */
export function serializeWinningVariable(variable: Variable) {
  return variable.owner.kind === 'varset' ? serializeVarsetVariable(variable) : serializeWorkspaceVariable(variable);
}

function valueAttributes(value: EffectiveValue): EffectiveResource['attributes']['overridden'][number] {
  const { source } = value;
  return {
    'variable-id': value.variableId,
    'version-id': value.versionId,
    // Sensitive values are write-only, here as everywhere.
    value: value.sensitive ? null : value.value,
    description: value.description,
    hcl: value.hcl,
    sensitive: value.sensitive,
    source: {
      type: source.kind,
      precedence: value.level,
      ...(source.kind === 'varset' ? { varset: { id: source.id, name: source.name, scope: source.scope, owner: source.owner, priority: source.priority, version: source.version } } : {}),
    },
  };
}

/** varsetd's own resource: a variable's winning value, its source and what it overrode. */
export function serializeEffectiveVariable(variable: EffectiveVariable): EffectiveResource {
  return {
    id: `${variable.category}:${variable.key}`,
    type: 'effective-variables',
    attributes: {
      key: variable.key,
      category: variable.category,
      ...valueAttributes(variable.winner),
      overridden: variable.overridden.map(valueAttributes),
    },
  };
}
