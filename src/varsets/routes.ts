import type { FastifyInstance, FastifyRequest } from 'fastify';
import { contextOf } from '../context.js';
import { listDocument } from '../jsonapi/document.js';
import { ResourceInput, readIdentifierList } from '../jsonapi/payload.js';
import { parseInclude, parsePage, parseSearch, type Query } from '../jsonapi/query.js';
import { includedResources, serializeVarset, serializeVarsetVariable, varsetDocument } from './serialize.js';
import {
  addVarsetVariable,
  applyVarset,
  createVarset,
  deleteVarset,
  deleteVarsetVariable,
  listOrganizationVarsets,
  listProjectVarsets,
  listVarsetVariables,
  listWorkspaceVarsets,
  removeVarset,
  showVarset,
  showVarsetVariable,
  updateVarset,
  updateVarsetVariable,
  VARSET_INCLUDES,
  type AssignmentKind,
  type VarsetList,
  type VarsetListRequest,
} from './service.js';

type OrgParams = { Params: { organization: string } };
type IdParams = { Params: { id: string } };
type VarParams = { Params: { id: string; varId: string } };

const includeOf = (request: FastifyRequest) => parseInclude(request.query as Query, VARSET_INCLUDES);

/** Query parameters are checked (400) before anything is read or written. */
function listRequest(request: FastifyRequest): VarsetListRequest {
  const query = request.query as Query;
  return { include: parseInclude(query, VARSET_INCLUDES), search: parseSearch(query), page: parsePage(query) };
}

function listResponse(request: FastifyRequest, path: string, list: VarsetListRequest, result: VarsetList) {
  const data = result.views.map((view) => serializeVarset(view));
  return listDocument(path, request.query as Query, list.page, result.total, data, includedResources(result.views, list.include));
}

export async function varsetRoutes(api: FastifyInstance): Promise<void> {
  api.post<OrgParams>('/organizations/:organization/varsets', async (request) => {
    const include = includeOf(request);
    const view = await createVarset(contextOf(request), request.params.organization, ResourceInput.read(request.body, 'varsets'));
    return varsetDocument(view, include, { variableAttributes: true });
  });

  // Reads answer a rendered body, kept by the response cache under the request's path and query.
  api.get<OrgParams>('/organizations/:organization/varsets', async (request) => {
    const list = listRequest(request);
    return listOrganizationVarsets(contextOf(request), request.url, request.params.organization, list, (result, organization) =>
      listResponse(request, `/api/v2/organizations/${encodeURIComponent(organization.name)}/varsets`, list, result),
    );
  });

  api.get<IdParams>('/projects/:id/varsets', async (request) => {
    const list = listRequest(request);
    return listProjectVarsets(contextOf(request), request.url, request.params.id, list, (result) =>
      listResponse(request, `/api/v2/projects/${encodeURIComponent(request.params.id)}/varsets`, list, result),
    );
  });

  api.get<IdParams>('/workspaces/:id/varsets', async (request) => {
    const list = listRequest(request);
    return listWorkspaceVarsets(contextOf(request), request.url, request.params.id, list, (result) =>
      listResponse(request, `/api/v2/workspaces/${encodeURIComponent(request.params.id)}/varsets`, list, result),
    );
  });

  api.get<IdParams>('/varsets/:id', async (request) => {
    const include = includeOf(request);
    return showVarset(contextOf(request), request.url, request.params.id, include, (view) => varsetDocument(view, include));
  });

  const update = async (request: FastifyRequest<IdParams>) => {
    const include = includeOf(request);
    const view = await updateVarset(contextOf(request), request.params.id, ResourceInput.read(request.body, 'varsets'));
    return varsetDocument(view, include, { variableAttributes: true });
  };
  api.patch<IdParams>('/varsets/:id', update);
  api.put<IdParams>('/varsets/:id', update);

  api.delete<IdParams>('/varsets/:id', async (request, reply) => {
    await deleteVarset(contextOf(request), request.params.id);
    return reply.code(204).send();
  });

  for (const kind of ['workspaces', 'projects'] as const satisfies readonly AssignmentKind[]) {
    api.post<IdParams>(`/varsets/:id/relationships/${kind}`, async (request, reply) => {
      await applyVarset(contextOf(request), request.params.id, kind, readIdentifierList(request.body, kind));
      return reply.code(204).send();
    });
    api.delete<IdParams>(`/varsets/:id/relationships/${kind}`, async (request, reply) => {
      await removeVarset(contextOf(request), request.params.id, kind, readIdentifierList(request.body, kind));
      return reply.code(204).send();
    });
  }

  api.get<IdParams>('/varsets/:id/relationships/vars', async (request) => {
    const query = request.query as Query;
    const page = parsePage(query);
    const { rows, total } = await listVarsetVariables(contextOf(request), request.params.id, page);
    return listDocument(`/api/v2/varsets/${encodeURIComponent(request.params.id)}/relationships/vars`, query, page, total, rows.map(serializeVarsetVariable));
  });

  api.post<IdParams>('/varsets/:id/relationships/vars', async (request) => {
    const variable = await addVarsetVariable(contextOf(request), request.params.id, ResourceInput.read(request.body, 'vars'));
    return { data: serializeVarsetVariable(variable) };
  });

  api.get<VarParams>('/varsets/:id/relationships/vars/:varId', async (request) => {
    return { data: serializeVarsetVariable(await showVarsetVariable(contextOf(request), request.params.id, request.params.varId)) };
  });

  api.patch<VarParams>('/varsets/:id/relationships/vars/:varId', async (request) => {
    const variable = await updateVarsetVariable(contextOf(request), request.params.id, request.params.varId, ResourceInput.read(request.body, 'vars'));
    return { data: serializeVarsetVariable(variable) };
  });

  api.delete<VarParams>('/varsets/:id/relationships/vars/:varId', async (request, reply) => {
    await deleteVarsetVariable(contextOf(request), request.params.id, request.params.varId);
    return reply.code(204).send();
  });
}
