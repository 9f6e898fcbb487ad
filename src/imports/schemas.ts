import Type from 'typebox';
import { Maybe, Nullable, ResourceBody } from '../jsonapi/schemas.js';

export const IMPORT_TYPE = 'varset-imports';
export const IMPORT_REPORT_TYPE = 'varset-import-reports' as const;

const Name = Type.String({ minLength: 1, maxLength: 256 });

/** A variable of a set's document, as `varsetd export` writes it (a sensitive one without its value). */
const VariableDocumentSchema = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 256 }),
  category: Type.Enum(['terraform', 'env']),
  hcl: Type.Boolean(),
  sensitive: Type.Boolean(),
  description: Type.String(),
  value: Type.Optional(Type.String({ description: 'absent for a sensitive variable' })),
});

/** A set's document, as `varsetd export --format json` writes it and `varsetd import` reads it. */
export const SetDocumentSchema = Type.Object({
  name: Name,
  description: Type.String(),
  global: Type.Boolean(),
  priority: Type.Boolean(),
  project: Nullable(Name),
  workspaces: Type.Array(Name),
  projects: Type.Array(Name),
  variables: Type.Array(VariableDocumentSchema),
});

export const ExportDocumentsSchema = Type.Array(SetDocumentSchema, {
  description: "every set's document: the file `varsetd import --from FILE` and the API's import read back",
});

export const ImportBody = ResourceBody(IMPORT_TYPE, {
  'dry-run': Maybe(
    Type.Boolean({ description: 'report what the import would do, and write nothing (false unless given)' }),
  ),
  documents: Maybe(
    Type.Array(SetDocumentSchema, {
      description: 'an export to import (the JSON download of an organization); or give source',
    }),
  ),
  'file-name': Maybe(Type.String({ maxLength: 256, description: "the uploaded file's name, as the report names it" })),
  source: Maybe(
    Type.Object({
      url: Type.String({
        minLength: 1,
        maxLength: 2048,
        description:
          "the source API's address (https://app.terraform.io); its host must be one VARSETD_IMPORT_SOURCES allows",
      }),
      token: Type.String({
        minLength: 1,
        maxLength: 4096,
        description: "write-only: the source's token, used for this request's reads and never kept",
      }),
      organization: Name,
    }),
  ),
});

const Item = {
  result: Type.Enum(['created', 'updated', 'unchanged', 'skipped', 'removed']),
  why: Type.Optional(Type.String()),
  'value-needed': Type.Optional(Type.Literal(true)),
};
const Named = Type.Object({ ...Item, name: Type.String() });

/** The report of an import: what `varsetd import --json` prints. */
export const ImportReportAttributes = Type.Object({
  source: Type.String({ description: 'the source, without credentials' }),
  organization: Type.String(),
  'dry-run': Type.Boolean(),
  'include-sensitive': Type.Boolean(),
  projects: Type.Array(Named),
  workspaces: Type.Array(Named),
  sets: Type.Array(
    Type.Object({
      ...Item,
      name: Type.String(),
      variables: Type.Array(Type.Object({ ...Item, key: Type.String(), category: Type.String() })),
      assignments: Type.Array(Type.Object({ ...Item, kind: Type.Enum(['workspace', 'project']), name: Type.String() })),
    }),
  ),
  'workspace-tags': Type.Array(Type.Object({ ...Item, workspace: Type.String(), tag: Type.String() })),
  'workspace-variables': Type.Array(
    Type.Object({ ...Item, workspace: Type.String(), key: Type.String(), category: Type.String() }),
  ),
  skipped: Type.Array(Type.Object({ what: Type.String(), why: Type.String() })),
});

export const ImportReportResource = Type.Object({
  id: Type.String(),
  type: Type.Literal(IMPORT_REPORT_TYPE),
  attributes: ImportReportAttributes,
});
