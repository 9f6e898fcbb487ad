import type { Static } from 'typebox';
import { API_PREFIX, type Resource } from '../jsonapi/document.js';
import type { Variable } from '../variables/model.js';
import { variableAttributes } from '../variables/serialize.js';
import type { Varset, VarsetView } from './model.js';
import type { VarsetResource, VarsetVariableResource } from './schemas.js';

/** A set's sensitive value opened, as every variable's is (the site administrator's read). */
export { serializeSensitiveValue } from '../variables/serialize.js';

export interface VarsetSerializeOptions {
  /** Create and update responses show each variable's attributes inside the `vars` relationship. */
  variableAttributes?: boolean;
  /** The caller's permissions on a set. */
  permissions: (varset: Varset) => { 'can-update': boolean };
}

/** A variable set: the one shape of every response (create, show, list, update), so they cannot drift apart. */
export function serializeVarset(view: VarsetView, options: VarsetSerializeOptions): Static<typeof VarsetResource> {
  const { varset } = view;
  const organization = { id: varset.organization_name, type: 'organizations' as const };
  return {
    id: varset.id,
    type: 'varsets',
    attributes: {
      name: varset.name,
      description: varset.description,
      global: varset.global,
      priority: varset.priority,
      'updated-at': varset.updated_at,
      'var-count': view.variables.length,
      'workspace-count': view.workspaces.length,
      'project-count': view.projects.length,
      permissions: options.permissions(varset),
    },
    relationships: {
      organization: { data: organization },
      parent: { data: varset.project_id === null ? organization : { id: varset.project_id, type: 'projects' } },
      workspaces: { data: view.workspaces.map((w) => ({ id: w.id, type: 'workspaces' as const })) },
      projects: { data: view.projects.map((p) => ({ id: p.id, type: 'projects' as const })) },
      vars: {
        data: view.variables.map((v) =>
          options.variableAttributes && v.row
            ? { id: v.id, type: 'vars' as const, attributes: variableAttributes(v.row) }
            : { id: v.id, type: 'vars' as const },
        ),
      },
    },
    links: { self: `${API_PREFIX}/varsets/${varset.id}` },
  };
}

/** A variable of a set. */
export function serializeVarsetVariable(variable: Variable): Static<typeof VarsetVariableResource> {
  const varsetId = variable.owner.id;
  return {
    id: variable.id,
    type: 'vars',
    attributes: variableAttributes(variable),
    relationships: {
      varset: { data: { id: varsetId, type: 'varsets' }, links: { related: `${API_PREFIX}/varsets/${varsetId}` } },
    },
    links: { self: `${API_PREFIX}/vars/${variable.id}` },
  };
}

/** A document holding one set, with the `included` member of its includes (src/routes/includes.ts). */
export function varsetDocument(view: VarsetView, options: VarsetSerializeOptions, included: Resource[] | undefined) {
  return { data: serializeVarset(view, options), ...(included ? { included } : {}) };
}
