import type { Category } from '../variables/model.js';
import type { PrecedenceLevel, ValueSource } from './resolve.js';

/** A run's variable: a Terraform input variable whose value is an HCL expression. */
export interface RunVariableInput {
  key: string;
  value: string;
}

/** One value of a variable, with where it comes from; the form resolutions are shown and stored in. */
export interface EffectiveValue {
  /** The workspace or set variable's id; null for a run variable. */
  variableId: string | null;
  versionId: string | null;
  /** As stored: a sensitive value stays sealed here and is never shown. */
  value: string;
  description: string;
  hcl: boolean;
  sensitive: boolean;
  /** A sensitive variable with no value yet (see Variable's `value_needed`). */
  valueNeeded?: boolean;
  source: ValueSource;
  level: PrecedenceLevel;
}

export interface EffectiveVariable {
  key: string;
  category: Category;
  winner: EffectiveValue;
  /** Highest precedence first. */
  overridden: EffectiveValue[];
}

/** A run's winning value of one variable, opened: what a process running the run is given. */
export interface OpenedVariable {
  key: string;
  category: Category;
  /** The plain value, a sensitive one included. */
  value: string;
  hcl: boolean;
  sensitive: boolean;
}

/** What a write can change of a variable's winner (a preview's): its value, where it comes from (the set or level), its sensitivity, whether it is HCL. */
export const IMPACT_FIELDS = ['value', 'source', 'sensitive', 'hcl'] as const;
export type ImpactField = (typeof IMPACT_FIELDS)[number];
