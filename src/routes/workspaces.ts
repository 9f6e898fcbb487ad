import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import Type from 'typebox';
import type { Context } from '../auth/context.js';
import { contextOf } from '../http/context.js';
import { API_PREFIX, listDocument } from '../jsonapi/document.js';
import { badQueryParameter } from '../jsonapi/errors.js';
import { parseInclude, parsePage, parseSearch, single, type Query as RawQuery } from '../jsonapi/query.js';
import { Document, IncludeQuery, ListDocument, NoContent, PageQuery, Responses } from '../jsonapi/schemas.js';
import {
  includedConfigurationVersions,
  includedEffectiveTagBindings,
  includedOrganization,
  includedProjectsOfWorkspaces,
} from './includes.js';
import { checkedBindings } from '../tag-bindings/model.js';
import { GoTfeTagBindingsQuery, TAGGED_FILTER, parseTaggedFilter } from '../tag-bindings/schemas.js';
import {
  WORKSPACE_INCLUDES,
  WORKSPACE_SORTS,
  type WorkspaceChanges,
  type WorkspaceInclude,
  type WorkspaceSort,
} from '../workspaces/model.js';
import { TagsBody, WorkspaceBody, WorkspaceResource } from '../workspaces/schemas.js';
import { serializeWorkspace } from '../workspaces/serialize.js';
import {
  createWorkspace,
  deleteWorkspace,
  describeWorkspace,
  describeWorkspaces,
  getWorkspace,
  listOrganizationWorkspaces,
  updateWorkspace,
  type WorkspaceWithOrganization,
} from '../workspaces/service.js';
import { settingsOf } from '../workspaces/settings.js';
import { now } from '../common/ids.js';
import type { Workspace } from '../workspaces/model.js';
import type { Organization } from '../organizations/model.js';
import { tagged } from '../jsonapi/tags.js';

const OrganizationParams = Type.Object({ organization: Type.String() });
const NameParams = Type.Object({ organization: Type.String(), name: Type.String() });
const IdParams = Type.Object({ id: Type.String() });

const ListQuery = Type.Object(
  {
    ...PageQuery,
    ...IncludeQuery(WORKSPACE_INCLUDES),
    'search[name]': Type.Optional(Type.String({ description: 'workspaces whose name contains it, ignoring case' })),
    'search[wildcard-name]': Type.Optional(
      Type.String({ description: 'a name pattern where "*" stands for any characters, ignoring case, e.g. "*-prod"' }),
    ),
    'search[tags]': Type.Optional(Type.String({ description: 'comma-separated tag names a workspace has all of' })),
    'search[exclude-tags]': Type.Optional(
      Type.String({ description: 'comma-separated tag names a workspace has none of' }),
    ),
    'filter[project][id]': Type.Optional(Type.String({ description: 'workspaces of this project' })),
    sort: Type.Optional(Type.String({ description: `one of ${WORKSPACE_SORTS.join(', ')}` })),
    ...GoTfeTagBindingsQuery,
  },
  {
    patternProperties: {
      [TAGGED_FILTER.source]: Type.String({
        description: "a tag binding key (or value: empty for any) a workspace has, its own or its project's",
      }),
    },
  },
);
const ReadQuery = Type.Object({ ...IncludeQuery(WORKSPACE_INCLUDES) });

const One = Responses({ 200: Document(WorkspaceResource) });
const Deleted = Responses({ 204: NoContent });

export function changesOf(body: Static<typeof WorkspaceBody>): WorkspaceChanges {
  const { attributes, relationships } = body.data;
  const tags = relationships?.tags?.data ?? [];
  const bindings = relationships?.['tag-bindings']?.data;
  return {
    name: attributes?.name ?? undefined,
    description: attributes?.description ?? undefined,
    projectId: relationships?.project?.data?.id,
    settings: settingsOf(attributes, now()),
    tags: tagsOf(tags),
    tagBindings: bindings === undefined ? undefined : checkedBindings(bindings.map((b) => b.attributes)),
  };
}

/** Tags of a request: by id where one is given, by name otherwise. */
export function tagsOf(tags: Static<typeof TagsBody>['data']): { names: string[]; ids: string[] } {
  return {
    ids: tags.flatMap((t) => (t.id ? [t.id] : [])),
    names: tags.flatMap((t) => (!t.id && t.attributes?.name ? [t.attributes.name] : [])),
  };
}

const byName = (params: Static<typeof NameParams>) => ({ organizationName: params.organization, name: params.name });

function listFilterOf(query: RawQuery) {
  const names = (name: string) => {
    const raw = parseSearch(query, name);
    return raw === undefined
      ? undefined
      : raw
          .split(',')
          .map((n) => n.trim())
          .filter((n) => n !== '');
  };
  const sort = single(query, 'sort') || 'name';
  if (!(WORKSPACE_SORTS as readonly string[]).includes(sort))
    throw badQueryParameter('sort', `sort must be one of ${WORKSPACE_SORTS.join(', ')}`);
  const wildcard = parseSearch(query, 'search[wildcard-name]');
  return {
    search: parseSearch(query, 'search[name]'),
    wildcard: wildcard === undefined ? undefined : wildcardPattern(wildcard),
    projectId: single(query, 'filter[project][id]') || undefined,
    tags: names('search[tags]'),
    excludeTags: names('search[exclude-tags]'),
    tagged: parseTaggedFilter(query),
    sort: sort as WorkspaceSort,
  };
}

