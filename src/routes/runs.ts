import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import type { Context } from '../auth/context.js';
import { contextOf } from '../http/context.js';
import { API_PREFIX, listDocument } from '../jsonapi/document.js';
import { badQueryParameter, invalidAttribute } from '../jsonapi/errors.js';
import { parseInclude, parsePage, parseSearch, single, type Query as QueryValues } from '../jsonapi/query.js';
import {
  CollectionDocument,
  Document,
  IncludeQuery,
  ListDocument,
  PageQuery,
  Query,
  Responses,
} from '../jsonapi/schemas.js';
import { includedConfigurationVersions, includedWorkspaces } from './includes.js';
import {
  HCP_RUN_STATUSES,
  RUN_OPERATIONS,
  RUN_SOURCES,
  RUN_STATUS_GROUPS,
  type RunFilter,
  type RunOperation,
} from '../runs/model.js';
import { FinishRunBody, OpenedVariableResource, RunBody, RunResource } from '../runs/schemas.js';
import { serializeOpenedVariable, serializeRun } from '../runs/serialize.js';
import {
  createRun,
  finishRun,
  getRun,
  listWorkspaceRuns,
  openOwnRunVariables,
  runEventIdsOf,
  runPermissions,
  startRun,
  type Run,
  type RunPermissions,
} from '../runs/service.js';
import { tagged } from '../jsonapi/tags.js';

const IdParams = Type.Object({ id: Type.String() });
/** What HCP Terraform can include with a run that varsetd has; plans, applies, users and the rest it has not. */
const RUN_INCLUDES = ['workspace', 'configuration_version'] as const;
type RunInclude = (typeof RUN_INCLUDES)[number];

const listed = (values: readonly string[]) => values.join(', ');
const RunListQuery = Query({
  ...PageQuery,
  ...IncludeQuery(RUN_INCLUDES),
  'filter[status]': Type.Optional(
    Type.String({ description: `comma-separated statuses: ${listed(HCP_RUN_STATUSES)}` }),
  ),
  'filter[operation]': Type.Optional(Type.String({ description: `comma-separated: ${listed(RUN_OPERATIONS)}` })),
  'filter[source]': Type.Optional(
    Type.String({ description: `comma-separated: ${listed(RUN_SOURCES)} (every run varsetd has is tfe-api)` }),
  ),
  'filter[status_group]': Type.Optional(Type.String({ description: listed(RUN_STATUS_GROUPS) })),
  'search[basic]': Type.Optional(
    Type.String({ description: 'a run id, or text the run message contains (case-sensitive)' }),
  ),
});

/** A comma-separated filter value, each member one of `allowed`; undefined when absent or empty. */
function listFilter<T extends string>(query: QueryValues, name: string, allowed: readonly T[]): T[] | undefined {
  const raw = single(query, name);
  if (raw === undefined || raw === '') return undefined;
  const values = raw.split(',').map((value) => value.trim());
  const unknown = values.find((value) => !(allowed as readonly string[]).includes(value));
  if (unknown !== undefined)
    throw badQueryParameter(
      name,
      `${name} takes a comma-separated list of ${listed(allowed)}; ${JSON.stringify(unknown)} is none of them`,
    );
  return values as T[];
}

function runFilterOf(query: QueryValues): RunFilter {
  const statusGroups = listFilter(query, 'filter[status_group]', RUN_STATUS_GROUPS);
  if (statusGroups && statusGroups.length > 1)
    throw badQueryParameter('filter[status_group]', 'filter[status_group] takes one value');
  return {
    statuses: listFilter(query, 'filter[status]', HCP_RUN_STATUSES),
    operations: listFilter<RunOperation>(query, 'filter[operation]', RUN_OPERATIONS),
    sources: listFilter(query, 'filter[source]', RUN_SOURCES),
    statusGroup: statusGroups?.[0],
    search: parseSearch(query, 'search[basic]'),
  };
}

async function oneRun(ctx: Context, run: Run, permissions: RunPermissions, include = new Set<RunInclude>()) {
  const { data, ...included } = await runsDocument(ctx, [run], permissions, include);
  return { data: data[0]!, ...included };
}

