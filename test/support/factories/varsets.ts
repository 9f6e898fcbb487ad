import assert from 'node:assert/strict';
import { expectStatus, type ApiResponse, type Client } from '../requests.js';

/** Variable sets and their variables: request bodies, factories, and the check that a rejected request changed nothing. */

export interface VarAttributes {
  key: string;
  value?: string;
  category?: string;
  description?: string;
  hcl?: boolean;
  sensitive?: boolean;
}

export const varResource = (attributes: VarAttributes | Record<string, unknown>) => ({
  type: 'vars',
  attributes: { category: 'terraform', ...attributes },
});

export const identifiers = (type: string, ids: string[]) => ({ data: ids.map((id) => ({ type, id })) });

export interface VarsetBody {
  attributes?: Record<string, unknown>;
  workspaces?: string[];
  projects?: string[];
  vars?: VarAttributes[];
  parent?: { type: string; id: string };
}

/** A `varsets` document; relationships appear only when given. */
export function varsetBody(body: VarsetBody): unknown {
  const relationships: Record<string, unknown> = {};
  if (body.workspaces) relationships.workspaces = identifiers('workspaces', body.workspaces);
  if (body.projects) relationships.projects = identifiers('projects', body.projects);
  if (body.vars) relationships.vars = { data: body.vars.map(varResource) };
  if (body.parent) relationships.parent = { data: body.parent };
  return {
    data: {
      type: 'varsets',
      attributes: body.attributes ?? {},
      ...(Object.keys(relationships).length ? { relationships } : {}),
    },
  };
}

let counter = 0;
export const uniqueName = (prefix = 'set') => `${prefix}-${++counter}-${Math.random().toString(36).slice(2, 8)}`;

export function postVarset(t: Client, org: string, body: VarsetBody = {}): Promise<ApiResponse> {
  return t.post(
    `/api/v2/organizations/${org}/varsets`,
    varsetBody({ ...body, attributes: { name: uniqueName(), ...body.attributes } }),
  );
}

/** Creates a set and returns the created resource. */
export async function createVarset(t: Client, org: string, body: VarsetBody = {}): Promise<any> {
  const res = await postVarset(t, org, body);
  expectStatus(res, 200);
  return res.body.data;
}

export function postVar(
  t: Client,
  varsetId: string,
  attributes: VarAttributes | Record<string, unknown>,
): Promise<ApiResponse> {
  return t.post(`/api/v2/varsets/${varsetId}/relationships/vars`, { data: varResource(attributes) });
}

export async function createVar(t: Client, varsetId: string, attributes: VarAttributes): Promise<any> {
  const res = await postVar(t, varsetId, attributes);
  expectStatus(res, 200);
  return res.body.data;
}

/** The path of a set's variables, or of one of them. */
export const varsPath = (setId: string, varId?: string) =>
  `/api/v2/varsets/${setId}/relationships/vars${varId ? `/${varId}` : ''}`;

/** A set's versions as the API lists them (first page of 100), read with `token` or the site-admin token. */
export async function listVersions(c: Client, setId: string, token?: string): Promise<any[]> {
  const res = await c.get(`/api/v2/varsets/${setId}/versions?page%5Bsize%5D=100`, { token });
  expectStatus(res, 200);
  return res.body.data;
}

export async function assign(
  t: Client,
  varsetId: string,
  kind: 'workspaces' | 'projects',
  ids: string[],
): Promise<void> {
  expectStatus(await t.post(`/api/v2/varsets/${varsetId}/relationships/${kind}`, identifiers(kind, ids)), 204);
}

export const ids = (resources: { id: string }[]) => resources.map((r) => r.id).sort();

/** Everything an organization's sets hold (attributes, assignments, variables with versions), to prove a rejected request changed nothing. */
export async function snapshot(t: Client, org: string): Promise<unknown> {
  const res = await t.get(`/api/v2/organizations/${org}/varsets?include=vars,workspaces,projects&page%5Bsize%5D=100`);
  expectStatus(res, 200);
  return { data: res.body.data, included: res.body.included, total: res.body.meta.pagination['total-count'] };
}

/** Runs `request`, which must be refused with `status`, and checks the organization's sets are exactly as before. */
export async function expectRejected(
  t: Client,
  org: string,
  status: number,
  request: () => Promise<ApiResponse>,
): Promise<ApiResponse> {
  const before = await snapshot(t, org);
  const res = await request();
  expectStatus(res, status);
  assert.equal(res.body.errors[0].status, String(status));
  assert.deepEqual(await snapshot(t, org), before, 'a rejected request changed nothing');
  return res;
}
