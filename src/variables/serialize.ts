import type { Static } from 'typebox';
import type { Variable } from './model.js';
import type { SensitiveValueResource, VariableAttributes } from './schemas.js';
import type { SensitiveValue } from './service.js';

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

/** A sensitive value opened, as the site administrator's read of an owner's sensitive values answers it. */
export function serializeSensitiveValue(value: SensitiveValue): Static<typeof SensitiveValueResource> {
  return {
    id: value.id,
    type: 'sensitive-values',
    attributes: { key: value.key, category: value.category, value: value.value },
  };
}
