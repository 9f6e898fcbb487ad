import { Invalid } from '../common/errors.js';

/**
 * A variable and the rules every kind of variable follows, whatever it belongs to: a set's
 * variables and a workspace's have the same attributes and the same rules.
 */
export const CATEGORIES = ['terraform', 'env'] as const;
export type Category = (typeof CATEGORIES)[number];

export const KEY_MAX_LENGTH = 128;
export const DESCRIPTION_MAX_LENGTH = 512;
export const VALUE_MAX_BYTES = 256 * 1024;

/**
 * Keys are not checked as identifiers (clients use UUIDs with hyphens as keys); only what
 * can never name a variable is refused: white space, control characters and `=`.
 */
export const KEY_PATTERN = '^[^\\s\\p{Cc}=]+$';

/** What a variable belongs to: a variable set or a workspace. */
export interface VariableOwner {
  kind: 'varset' | 'workspace';
  id: string;
}

/** What a request may set on a variable. */
export interface VariableFields {
  key: string;
  value: string;
  description: string;
  category: Category;
  hcl: boolean;
  sensitive: boolean;
  /**
   * A sensitive variable that has no value yet (an import brought it without one): runs and
   * `varsetd exec` refuse it until a value is written, which clears this. Absent in what older
   * versions of a set kept: false.
   */
  value_needed?: boolean;
}

export interface Variable extends VariableFields {
  id: string;
  owner: VariableOwner;
  /** Sealed when the variable is sensitive (src/secrets/variables.ts): never shown. */
  value: string;
  /** New on creation and on every update, even one that changes nothing. */
  version_id: string;
  created_at: string;
}

/** A variable as a store reads it; flags may come as 1 and 0 (SQLite's JSON gives them so). */
export type VariableRow = Omit<Variable, 'owner' | 'hcl' | 'sensitive' | 'value_needed'> & {
  hcl: boolean | number;
  sensitive: boolean | number;
  value_needed: boolean | number;
};

/** The columns of a `VariableRow`, the same in a set's and a workspace's table. */
export const VARIABLE_COLUMNS = [
  'id',
  'key',
  'value',
  'description',
  'category',
  'hcl',
  'sensitive',
  'value_needed',
  'version_id',
  'created_at',
] as const satisfies readonly (keyof VariableRow)[];

/**
 * The variable of `owner` a row holds. Written out field by field: spreading an object that
 * JSON.parse made costs three times as much as parsing it.
 */
export function variableFromRow(owner: VariableOwner, row: VariableRow): Variable {
  return {
    id: row.id,
    owner,
    key: row.key,
    value: row.value,
    description: row.description,
    category: row.category,
    hcl: Boolean(row.hcl),
    sensitive: Boolean(row.sensitive),
    value_needed: Boolean(row.value_needed),
    version_id: row.version_id,
    created_at: row.created_at,
  };
}

/** The attributes a request gives (absent ones are left as they are, or take their default on creation). */
export type VariableChanges = Partial<VariableFields>;

/** Which variable of a request this is, as errors name it: `''` for the one variable a request is about, `vars[2]` for one of a set's. */
export type VariablePlace = string;

export const fieldOf = (at: VariablePlace, name: keyof VariableFields) => (at === '' ? name : `${at}.${name}`);

/**
 * A new variable's attributes: key and category are required (a body may leave out its
 * attributes altogether, so the schema alone cannot require them), the rest defaults.
 */
export function newVariableFields(changes: VariableChanges, at: VariablePlace): VariableFields {
  if (changes.key === undefined) throw new Invalid(fieldOf(at, 'key'), "key can't be blank");
  if (changes.category === undefined) throw new Invalid(fieldOf(at, 'category'), "category can't be blank");
  checkVariableChanges(changes, at);
  return {
    key: changes.key,
    value: changes.value ?? '',
    description: changes.description ?? '',
    category: changes.category,
    hcl: changes.hcl ?? false,
    sensitive: changes.sensitive ?? false,
    value_needed: changes.value_needed === true && changes.sensitive === true && changes.value === undefined,
  };
}

/**
 * The variable after an update. A sensitive value is write-only: it may be replaced, but
 * the variable cannot become readable again, and its key and hcl flag are fixed, so a
 * secret cannot be re-purposed under another name.
 */
export function applyVariableChanges(
  current: VariableFields,
  changes: VariableChanges,
  at: VariablePlace,
): VariableFields {
  if (current.sensitive) {
    if (changes.sensitive === false) {
      throw new Invalid(fieldOf(at, 'sensitive'), 'a sensitive variable cannot be made non-sensitive');
    }
    if (changes.key !== undefined && changes.key !== current.key) {
      throw new Invalid(fieldOf(at, 'key'), 'the key of a sensitive variable cannot be changed');
    }
    if (changes.hcl !== undefined && changes.hcl !== current.hcl) {
      throw new Invalid(fieldOf(at, 'hcl'), 'the hcl flag of a sensitive variable cannot be changed');
    }
  }
  return {
    key: changes.key ?? current.key,
    value: changes.value ?? current.value,
    description: changes.description ?? current.description,
    category: changes.category ?? current.category,
    hcl: changes.hcl ?? current.hcl,
    sensitive: changes.sensitive ?? current.sensitive,
    // Writing a value is what a variable that needs one waits for.
    value_needed: changes.value === undefined && current.value_needed === true,
  };
}

/** What the schema cannot state about an update: the value's limit is in UTF-8 bytes. Checked before anything is read. */
export function checkVariableChanges(changes: VariableChanges, at: VariablePlace): void {
  if (changes.value !== undefined && Buffer.byteLength(changes.value, 'utf8') > VALUE_MAX_BYTES) {
    throw new Invalid(fieldOf(at, 'value'), `value is too long (maximum is ${VALUE_MAX_BYTES} bytes)`);
  }
}

/** A variable as far as uniqueness goes (key and category together), and the field a refusal names. */
export interface KeyCandidate {
  key: string;
  category: Category;
  field: string;
}
