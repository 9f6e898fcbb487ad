import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { varsetPermissions, varsetPermissionsKey } from '../auth/permissions.js';
import type { Context } from '../auth/context.js';
import { contextOf } from '../http/context.js';
import { withCredentialsInRead } from '../http/credentials.js';
import { includedOfVarsets } from './includes.js';
import { API_PREFIX, listDocument } from '../jsonapi/document.js';
import { tagged } from '../jsonapi/tags.js';
import { parseInclude, parsePage, parseSearch, type Query as QueryValues } from '../jsonapi/query.js';
import {
  Document,
  IncludeQuery,
  ListDocument,
  NoContent,
  Nullable,
  PageQuery,
  Query,
  Responses,
  ToManyInput,
} from '../jsonapi/schemas.js';
import { VariableBody, variableChanges } from '../variables/schemas.js';
import {
  VARSET_INCLUDES,
  type AssignmentKind,
  type Varset,
  type VarsetInclude,
  type VarsetList,
  type VarsetView,
} from '../varsets/model.js';
import {
  isArranged,
  parseArrangement,
  uniqueIds,
  VarsetArrangementQuery,
  VarsetBody,
  varsetCommand,
  VarsetResource,
  VarsetVariableResource,
} from '../varsets/schemas.js';
import { Change, RollbackBody } from '../varsets/versions/schemas.js';
import {
  serializeVarset,
  serializeVarsetVariable,
  varsetDocument,
  type VarsetSerializeOptions,
} from '../varsets/serialize.js';
import {
  addVarsetVariable,
  applyVarset,
  createVarset,
  deleteVarset,
  deleteVarsetVariable,
  listArrangedOrganizationVarsets,
  listOrganizationVarsets,
  listProjectVarsets,
  listVarsetVariables,
  listWorkspaceVarsets,
  removeVarset,
  rollbackVarset,
  showVarset,
  showVarsetVariable,
  updateVarset,
  updateVarsetVariable,
  type VarsetListRequest,
} from '../varsets/service.js';

const OrganizationParams = Type.Object({ organization: Type.String() });
const IdParams = Type.Object({ id: Type.String() });
const VariableParams = Type.Object({ id: Type.String(), varId: Type.String() });

const IncludeOnly = Query(IncludeQuery(VARSET_INCLUDES));
const ListProperties = {
  ...PageQuery,
  ...IncludeQuery(VARSET_INCLUDES),
  q: Type.Optional(Type.String({ description: 'part of the name, ignoring case' })),
};
const ListQuery = Query(ListProperties);
const OrganizationListQuery = Query({ ...ListProperties, ...VarsetArrangementQuery });
const PageOnly = Query(PageQuery);
const NoQuery = Query({});

const VarsetDocument = Responses({ 200: Document(VarsetResource) });
const VarsetListDocument = Responses({ 200: ListDocument(VarsetResource) });
const VariableDocument = Responses({ 200: Document(VarsetVariableResource) });
const Deleted = Responses({ 204: NoContent });

/** Query parameters are checked (400) before anything is read or written. */
const includeOf = (query: QueryValues) => parseInclude(query, VARSET_INCLUDES);
const listRequest = (query: QueryValues): VarsetListRequest => ({
  include: includeOf(query),
  search: parseSearch(query),
  page: parsePage(query),
});

/** The caller's permissions on each set a response shows. */
const permissionsOf = (ctx: Context) => (varset: Varset) =>
  varsetPermissions(ctx.subject, { organizationId: varset.organization_id, ownerProjectId: varset.project_id });

async function listResponse(
  ctx: Context,
  path: string,
  query: QueryValues,
  list: VarsetListRequest,
  result: VarsetList,
) {
  const data = result.views.map((view) => serializeVarset(view, { permissions: permissionsOf(ctx) }));
  return listDocument(
    path,
    query,
    list.page,
    result.total,
    data,
    await includedOfVarsets(ctx, result.views, list.include),
  );
}

async function oneResponse(
  ctx: Context,
  view: VarsetView,
  include: Set<VarsetInclude>,
  options: Omit<VarsetSerializeOptions, 'permissions'> = {},
) {
  return varsetDocument(
    view,
    { ...options, permissions: permissionsOf(ctx) },
    await includedOfVarsets(ctx, [view], include),
  );
}

