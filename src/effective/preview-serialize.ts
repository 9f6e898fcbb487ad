import type { Static } from 'typebox';
import type { ImpactValue, WorkspaceImpact } from './preview.js';
import type { WorkspaceImpactResource } from './preview-schemas.js';

type ImpactResource = Static<typeof WorkspaceImpactResource>;
type ShownValue = ImpactResource['attributes']['changes'][number]['before'];

function valueAttributes(value: ImpactValue | null): ShownValue {
  if (!value) return null;
  const { source } = value;
  return {
    'variable-id': value.variableId,
    value: value.value,
    hcl: value.hcl,
    sensitive: value.sensitive,
    source: {
      // A preview resolves no run: every value is a workspace's or a set's.
      type: source.kind === 'varset' ? 'varset' : 'workspace',
      precedence: value.level,
      ...(source.kind === 'varset'
        ? {
            varset: {
              id: source.id,
              name: source.name,
              scope: source.scope,
              owner: source.owner,
              priority: source.priority,
            },
          }
        : {}),
    },
  };
}

/** varsetd's own resource: how a previewed write would change one workspace's effective variables. */
export function serializeWorkspaceImpact(impact: WorkspaceImpact): ImpactResource {
  const { workspace } = impact;
  return {
    id: workspace.id,
    type: 'workspace-impacts',
    attributes: {
      'workspace-name': workspace.name,
      'variables-readable': impact.variablesReadable,
      changes: impact.changes.map((change) => ({
        key: change.key,
        category: change.category,
        action: change.action,
        fields: change.fields,
        before: valueAttributes(change.before),
        after: valueAttributes(change.after),
      })),
    },
    relationships: { workspace: { data: { id: workspace.id, type: 'workspaces' } } },
  };
}
