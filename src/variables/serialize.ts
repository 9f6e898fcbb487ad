import type { Category } from './rules.js';

/** A variable as stored, whatever it belongs to. */
export interface StoredVariable {
  key: string;
  value: string;
  description: string;
  category: Category;
  hcl: boolean;
  sensitive: boolean;
  created_at: string;
  version_id: string;
}

/** The JSON:API attributes of a variable. A sensitive value is write-only: it is never returned. */
export function variableAttributes(variable: StoredVariable): Record<string, unknown> {
  return {
    key: variable.key,
    value: variable.sensitive ? null : variable.value,
    description: variable.description,
    category: variable.category,
    hcl: variable.hcl,
    sensitive: variable.sensitive,
    'created-at': variable.created_at,
    'version-id': variable.version_id,
  };
}
