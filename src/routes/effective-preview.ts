import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest, FastifySchemaValidationError } from 'fastify';
import Type, { type Static } from 'typebox';
import type { Context } from '../auth/context.js';
import { contextOf } from '../http/context.js';
import { API_PREFIX, listDocument } from '../jsonapi/document.js';
import { invalidAttribute } from '../jsonapi/errors.js';
import type { Page } from '../common/page.js';
import { parsePage, type Query as QueryValues } from '../jsonapi/query.js';
import { PageQuery, Query, Responses } from '../jsonapi/schemas.js';
import { validationError } from '../jsonapi/validation.js';
import { variableChanges } from '../variables/schemas.js';
import {
  addVarsetVariable,
  createVarset,
  deleteVarset,
  deleteVarsetVariable,
  rollbackVarset,
  updateVarset,
  updateVarsetVariable,
  writeVarsetVariables,
} from '../varsets/service.js';
import { variableWrites, varsetCommand } from '../varsets/schemas.js';
import { previewWrite, type Preview } from '../effective/preview.js';
import { CreatePreviewBody, PreviewBodies, PreviewBody, PreviewDocument } from '../effective/preview-schemas.js';
import { serializeWorkspaceImpact } from '../effective/preview-serialize.js';
import { tagged } from '../jsonapi/tags.js';

const IdParams = Type.Object({ id: Type.String() });
const OrganizationParams = Type.Object({ organization: Type.String() });
const PageOnly = Query(PageQuery);
const PreviewResponses = Responses({ 200: PreviewDocument });

type Write = (ctx: Context) => Promise<unknown>;
type SetBody = Static<(typeof PreviewBodies)['varsets']>;
type VariableBody = Static<(typeof PreviewBodies)['vars']>;
type RollbackBody = Static<(typeof PreviewBodies)['varset-versions']>;
type VariablesBody = Static<(typeof PreviewBodies)['variables']>;
type AnyBody = SetBody | VariableBody | RollbackBody | VariablesBody;
const isVariables = (body: AnyBody): body is VariablesBody => Array.isArray(body.data);

/**
 * The body of a set's preview, checked against the one shape its `data.type` names, so that an
 * error points at what is wrong in that shape (the union of both shapes would point at the other).
 */
function checkedBody(request: FastifyRequest, body: unknown): AnyBody {
  const refused = request.validationError;
  if (!refused) return body as AnyBody;
  const refusals = refused.validation as FastifySchemaValidationError[];
  const part = refused.validationContext as string | undefined;
  if (part !== 'body') throw validationError(refusals, part);
  const data = (body as { data?: { type?: unknown } } | null)?.data;
  const validate = request.compileValidationSchema(
    Array.isArray(data)
      ? PreviewBodies.variables
      : data?.type === 'vars' || data?.type === 'varset-versions'
        ? PreviewBodies[data.type]
        : PreviewBodies.varsets,
    'body',
  );
  if (!validate(body)) throw validationError((validate.errors ?? []) as FastifySchemaValidationError[], 'body');
  throw validationError(refusals, 'body');
}

function assertNothingBesidesId(data: { attributes?: unknown; relationships?: unknown }): void {
  for (const member of ['attributes', 'relationships'] as const) {
    if (data[member] != null)
      throw invalidAttribute(
        `a deletion takes only the type and id of what it deletes, not ${member}`,
        `/data/${member}`,
      );
  }
}

/**
 * The write a set's preview body describes: the set's update or deletion, a variable's addition,
 * change or deletion, several variables' at once, or the set's rollback to a version.
 */
function writeOf(varsetId: string, body: AnyBody): Write {
  if (isVariables(body)) {
    const writes = variableWrites(body);
    return (ctx) => writeVarsetVariables(ctx, varsetId, writes);
  }
  if (body.data.type === 'varset-versions') {
    const { data, meta } = body as RollbackBody;
    const rollback = { versionId: data.id, skipMissing: meta?.['skip-missing'] === true, dryRun: false };
    return (ctx) => rollbackVarset(ctx, varsetId, rollback);
  }
  const deleting = (body as SetBody | VariableBody).meta?.action === 'delete';
  if (body.data.type === 'varsets') {
    const set = body as SetBody;
    if (!deleting) return (ctx) => updateVarset(ctx, varsetId, varsetCommand(set));
    if (set.data.id !== varsetId)
      throw invalidAttribute(`must be the id of the set the preview is of (${varsetId})`, '/data/id');
    assertNothingBesidesId(set.data);
    return (ctx) => deleteVarset(ctx, varsetId);
  }
  const { data } = body as VariableBody;
  if (deleting) {
    if (data.id === undefined) throw invalidAttribute('id is required to delete a variable', '/data/id');
    assertNothingBesidesId(data);
    const variableId = data.id;
    return (ctx) => deleteVarsetVariable(ctx, varsetId, variableId);
  }
  const changes = variableChanges(data.attributes);
  const variableId = data.id;
  return variableId === undefined
    ? (ctx) => addVarsetVariable(ctx, varsetId, changes)
    : (ctx) => updateVarsetVariable(ctx, varsetId, variableId, changes);
}

function previewDocument(
  path: string,
  query: QueryValues,
  page: Page,
  preview: Preview,
): Static<typeof PreviewDocument> {
  const document = listDocument(path, query, page, preview.total, preview.impacts.map(serializeWorkspaceImpact));
  return {
    ...document,
    meta: {
      ...document.meta,
      'workspaces-reached-before': preview.reachedBefore,
      'workspaces-reached-after': preview.reachedAfter,
    },
  };
}

/** varsetd's own: what a write to a set would change in the effective variables of the workspaces it reaches, without making it. */
export const previewRoutes: FastifyPluginAsyncTypebox = async (api) => {
  api.addHook('onRoute', tagged('effectiveVariables'));
  api.post(
    '/varsets/:id/actions/preview',
    {
      schema: { params: IdParams, querystring: PageOnly, body: PreviewBody, response: PreviewResponses },
      // Several variables' body is the list itself: `data[2].key` is /data/2/attributes/key.
      config: { fields: { data: '/data' } },
      attachValidation: true,
    },
    async (request) => {
      const body = checkedBody(request, request.body);
      const page = parsePage(request.query);
      const { id } = request.params;
      const preview = await previewWrite(contextOf(request), writeOf(id, body), page);
      return previewDocument(
        `${API_PREFIX}/varsets/${encodeURIComponent(id)}/actions/preview`,
        request.query,
        page,
        preview,
      );
    },
  );

  api.post(
    '/organizations/:organization/varsets/actions/preview',
    {
      schema: {
        params: OrganizationParams,
        querystring: PageOnly,
        body: CreatePreviewBody,
        response: PreviewResponses,
      },
    },
    async (request) => {
      const page = parsePage(request.query);
      const { organization } = request.params;
      const command = varsetCommand(request.body);
      const preview = await previewWrite(contextOf(request), (ctx) => createVarset(ctx, organization, command), page);
      return previewDocument(
        `${API_PREFIX}/organizations/${encodeURIComponent(organization)}/varsets/actions/preview`,
        request.query,
        page,
        preview,
      );
    },
  );
};