export const varsetRoutes: FastifyPluginAsyncTypebox = async (api) => {
  api.addHook('onRoute', tagged('varsets'));
  api.post(
    '/organizations/:organization/varsets',
    { schema: { params: OrganizationParams, querystring: IncludeOnly, body: VarsetBody, response: VarsetDocument } },
    async (request) => {
      const include = includeOf(request.query);
      const ctx = contextOf(request);
      const view = await createVarset(ctx, request.params.organization, varsetCommand(request.body));
      return oneResponse(ctx, view, include, { variableAttributes: true });
    },
  );

  // Reads answer through the response cache (src/cache), under the request's path and query and
  // what the caller's permissions on sets are: each body shows them. A filtered or sorted list is
  // not kept.
  api.get(
    '/organizations/:organization/varsets',
    { schema: { params: OrganizationParams, querystring: OrganizationListQuery, response: VarsetListDocument } },
    async (request, reply) => {
      const ctx = contextOf(request);
      const list = listRequest(request.query);
      const arrangement = parseArrangement(request.query);
      if (isArranged(arrangement)) {
        const { list: result, organization } = await listArrangedOrganizationVarsets(
          ctx,
          request.params.organization,
          list,
          arrangement,
        );
        return listResponse(
          ctx,
          `${API_PREFIX}/organizations/${encodeURIComponent(organization.name)}/varsets`,
          request.query,
          list,
          result,
        );
      }
      return reply.sendCached(
        varsetPermissionsKey(ctx.subject),
        () => listOrganizationVarsets(ctx, request.params.organization, list),
        ({ list: result, organization }) =>
          listResponse(
            ctx,
            `${API_PREFIX}/organizations/${encodeURIComponent(organization.name)}/varsets`,
            request.query,
            list,
            result,
          ),
      );
    },
  );

  api.get(
    '/projects/:id/varsets',
    { schema: { params: IdParams, querystring: ListQuery, response: VarsetListDocument } },
    async (request, reply) => {
      const ctx = contextOf(request);
      const list = listRequest(request.query);
      return reply.sendCached(
        varsetPermissionsKey(ctx.subject),
        () => listProjectVarsets(ctx, request.params.id, list),
        (result) =>
          listResponse(
            ctx,
            `${API_PREFIX}/projects/${encodeURIComponent(request.params.id)}/varsets`,
            request.query,
            list,
            result,
          ),
      );
    },
  );

  // A kept token's subject is confirmed by the workspace's read (src/http/credentials.ts).
  api.get(
    '/workspaces/:id/varsets',
    {
      config: { credentialsInRead: true },
      schema: { params: IdParams, querystring: ListQuery, response: VarsetListDocument },
    },
    async (request, reply) => {
      const list = listRequest(request.query);
      return withCredentialsInRead(request, () => {
        const ctx = contextOf(request);
        return reply.sendCached(
          varsetPermissionsKey(ctx.subject),
          () => listWorkspaceVarsets(ctx, request.params.id, list),
          (result) =>
            listResponse(
              ctx,
              `${API_PREFIX}/workspaces/${encodeURIComponent(request.params.id)}/varsets`,
              request.query,
              list,
              result,
            ),
        );
      });
    },
  );

  // One statement for a kept token's subject: the set's read confirms it (src/http/credentials.ts).
  api.get(
    '/varsets/:id',
    {
      config: { credentialsInRead: true },
      schema: { params: IdParams, querystring: IncludeOnly, response: VarsetDocument },
    },
    async (request, reply) => {
      const include = includeOf(request.query);
      return withCredentialsInRead(request, () => {
        const ctx = contextOf(request);
        return reply.sendCached(
          varsetPermissionsKey(ctx.subject),
          (versionHeld) => showVarset(ctx, request.params.id, include, versionHeld),
          (view) => oneResponse(ctx, view, include),
        );
      });
    },
  );

  // PUT and PATCH are the same partial update; HashiCorp's OpenAPI document lists POST for it too.
  for (const method of ['patch', 'put', 'post'] as const) {
    api[method](
      '/varsets/:id',
      { schema: { params: IdParams, querystring: IncludeOnly, body: VarsetBody, response: VarsetDocument } },
      async (request) => {
        const include = includeOf(request.query);
        const ctx = contextOf(request);
        const view = await updateVarset(ctx, request.params.id, varsetCommand(request.body));
        return oneResponse(ctx, view, include, { variableAttributes: true });
      },
    );
  }

  // varsetd's own: makes the set again what it was at one of its versions (versions/).
  const Flag = (description: string) =>
    Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description }));
  const RollbackQuery = Query({
    'skip-missing': Flag('restore the rest when workspaces or projects the set was assigned to are gone'),
    'dry-run': Flag('answer the set as the rollback would make it and what it would change, and change nothing'),
    'if-newest-version': Type.Optional(
      Type.String({
        minLength: 1,
        description:
          "roll back only while this version (its id) is the set's newest; 409 when another write came since",
      }),
    ),
  });
  const MadeVersion = Nullable(
    Type.Object(
      { id: Type.String(), number: Type.Integer() },
      {
        description:
          'the version the rollback made (a dry run: would make, under an id never kept); null when it changes nothing',
      },
    ),
  );
  const RollbackDocument = Responses({
    200: Type.Object({
      data: VarsetResource,
      included: Type.Optional(Type.Array(Type.Unknown())),
      meta: Type.Object({ changes: Type.Array(Change), version: MadeVersion }),
    }),
  });
  api.post(
    '/varsets/:id/actions/rollback',
    {
      config: { fields: { version: '/data/id' } },
      schema: { params: IdParams, querystring: RollbackQuery, body: RollbackBody, response: RollbackDocument },
    },
    async (request) => {
      const ctx = contextOf(request);
      const { query } = request;
      const { view, version } = await rollbackVarset(ctx, request.params.id, {
        versionId: request.body.data.id,
        skipMissing: query['skip-missing'] === 'true',
        dryRun: query['dry-run'] === 'true',
        ifNewest: query['if-newest-version'],
      });
      const meta = { changes: version?.changes ?? [], version: version && { id: version.id, number: version.number } };
      return { ...(await oneResponse(ctx, view, new Set(), { variableAttributes: true })), meta };
    },
  );

  api.delete(
    '/varsets/:id',
    { schema: { params: IdParams, querystring: NoQuery, response: Deleted } },
    async (request, reply) => {
      await deleteVarset(contextOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  for (const kind of ['workspaces', 'projects'] as const satisfies readonly AssignmentKind[]) {
    const schema = { params: IdParams, querystring: NoQuery, body: ToManyInput(kind), response: Deleted };
    // The body is the list of workspaces or projects itself.
    const config = { fields: { [kind]: '/data' } };
    api.post(`/varsets/:id/relationships/${kind}`, { schema, config }, async (request, reply) => {
      await applyVarset(contextOf(request), request.params.id, kind, uniqueIds(request.body.data));
      return reply.code(204).send(null);
    });
    api.delete(`/varsets/:id/relationships/${kind}`, { schema, config }, async (request, reply) => {
      await removeVarset(contextOf(request), request.params.id, kind, uniqueIds(request.body.data));
      return reply.code(204).send(null);
    });
  }

  api.get(
    '/varsets/:id/relationships/vars',
    {
      schema: {
        params: IdParams,
        querystring: PageOnly,
        response: Responses({ 200: ListDocument(VarsetVariableResource) }),
      },
    },
    async (request) => {
      const page = parsePage(request.query);
      const { rows, total } = await listVarsetVariables(contextOf(request), request.params.id, page);
      return listDocument(
        `${API_PREFIX}/varsets/${encodeURIComponent(request.params.id)}/relationships/vars`,
        request.query,
        page,
        total,
        rows.map(serializeVarsetVariable),
      );
    },
  );

  // A variable's writes confirm a kept token's subject under the organization's lock (src/http/credentials.ts).
  api.post(
    '/varsets/:id/relationships/vars',
    {
      config: { credentialsInRead: true },
      schema: { params: IdParams, querystring: NoQuery, body: VariableBody, response: VariableDocument },
    },
    async (request) => {
      const changes = variableChanges(request.body.data.attributes);
      const variable = await withCredentialsInRead(request, () =>
        addVarsetVariable(contextOf(request), request.params.id, changes),
      );
      return { data: serializeVarsetVariable(variable) };
    },
  );

  api.get(
    '/varsets/:id/relationships/vars/:varId',
    { schema: { params: VariableParams, querystring: NoQuery, response: VariableDocument } },
    async (request) => {
      return {
        data: serializeVarsetVariable(
          await showVarsetVariable(contextOf(request), request.params.id, request.params.varId),
        ),
      };
    },
  );

  api.patch(
    '/varsets/:id/relationships/vars/:varId',
    {
      config: { credentialsInRead: true },
      schema: { params: VariableParams, querystring: NoQuery, body: VariableBody, response: VariableDocument },
    },
    async (request) => {
      const changes = variableChanges(request.body.data.attributes);
      const variable = await withCredentialsInRead(request, () =>
        updateVarsetVariable(contextOf(request), request.params.id, request.params.varId, changes),
      );
      return { data: serializeVarsetVariable(variable) };
    },
  );

  api.delete(
    '/varsets/:id/relationships/vars/:varId',
    {
      config: { credentialsInRead: true },
      schema: { params: VariableParams, querystring: NoQuery, response: Deleted },
    },
    async (request, reply) => {
      await withCredentialsInRead(request, () =>
        deleteVarsetVariable(contextOf(request), request.params.id, request.params.varId),
      );
      return reply.code(204).send(null);
    },
  );
};
