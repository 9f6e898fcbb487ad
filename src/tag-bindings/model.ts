import { Invalid } from '../common/errors.js';

/** A key/value tag of one workspace or one project. */
export interface TagBinding {
  id: string;
  key: string;
  value: string;
}

/** A binding in force on a workspace: its own, or one it inherits from its project (`inheritedFrom`). */
export interface EffectiveTagBinding extends TagBinding {
  inheritedFrom: { type: 'projects'; id: string } | null;
}

/** What owns a set of bindings. */
export type TagBindingOwner =
  { kind: 'workspace'; id: string; organizationId: string } | { kind: 'project'; id: string; organizationId: string };

/** HCP Terraform's limit of bindings on one workspace or project. */
export const MAX_TAG_BINDINGS = 10;

const KEY = /^[A-Za-z0-9_.:\-/ ]{1,128}$/;
const VALUE = /^[A-Za-z0-9_.:\-/ ]{0,256}$/;

/**
 * The bindings a request gives, checked: keys and values of letters, digits, spaces and
 * `_ . : - /` (a key 1 to 128 characters, a value at most 256), each key once (the last value
 * given wins, as a PATCH that repeats a key means).
 */
export function checkedBindings(
  bindings: { key: string; value?: string | null | undefined }[],
): { key: string; value: string }[] {
  const byKey = new Map<string, string>();
  bindings.forEach((binding, index) => {
    const value = binding.value ?? '';
    if (!KEY.test(binding.key))
      throw new Invalid(`tag-bindings[${index}].key`, 'key must be 1 to 128 letters, digits, spaces or _ . : - /');
    if (!VALUE.test(value))
      throw new Invalid(
        `tag-bindings[${index}].value`,
        'value must be at most 256 letters, digits, spaces or _ . : - /',
      );
    byKey.delete(binding.key);
    byKey.set(binding.key, value);
  });
  return [...byKey].map(([key, value]) => ({ key, value }));
}

/** A workspace's bindings in force: its own, then its project's for the keys it does not set itself. */
export function effectiveBindings(
  own: TagBinding[],
  projectId: string,
  inherited: TagBinding[],
): EffectiveTagBinding[] {
  const keys = new Set(own.map((b) => b.key));
  return [
    ...own.map((b) => ({ ...b, inheritedFrom: null })),
    ...inherited
      .filter((b) => !keys.has(b.key))
      .map((b) => ({ ...b, inheritedFrom: { type: 'projects' as const, id: projectId } })),
  ];
}
