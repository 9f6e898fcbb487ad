import Type from 'typebox';
import { Identifier, ListDocument, Maybe, Nullable, Resource, ToOne } from '../jsonapi/schemas.js';
import { CATEGORIES } from '../variables/model.js';
import { VariableInputAttributes } from '../variables/schemas.js';
import { VariableWritesBody, VarsetBody } from '../varsets/schemas.js';
import { IMPACT_FIELDS } from './model.js';
import { SOURCE_SET } from './schemas.js';

/** `meta.action` of a preview body: the resource in `data` is to be deleted. */
const DeleteMeta = Type.Object(
  { action: Type.Literal('delete', { description: 'preview the deletion of the resource named in data' }) },
  { additionalProperties: false },
);

/** A set's update (PATCH /varsets/:id's body), or with `meta.action` "delete" and `data` `{"type": "varsets", "id"}`, its deletion. */
const SetPreviewBody = Type.Object({ ...VarsetBody.properties, meta: Type.Optional(DeleteMeta) });

/**
 * A variable of the set: without `id`, one to add (POST …/relationships/vars's body); with `id`,
 * a change to it (PATCH …/vars/:id's body); with `meta.action` "delete", its deletion.
 */
const VariablePreviewBody = Type.Object({
  data: Type.Object({
    type: Type.Literal('vars'),
    id: Type.Optional(Type.String({ minLength: 1, description: 'the variable to change or delete' })),
    attributes: Maybe(Type.Object(VariableInputAttributes)),
  }),
  meta: Type.Optional(DeleteMeta),
});

/**
 * A rollback of the set to one of its versions: POST …/actions/rollback's body, with
 * `meta.skip-missing` for its query's `skip-missing=true`.
 */
const RollbackPreviewBody = Type.Object({
  data: Identifier('varset-versions'),
  meta: Type.Optional(
    Type.Object(
      {
        'skip-missing': Type.Optional(
          Type.Boolean({
            description: 'restore the rest when workspaces or projects the set was assigned to are gone',
          }),
        ),
      },
      { additionalProperties: false },
    ),
  ),
});

/** Several variables of the set added, changed and removed at once: POST /varsets/:id/actions/write-variables's body. */
const VariablesPreviewBody = VariableWritesBody;

export const PreviewBodies = {
  varsets: SetPreviewBody,
  vars: VariablePreviewBody,
  'varset-versions': RollbackPreviewBody,
  variables: VariablesPreviewBody,
} as const;
export const PreviewBody = Type.Union([SetPreviewBody, VariablePreviewBody, RollbackPreviewBody, VariablesPreviewBody]);

/** A new set: the body of POST /organizations/:org/varsets. */
export const CreatePreviewBody = VarsetBody;

const ImpactSource = Type.Object({
  type: Type.Enum(['workspace', 'varset']),
  precedence: Type.Integer(),
  varset: Type.Optional(Type.Object(SOURCE_SET)),
});

const ImpactValue = Type.Object({
  'variable-id': Type.String(),
  /** Null when sensitive, or when the caller may not read the workspace's variables. */
  value: Nullable(Type.String()),
  hcl: Type.Boolean(),
  sensitive: Type.Boolean(),
  source: ImpactSource,
});

const VariableImpact = Type.Object({
  key: Type.String(),
  category: Type.Enum([...CATEGORIES]),
  action: Type.Enum(['added', 'removed', 'changed']),
  fields: Type.Array(Type.Enum([...IMPACT_FIELDS]), { description: 'what changed of the winner (changed only)' }),
  before: Nullable(ImpactValue),
  after: Nullable(ImpactValue),
});

/** varsetd's own resource: how a write would change the effective variables of one workspace. */
export const WorkspaceImpactResource = Resource(
  'workspace-impacts',
  {
    'workspace-name': Type.String(),
    'variables-readable': Type.Boolean({
      description: "false when the caller may not read the workspace's variables: no value is shown",
    }),
    changes: Type.Array(VariableImpact),
  },
  { workspace: ToOne('workspaces') },
  null,
);

const ImpactList = ListDocument(WorkspaceImpactResource);

/** A page of the affected workspaces; `meta` adds how many workspaces the set reaches before and after the write. */
export const PreviewDocument = Type.Object({
  ...ImpactList.properties,
  meta: Type.Object({
    ...ImpactList.properties.meta.properties,
    'workspaces-reached-before': Type.Integer(),
    'workspaces-reached-after': Type.Integer(),
  }),
});
