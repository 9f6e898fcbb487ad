import type { Picked } from './Picker';
import type { VariableAttributes } from '../api/types';

/** "core added, old removed": how a chosen list of projects or workspaces changed. */
function membership(before: Picked[], after: Picked[]): string | null {
  const had = new Set(before.map((p) => p.id));
  const has = new Set(after.map((p) => p.id));
  const added = after.filter((p) => !had.has(p.id)).map((p) => `${p.name} added`);
  const removed = before.filter((p) => !has.has(p.id)).map((p) => `${p.name} removed`);
  const all = [...added, ...removed];
  return all.length ? all.join(', ') : null;
}

export interface SetFields {
  name: string;
  description: string;
  priority: boolean;
  global: boolean;
  projects: Picked[];
  workspaces: Picked[];
}

/** What saving a set changed, in words: "Saved: name, projects (core added) changed". */
export function setSaved(before: SetFields, after: SetFields): string {
  const parts: string[] = [];
  for (const field of ['name', 'description', 'priority'] as const)
    if (before[field] !== after[field]) parts.push(field);
  if (before.global !== after.global)
    parts.push(after.global ? 'scope (now global)' : 'scope (now chosen projects and workspaces)');
  if (!after.global) {
    for (const kind of ['projects', 'workspaces'] as const) {
      const changed = membership(before[kind], after[kind]);
      if (changed) parts.push(`${kind} (${changed})`);
    }
  }
  return parts.length ? `Saved: ${parts.join(', ')} changed` : 'Saved: nothing changed';
}

/** What saving a variable changed: "Saved: region changed (value)", or "Variable API_KEY's value replaced". */
export function variableSaved(
  before: VariableAttributes,
  after: Omit<VariableAttributes, 'value'> & { value?: string },
): string {
  const replaced = before.sensitive && after.value !== undefined;
  const parts: string[] = (['key', 'category', 'hcl', 'sensitive', 'description'] as const).filter(
    (field) => before[field] !== after[field],
  );
  if (!before.sensitive && after.value !== undefined && after.value !== before.value) parts.unshift('value');
  if (replaced && parts.length === 0) return `Variable ${after.key}'s value replaced`;
  if (replaced) parts.unshift('value replaced');
  return parts.length ? `Saved: ${after.key} changed (${parts.join(', ')})` : `Saved: ${after.key} unchanged`;
}
