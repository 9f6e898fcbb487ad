import Type, { type Static } from 'typebox';
import { Invalid } from '../common/errors.js';
import { badQueryParameter } from '../jsonapi/errors.js';
import { single, type Query as QueryValues } from '../jsonapi/query.js';
import { Maybe, Nullable, Resource, ResourceBody, ToMany, ToManyInput, ToOne } from '../jsonapi/schemas.js';
import type { VariableWriteCommand } from './set-replace.js';
import {
  VariableAttributeProperties,
  VariableAttributes,
  VariableInput,
  VariableInputAttributes,
  variableChanges,
} from '../variables/schemas.js';
import {
  DESCRIPTION_MAX_LENGTH,
  NAME_MAX_LENGTH,
  VARSET_SORT_KEYS,
  type VarsetArrangement,
  type VarsetCommand,
  type VarsetSortKey,
} from './model.js';

/** The owner of a set: its organization, or one of its projects. */
const ParentIdentifier = Type.Object({
  type: Type.Enum(['organizations', 'projects']),
  id: Type.String({ minLength: 1 }),
});

/**
 * A set in a create or update body. `name` is required on create (checked by the service: a
 * body may leave out its attributes altogether); `vars` holds complete variable definitions
 * to add; `workspaces` and `projects` replace the assignments on update.
 */
export const VarsetBody = ResourceBody(
  'varsets',
  {
    name: Maybe(
      Type.String({
        minLength: 1,
        maxLength: NAME_MAX_LENGTH,
        description: 'required on create; unique in the organization',
      }),
    ),
    description: Maybe(Type.String({ maxLength: DESCRIPTION_MAX_LENGTH })),
    global: Maybe(Type.Boolean()),
    priority: Maybe(Type.Boolean()),
  },
  {
    workspaces: Maybe(ToManyInput('workspaces')),
    projects: Maybe(ToManyInput('projects')),
    vars: Maybe(Type.Object({ data: Type.Array(VariableInput) })),
    parent: Maybe(Type.Object({ data: Nullable(ParentIdentifier) })),
  },
);

/** The set a create or update body describes, as the service takes it. */
export function varsetCommand(body: Static<typeof VarsetBody>): VarsetCommand {
  const attributes = body.data.attributes ?? {};
  const relationships = body.data.relationships ?? {};
  const command: VarsetCommand = {
    variables: (relationships.vars?.data ?? []).map((variable, i) => ({
      changes: variableChanges(variable.attributes),
      at: `vars[${i}]`,
    })),
  };
  if (attributes.name != null) command.name = attributes.name;
  if (attributes.description != null) command.description = attributes.description;
  if (attributes.global != null) command.global = attributes.global;
  if (attributes.priority != null) command.priority = attributes.priority;
  if (relationships.parent?.data)
    command.parent = { type: relationships.parent.data.type, id: relationships.parent.data.id };
  if (relationships.workspaces) command.workspaceIds = uniqueIds(relationships.workspaces.data);
  if (relationships.projects) command.projectIds = uniqueIds(relationships.projects.data);
  return command;
}

/** Only `type` and `id` of each member are read; a member named twice counts once. */
export const uniqueIds = (data: { id: string }[]) => [...new Set(data.map((d) => d.id))];

/** A variable of a set. */
export const VarsetVariableResource = Resource('vars', VariableAttributeProperties, { varset: ToOne('varsets') });

/** A set: the one shape of every response. Create and update responses carry each variable's attributes in `vars`. */
export const VarsetResource = Resource(
  'varsets',
  {
    name: Type.String(),
    description: Type.String(),
    global: Type.Boolean(),
    priority: Type.Boolean(),
    'updated-at': Type.String(),
    'var-count': Type.Integer(),
    'workspace-count': Type.Integer(),
    'project-count': Type.Integer(),
    /** The caller's (`varsetPermissions` in auth/permissions.ts). */
    permissions: Type.Object({ 'can-update': Type.Boolean() }),
  },
  {
    organization: ToOne('organizations'),
    parent: Type.Object({ data: Type.Object({ id: Type.String(), type: Type.Enum(['organizations', 'projects']) }) }),
    workspaces: ToMany('workspaces'),
    projects: ToMany('projects'),
    vars: Type.Object({
      data: Type.Array(
        Type.Object({ id: Type.String(), type: Type.Literal('vars'), attributes: Type.Optional(VariableAttributes) }),
      ),
    }),
  },
);

