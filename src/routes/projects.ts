import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import Type from 'typebox';
import { projectPermissions } from '../auth/permissions.js';
import type { Context } from '../auth/context.js';
import { contextOf } from '../http/context.js';
import { badQueryParameter } from '../jsonapi/errors.js';
import { API_PREFIX, listDocument } from '../jsonapi/document.js';
import { parseInclude, parsePage, parseSearch, single, type Query as QueryValues } from '../jsonapi/query.js';
import { Document, IncludeQuery, ListDocument, NoContent, PageQuery, Query, Responses } from '../jsonapi/schemas.js';
import { checkedBindings, type EffectiveTagBinding } from '../tag-bindings/model.js';
import { GoTfeTagBindingsQuery, TAGGED_FILTER, parseTaggedFilter } from '../tag-bindings/schemas.js';
import { includedEffectiveTagBindings } from './includes.js';
import type { Project, ProjectChanges, ProjectOrder } from '../projects/model.js';
import { ProjectBody, ProjectResource } from '../projects/schemas.js';
import { serializeProject } from '../projects/serialize.js';
import {
  createProject,
  deleteProject,
  getProject,
  listOrganizationProjects,
  updateProject,
  type ProjectPermissionFilter,
} from '../projects/service.js';
import { effectiveTagBindingsOfProjects } from '../projects/tag-bindings.js';
import { tagged } from '../jsonapi/tags.js';

const OrganizationParams = Type.Object({ organization: Type.String() });
const IdParams = Type.Object({ id: Type.String() });
const PERMISSION_FILTERS: Record<string, ProjectPermissionFilter> = {
  'filter[permissions][update]': 'project:update',
  'filter[permissions][create-workspace]': 'workspaces:create',
};
/** What a project read or list may include: the bindings in force on each project, as the tfe provider reads them. */
const PROJECT_INCLUDES = ['effective_tag_bindings'] as const;
type ProjectInclude = (typeof PROJECT_INCLUDES)[number];
const ListQuery = Type.Object(
  {
    ...PageQuery,
    ...IncludeQuery(PROJECT_INCLUDES),
    q: Type.Optional(Type.String({ description: 'projects whose name contains it, ignoring case' })),
    'filter[names]': Type.Optional(Type.String({ description: 'comma-separated names' })),
    'filter[permissions][update]': Type.Optional(
      Type.String({ description: 'true: only projects the caller may update' }),
    ),
    'filter[permissions][create-workspace]': Type.Optional(
      Type.String({ description: 'true: only projects the caller may create workspaces in' }),
    ),
    sort: Type.Optional(Type.String({ description: 'name, or -name for the reverse order' })),
    ...GoTfeTagBindingsQuery,
  },
  {
    additionalProperties: false,
    patternProperties: {
      [TAGGED_FILTER.source]: Type.String({ description: 'a tag binding key (or value: empty for any) a project has' }),
    },
  },
);
const ReadQuery = Query(IncludeQuery(PROJECT_INCLUDES));

function changesOf(body: Static<typeof ProjectBody>): ProjectChanges {
  const attributes = body.data.attributes;
  const overwrites = attributes?.['setting-overwrites'];
  const bindings = body.data.relationships?.['tag-bindings']?.data;
  const pool = attributes?.['default-agent-pool-id'] ?? body.data.relationships?.['default-agent-pool']?.data?.id;
  return {
    name: attributes?.name ?? undefined,
    description: attributes?.description ?? undefined,
    autoDestroyActivityDuration: attributes?.['auto-destroy-activity-duration'],
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- null (left out) becomes undefined; tsc types it nullable
    defaultExecutionMode: attributes?.['default-execution-mode'] ?? undefined,
    defaultAgentPoolId: pool ?? undefined,
    overwrites: {
      executionMode: overwrites?.['default-execution-mode'] ?? undefined,
      agentPool: overwrites?.['default-agent-pool'] ?? undefined,
    },
    tagBindings: bindings === undefined ? undefined : checkedBindings(bindings.map((b) => b.attributes)),
  };
}

function permissionFilters(query: QueryValues): ProjectPermissionFilter[] {
  const found: ProjectPermissionFilter[] = [];
  for (const [parameter, action] of Object.entries(PERMISSION_FILTERS)) {
    const value = single(query, parameter);
    if (value === undefined) continue;
    if (value !== 'true') throw badQueryParameter(parameter, `${parameter} must be true`);
    found.push(action);
  }
  return found;
}

