import type { Static } from 'typebox';
import type { Variable } from './model.js';
import type { VariableAttributes } from './schemas.js';

/** The JSON:API attributes of a variable. A sensitive value is write-only: it is never returned. */
export function variableAttributes(variable: Variable): Static<typeof VariableAttributes> {
  return {
    key: variable.key,
    value: variable.sensitive ? null : variable.value,
    description: variable.description,
    category: variable.category,
    hcl: variable.hcl,
    sensitive: variable.sensitive,
    ...(variable.value_needed ? { 'value-needed': true as const } : {}),
    'created-at': variable.created_at,
    'version-id': variable.version_id,
  };
}