/** The runs serialized with their events' ids, and the resources `include` asks for. */
async function runsDocument(ctx: Context, runs: readonly Run[], permissions: RunPermissions, include: Set<RunInclude>) {
  const eventIds = await runEventIdsOf(ctx, runs);
  const data = runs.map((run) => serializeRun(run, permissions, eventIds.get(run.id) ?? []));
  const included: unknown[] = [];
  const distinct = (ids: string[]) => [...new Set(ids)];
  // The caller read the runs, so may read their workspaces and configuration versions (run:read on the same workspace).
  if (include.has('workspace'))
    included.push(...(await includedWorkspaces(ctx, distinct(runs.map((run) => run.workspace_id)))));
  if (include.has('configuration_version')) {
    included.push(
      ...(await includedConfigurationVersions(ctx, distinct(runs.map((run) => run.configuration_version_id)))),
    );
  }
  return { data, ...(included.length ? { included } : {}) };
}

export const runRoutes: FastifyPluginAsyncTypebox = async (api) => {
  api.addHook('onRoute', tagged('runs'));
  api.post(
    '/runs',
    { schema: { body: RunBody, response: Responses({ 201: Document(RunResource) }) } },
    async (request, reply) => {
      const { attributes, relationships } = request.body.data;
      const workspaceId = relationships?.workspace?.data?.id;
      if (workspaceId === undefined) throw invalidAttribute('workspace is required', '/data/relationships/workspace');
      const ctx = contextOf(request);
      const { run, permissions } = await createRun(ctx, {
        workspaceId,
        configurationVersionId: relationships?.['configuration-version']?.data?.id,
        message: attributes?.message ?? undefined,
        isDestroy: attributes?.['is-destroy'] ?? undefined,
        variables: attributes?.variables ?? [],
      });
      return reply.code(201).send(await oneRun(ctx, run, permissions));
    },
  );

  api.get(
    '/runs/:id',
    {
      schema: {
        params: IdParams,
        querystring: Query(IncludeQuery(RUN_INCLUDES)),
        response: Responses({ 200: Document(RunResource) }),
      },
    },
    async (request) => {
      const include = parseInclude(request.query, RUN_INCLUDES);
      const ctx = contextOf(request);
      const { run, location } = await getRun(ctx, request.params.id);
      return oneRun(ctx, run, runPermissions(ctx, location), include);
    },
  );

  api.get(
    '/workspaces/:id/runs',
    {
      schema: { params: IdParams, querystring: RunListQuery, response: Responses({ 200: ListDocument(RunResource) }) },
    },
    async (request) => {
      const include = parseInclude(request.query, RUN_INCLUDES);
      const filter = runFilterOf(request.query);
      const page = parsePage(request.query);
      const ctx = contextOf(request);
      const { rows, total, permissions } = await listWorkspaceRuns(ctx, request.params.id, filter, page);
      const { data, ...included } = await runsDocument(ctx, rows, permissions, include);
      const path = `${API_PREFIX}/workspaces/${encodeURIComponent(request.params.id)}/runs`;
      return { ...listDocument(path, request.query, page, total, data), ...included };
    },
  );

  // varsetd's own extension: what `varsetd exec` reports and reads, for the token that created the run only.
  api.post(
    '/runs/:id/actions/start',
    { schema: { params: IdParams, response: Responses({ 200: Document(RunResource) }) } },
    async (request) => {
      const ctx = contextOf(request);
      const { run, permissions } = await startRun(ctx, request.params.id);
      return oneRun(ctx, run, permissions);
    },
  );

  api.post(
    '/runs/:id/actions/finish',
    { schema: { params: IdParams, body: FinishRunBody, response: Responses({ 200: Document(RunResource) }) } },
    async (request) => {
      const ctx = contextOf(request);
      const { run, permissions } = await finishRun(ctx, request.params.id, request.body['exit-code']);
      return oneRun(ctx, run, permissions);
    },
  );

  api.get(
    '/runs/:id/opened-variables',
    { schema: { params: IdParams, response: Responses({ 200: CollectionDocument(OpenedVariableResource) }) } },
    async (request, reply) => {
      const variables = await openOwnRunVariables(contextOf(request), request.params.id);
      void reply.header('cache-control', 'no-store');
      return { data: variables.map(serializeOpenedVariable) };
    },
  );
};