/** HCP Terraform's order without `sort` is "arbitrary but stable": here the newest project first. */
function parseSort(query: QueryValues): ProjectOrder {
  const sort = single(query, 'sort');
  if (sort === undefined || sort === '') return 'newest';
  if (sort === 'name' || sort === '-name') return sort;
  throw badQueryParameter('sort', 'sort must be name or -name');
}

const serialize =
  (ctx: Context, organizationName: string, bindings?: Map<string, EffectiveTagBinding[]>) => (project: Project) =>
    serializeProject(
      project,
      organizationName,
      projectPermissions(ctx.subject, {
        organizationId: project.organization_id,
        projectId: project.id,
        isDefault: project.is_default,
      }),
      bindings && (bindings.get(project.id) ?? []).map((b) => b.id),
    );

/** Projects as `data`, with the effective tag bindings in `included` when `include` asks for them. */
async function projectsDocument(
  ctx: Context,
  organizationName: string,
  projects: Project[],
  include: Set<ProjectInclude>,
) {
  if (!include.has('effective_tag_bindings')) return { data: projects.map(serialize(ctx, organizationName)) };
  const bindings = await effectiveTagBindingsOfProjects(
    ctx,
    projects.map((p) => p.id),
  );
  return {
    data: projects.map(serialize(ctx, organizationName, bindings)),
    included: includedEffectiveTagBindings(bindings.values()),
  };
}

export const projectRoutes: FastifyPluginAsyncTypebox = async (api) => {
  api.addHook('onRoute', tagged('projects'));
  api.post(
    '/organizations/:organization/projects',
    {
      schema: {
        params: OrganizationParams,
        body: ProjectBody,
        response: Responses({ 201: Document(ProjectResource) }),
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request);
      const { project, organization } = await createProject(ctx, request.params.organization, changesOf(request.body));
      return reply.code(201).send({ data: serialize(ctx, organization.name)(project) });
    },
  );

  api.get(
    '/organizations/:organization/projects',
    {
      schema: {
        params: OrganizationParams,
        querystring: ListQuery,
        response: Responses({ 200: ListDocument(ProjectResource) }),
      },
    },
    async (request) => {
      const ctx = contextOf(request);
      const query = request.query;
      const include = parseInclude(query, PROJECT_INCLUDES);
      const page = parsePage(query);
      const names = single(query, 'filter[names]');
      const filter = {
        search: parseSearch(query),
        names: names === undefined || names === '' ? undefined : names.split(','),
        permitted: permissionFilters(query),
        order: parseSort(query),
        tagged: parseTaggedFilter(query),
      };
      const { organization, rows, total } = await listOrganizationProjects(
        ctx,
        request.params.organization,
        filter,
        page,
      );
      const path = `${API_PREFIX}/organizations/${encodeURIComponent(organization.name)}/projects`;
      const { data, included } = await projectsDocument(ctx, organization.name, rows, include);
      return { ...listDocument(path, query, page, total, data), ...(included ? { included } : {}) };
    },
  );

  api.get(
    '/projects/:id',
    { schema: { params: IdParams, querystring: ReadQuery, response: Responses({ 200: Document(ProjectResource) }) } },
    async (request) => {
      const ctx = contextOf(request);
      const include = parseInclude(request.query, PROJECT_INCLUDES);
      const { project, organization } = await getProject(ctx, request.params.id);
      const { data, included } = await projectsDocument(ctx, organization.name, [project], include);
      return { data: data[0]!, ...(included ? { included } : {}) };
    },
  );

  api.patch(
    '/projects/:id',
    { schema: { params: IdParams, body: ProjectBody, response: Responses({ 200: Document(ProjectResource) }) } },
    async (request) => {
      const ctx = contextOf(request);
      const { project, organization } = await updateProject(ctx, request.params.id, changesOf(request.body));
      return { data: serialize(ctx, organization.name)(project) };
    },
  );

  api.delete(
    '/projects/:id',
    { schema: { params: IdParams, response: Responses({ 204: NoContent }) } },
    async (request, reply) => {
      await deleteProject(contextOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
