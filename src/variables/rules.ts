import { randomBytes } from 'node:crypto';
import { invalidAttribute } from '../jsonapi/errors.js';
import type { ResourceInput } from '../jsonapi/payload.js';

/**
 * What a variable is made of and the rules on it, shared by every kind of variable
 * (those of a variable set today, those of a workspace later).
 */
export const CATEGORIES = ['terraform', 'env'] as const;
export type Category = (typeof CATEGORIES)[number];

export const KEY_MAX_LENGTH = 128;
export const DESCRIPTION_MAX_LENGTH = 512;
export const VALUE_MAX_BYTES = 256 * 1024;

/**
 * Keys are not checked as identifiers (clients use UUIDs with hyphens as keys); only what
 * can never name a variable is refused: whitespace, control characters and `=`.
 */
const KEY_PATTERN = /^[^\s\p{Cc}=]+$/u;

export interface VariableFields {
  key: string;
  value: string;
  description: string;
  category: Category;
  hcl: boolean;
  sensitive: boolean;
}

/** A new variable from a `vars` resource: key and category are required, the rest defaults. */
export function readNewVariable(input: ResourceInput): VariableFields {
  const changes = readVariableChanges(input);
  if (changes.key === undefined) throw invalidAttribute("key can't be blank", input.attributePointer('key'));
  if (changes.category === undefined) throw invalidAttribute("category can't be blank", input.attributePointer('category'));
  return {
    key: changes.key,
    value: changes.value ?? '',
    description: changes.description ?? '',
    category: changes.category,
    hcl: changes.hcl ?? false,
    sensitive: changes.sensitive ?? false,
  };
}

/** The attributes an update names; absent (or null) ones stay as they are. */
export function readVariableChanges(input: ResourceInput): Partial<VariableFields> {
  const key = input.string('key', { nonEmpty: true, maxLength: KEY_MAX_LENGTH });
  if (key !== undefined && !KEY_PATTERN.test(key)) {
    throw invalidAttribute('key may not contain whitespace, control characters or "="', input.attributePointer('key'));
  }
  const value = input.string('value');
  if (value !== undefined && Buffer.byteLength(value, 'utf8') > VALUE_MAX_BYTES) {
    throw invalidAttribute(`value is too long (maximum is ${VALUE_MAX_BYTES} bytes)`, input.attributePointer('value'));
  }
  const category = input.string('category');
  if (category !== undefined && !(CATEGORIES as readonly string[]).includes(category)) {
    throw invalidAttribute(`category must be one of: ${CATEGORIES.join(', ')}`, input.attributePointer('category'));
  }
  const changes: Partial<VariableFields> = {
    key,
    value,
    description: input.string('description', { maxLength: DESCRIPTION_MAX_LENGTH }),
    category: category as Category | undefined,
    hcl: input.boolean('hcl'),
    sensitive: input.boolean('sensitive'),
  };
  // Absent attributes must not be present as undefined, or a spread over the current variable would erase them.
  return Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as Partial<VariableFields>;
}

/**
 * The variable after an update. A sensitive value is write-only: it may be replaced, but
 * the variable cannot become readable again, and its key and hcl flag are fixed, so a
 * secret cannot be re-purposed under another name.
 */
export function applyVariableChanges(current: VariableFields, changes: Partial<VariableFields>, input: ResourceInput): VariableFields {
  if (current.sensitive) {
    if (changes.sensitive === false) {
      throw invalidAttribute('a sensitive variable cannot be made non-sensitive', input.attributePointer('sensitive'));
    }
    if (changes.key !== undefined && changes.key !== current.key) {
      throw invalidAttribute('the key of a sensitive variable cannot be changed', input.attributePointer('key'));
    }
    if (changes.hcl !== undefined && changes.hcl !== current.hcl) {
      throw invalidAttribute('the hcl flag of a sensitive variable cannot be changed', input.attributePointer('hcl'));
    }
  }
  return { ...current, ...changes };
}

/** A fresh opaque version, given to a variable on creation and on every update. */
export function newVersionId(): string {
  return randomBytes(20).toString('hex');
}