/** A LIKE pattern of a wildcard name: `*` matches any characters, everything else itself, ignoring case. */
function wildcardPattern(wildcard: string): string {
  return wildcard
    .toUpperCase()
    .toLowerCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`)
    .replace(/\*/g, '%');
}

/** The document of workspaces with what `include` asks for. */
async function workspacesDocument(
  ctx: Context,
  organization: Organization,
  workspaces: Workspace[],
  include: Set<WorkspaceInclude>,
) {
  const { views, effectiveTagBindings } = await describeWorkspaces(ctx, organization, workspaces, {
    effectiveTagBindings: include.has('effective_tag_bindings'),
  });
  const included: unknown[] = [];
  if (include.has('organization') && workspaces.length) included.push(await includedOrganization(ctx, organization));
  if (include.has('project')) included.push(...(await includedProjectsOfWorkspaces(ctx, organization, workspaces)));
  if (include.has('current_configuration_version')) {
    const ids = workspaces.flatMap((w) =>
      w.current_configuration_version_id ? [w.current_configuration_version_id] : [],
    );
    included.push(...(await includedConfigurationVersions(ctx, ids)));
  }
  included.push(...includedEffectiveTagBindings(effectiveTagBindings.values()));
  return { data: views.map(serializeWorkspace), included: include.size ? included : undefined };
}

async function oneDocument(ctx: Context, found: WorkspaceWithOrganization, include: Set<WorkspaceInclude> = new Set()) {
  if (include.size === 0) return { data: serializeWorkspace(await describeWorkspace(ctx, found)) };
  const { data, included } = await workspacesDocument(ctx, found.organization, [found.workspace], include);
  return { data: data[0]!, included };
}

export const workspaceRoutes: FastifyPluginAsyncTypebox = async (api) => {
  api.addHook('onRoute', tagged('workspaces'));
  api.post(
    '/organizations/:organization/workspaces',
    {
      schema: {
        params: OrganizationParams,
        body: WorkspaceBody,
        response: Responses({ 201: Document(WorkspaceResource) }),
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request);
      const found = await createWorkspace(ctx, request.params.organization, changesOf(request.body));
      return reply.code(201).send(await oneDocument(ctx, found));
    },
  );

  api.get(
    '/organizations/:organization/workspaces',
    {
      schema: {
        params: OrganizationParams,
        querystring: ListQuery,
        response: Responses({ 200: ListDocument(WorkspaceResource) }),
      },
    },
    async (request) => {
      const ctx = contextOf(request);
      const query = request.query as RawQuery;
      const page = parsePage(query);
      const include = parseInclude(query, WORKSPACE_INCLUDES);
      const { organization, rows, total } = await listOrganizationWorkspaces(
        ctx,
        request.params.organization,
        listFilterOf(query),
        page,
      );
      const { data, included } = await workspacesDocument(ctx, organization, rows, include);
      const path = `${API_PREFIX}/organizations/${encodeURIComponent(organization.name)}/workspaces`;
      return listDocument(path, query, page, total, data, included as never);
    },
  );

  api.get(
    '/organizations/:organization/workspaces/:name',
    { schema: { params: NameParams, querystring: ReadQuery, response: One } },
    async (request) => {
      const ctx = contextOf(request);
      return oneDocument(
        ctx,
        await getWorkspace(ctx, byName(request.params)),
        parseInclude(request.query, WORKSPACE_INCLUDES),
      );
    },
  );

  api.patch(
    '/organizations/:organization/workspaces/:name',
    { schema: { params: NameParams, body: WorkspaceBody, response: One } },
    async (request) => {
      const ctx = contextOf(request);
      return oneDocument(ctx, await updateWorkspace(ctx, byName(request.params), changesOf(request.body)));
    },
  );

  api.delete(
    '/organizations/:organization/workspaces/:name',
    { schema: { params: NameParams, response: Deleted } },
    async (request, reply) => {
      await deleteWorkspace(contextOf(request), byName(request.params));
      return reply.code(204).send(null);
    },
  );

  api.get(
    '/workspaces/:id',
    { schema: { params: IdParams, querystring: ReadQuery, response: One } },
    async (request) => {
      const ctx = contextOf(request);
      return oneDocument(
        ctx,
        await getWorkspace(ctx, { id: request.params.id }),
        parseInclude(request.query, WORKSPACE_INCLUDES),
      );
    },
  );

  api.patch(
    '/workspaces/:id',
    { schema: { params: IdParams, body: WorkspaceBody, response: One } },
    async (request) => {
      const ctx = contextOf(request);
      return oneDocument(ctx, await updateWorkspace(ctx, { id: request.params.id }, changesOf(request.body)));
    },
  );

  api.delete('/workspaces/:id', { schema: { params: IdParams, response: Deleted } }, async (request, reply) => {
    await deleteWorkspace(contextOf(request), { id: request.params.id });
    return reply.code(204).send(null);
  });
};