// The organization's list: filters by flag and a sort, beside HCP Terraform's q and page[…].
const FLAG_FILTERS = {
  'filter[global]': 'global',
  'filter[priority]': 'priority',
  'filter[project-owned]': 'projectOwned',
} as const;

export const VarsetArrangementQuery = {
  'filter[global]': Type.Optional(
    Type.String({ description: 'varsetd: true for global sets only, false for the others' }),
  ),
  'filter[priority]': Type.Optional(
    Type.String({ description: 'varsetd: true for priority sets only, false for the others' }),
  ),
  'filter[project-owned]': Type.Optional(
    Type.String({
      description: 'varsetd: true for sets owned by a project only, false for those the organization owns',
    }),
  ),
  'filter[var][key]': Type.Optional(
    Type.String({
      description:
        'varsetd: only the sets defining a variable of exactly this key (case-sensitive), of either category',
    }),
  ),
  sort: Type.Optional(
    Type.String({
      description: `varsetd: one of ${VARSET_SORT_KEYS.join(', ')}; a leading - sorts descending; ties in name order (default: name)`,
    }),
  ),
};

/** The filters and sort of an organization's list; a value outside their words is a 400. */
export function parseArrangement(query: QueryValues): VarsetArrangement {
  const filters: VarsetArrangement['filters'] = {};
  for (const [parameter, name] of Object.entries(FLAG_FILTERS)) {
    const raw = single(query, parameter);
    if (raw === undefined || raw === '') continue;
    if (raw !== 'true' && raw !== 'false') throw badQueryParameter(parameter, `${parameter} must be true or false`);
    filters[name] = raw === 'true';
  }
  const varKey = single(query, 'filter[var][key]');
  if (varKey !== undefined && varKey !== '') filters.varKey = varKey;
  const raw = single(query, 'sort');
  if (raw === undefined || raw === '') return { filters, sort: undefined };
  const key = raw.replace(/^-/, '');
  if (!(VARSET_SORT_KEYS as readonly string[]).includes(key))
    throw badQueryParameter(
      'sort',
      `sort must be one of ${VARSET_SORT_KEYS.join(', ')}, with - before it to sort descending`,
    );
  return { filters, sort: { key: key as VarsetSortKey, descending: raw.startsWith('-') } };
}

/** Whether an organization's list is asked for with a filter or a sort (it then bypasses the compiled plain list). */
export const isArranged = (arrangement: VarsetArrangement) =>
  arrangement.sort !== undefined || Object.keys(arrangement.filters).length > 0;

/**
 * varsetd's own: several variables of a set written at once (`POST
 * /varsets/:id/actions/write-variables`). Each member of `data` is a variable: without `id`, one
 * to add; with `id`, a change to it; with `id` and `meta.action` "delete", its removal.
 */
export const VariableWriteInput = Type.Object({
  type: Type.Literal('vars'),
  id: Type.Optional(Type.String({ minLength: 1, description: 'the variable to change or delete; absent: a new one' })),
  attributes: Maybe(Type.Object(VariableInputAttributes)),
  meta: Type.Optional(
    Type.Object(
      { action: Type.Literal('delete', { description: 'remove the variable named by id' }) },
      { additionalProperties: false },
    ),
  ),
});
export const VariableWritesBody = Type.Object({ data: Type.Array(VariableWriteInput, { minItems: 1 }) });

/** The writes a body describes, each named where it is in the body (`data[2]`). */
export function variableWrites(body: Static<typeof VariableWritesBody>): VariableWriteCommand[] {
  return body.data.map((member, i) => {
    const at = `data[${i}]`;
    const changes = variableChanges(member.attributes);
    if (member.meta?.action === 'delete') {
      if (member.id === undefined) throw new Invalid(`${at}.id`, 'id is required to delete a variable');
      if (member.attributes != null)
        throw new Invalid(at, 'a removal takes only the type and id of the variable, not attributes');
      return { action: 'delete', id: member.id, at };
    }
    return member.id === undefined ? { action: 'add', changes, at } : { action: 'update', id: member.id, changes, at };
  });
}
