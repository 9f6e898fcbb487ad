import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { ensureAdminToken } from '../src/auth/tokens.js';
import { migrate, openStore, type Store } from '../src/db/connect.js';
import { ADMIN_TOKEN, createTestStore, expectStatus, type ApiResponse, type RequestOptions, type TestApp } from './helpers.js';

/** Request bodies, clients and assertions shared by the variable set tests. */

/** What the helpers below need of a client: the in-process TestApp, another in-process app, or real HTTP. */
export type Client = Pick<TestApp, 'request' | 'get' | 'post' | 'patch' | 'put' | 'delete'>;

function clientFrom(request: Client['request']): Client {
  return {
    request,
    get: (url, options) => request('GET', url, options),
    post: (url, body, options) => request('POST', url, { ...options, body }),
    patch: (url, body, options) => request('PATCH', url, { ...options, body }),
    put: (url, body, options) => request('PUT', url, { ...options, body }),
    delete: (url, body, options) => request('DELETE', url, { ...options, body }),
  };
}

function headersFor(options: RequestOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const token = options.token === undefined ? ADMIN_TOKEN : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined || options.contentType) headers['content-type'] = options.contentType ?? 'application/vnd.api+json';
  return headers;
}

const payloadOf = (options: RequestOptions) => (options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body));

/** A client of an in-process app built by the test itself (on a store it wrapped). */
export function injectClient(app: FastifyInstance): Client {
  // eslint-disable-next-line @typescript-eslint/no-useless-default-assignment -- tsc types options as optional
  return clientFrom(async (method, url, options = {}) => {
    const payload = payloadOf(options);
    const res = await app.inject({ method: method as 'GET', url, headers: headersFor(options), ...(payload !== undefined ? { payload } : {}) });
    return { status: res.statusCode, headers: res.headers, body: res.body === '' ? undefined : JSON.parse(res.body) };
  });
}

/** An in-process app on a fresh store that the test wraps first (to count queries, or to drop the organization lock). */
export async function startWrappedApp(wrap: (store: Store) => Store): Promise<{ client: Client; store: Store; close(): Promise<void> }> {
  const testStore = await createTestStore();
  const store = await openStore(testStore);
  await migrate(store);
  await ensureAdminToken(store, ADMIN_TOKEN, testStore.dataDir);
  const app = await buildApp({ store: wrap(store), publicUrl: 'http://127.0.0.1:1' });
  return {
    client: injectClient(app),
    store,
    close: async () => {
      await app.close();
      await store.close();
      await testStore.dispose();
    },
  };
}

/** A client speaking real HTTP to a server at `baseUrl`. */
export function httpClient(baseUrl: string): Client {
  // eslint-disable-next-line @typescript-eslint/no-useless-default-assignment -- tsc types options as optional
  return clientFrom(async (method, url, options = {}) => {
    const payload = payloadOf(options);
    const res = await fetch(`${baseUrl}${url}`, { method, headers: headersFor(options), ...(payload !== undefined ? { body: payload } : {}) });
    const text = await res.text();
    return { status: res.status, headers: Object.fromEntries(res.headers), body: text === '' ? undefined : JSON.parse(text) };
  });
}

/** Creates an organization through any client; returns its name. */
export async function createOrganization(c: Client, name = uniqueName('org')): Promise<string> {
  const res = await c.post('/api/v2/organizations', { data: { type: 'organizations', attributes: { name, email: `${name}@example.com` } } });
  expectStatus(res, 201);
  return res.body.data.id;
}

export interface VarAttributes {
  key: string;
  value?: string;
  category?: string;
  description?: string;
  hcl?: boolean;
  sensitive?: boolean;
}

export const varResource = (attributes: VarAttributes | Record<string, unknown>) => ({ type: 'vars', attributes: { category: 'terraform', ...attributes } });

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
  return { data: { type: 'varsets', attributes: body.attributes ?? {}, ...(Object.keys(relationships).length ? { relationships } : {}) } };
}

let counter = 0;
export const uniqueName = (prefix = 'set') => `${prefix}-${++counter}-${Math.random().toString(36).slice(2, 8)}`;

export function postVarset(t: Client, org: string, body: VarsetBody = {}): Promise<ApiResponse> {
  return t.post(`/api/v2/organizations/${org}/varsets`, varsetBody({ ...body, attributes: { name: uniqueName(), ...body.attributes } }));
}

/** Creates a set and returns the created resource. */
export async function createVarset(t: Client, org: string, body: VarsetBody = {}): Promise<any> {
  const res = await postVarset(t, org, body);
  expectStatus(res, 200);
  return res.body.data;
}

export function postVar(t: Client, varsetId: string, attributes: VarAttributes | Record<string, unknown>): Promise<ApiResponse> {
  return t.post(`/api/v2/varsets/${varsetId}/relationships/vars`, { data: varResource(attributes) });
}

export async function createVar(t: Client, varsetId: string, attributes: VarAttributes): Promise<any> {
  const res = await postVar(t, varsetId, attributes);
  expectStatus(res, 200);
  return res.body.data;
}

export async function assign(t: Client, varsetId: string, kind: 'workspaces' | 'projects', ids: string[]): Promise<void> {
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
export async function expectRejected(t: Client, org: string, status: number, request: () => Promise<ApiResponse>): Promise<ApiResponse> {
  const before = await snapshot(t, org);
  const res = await request();
  expectStatus(res, status);
  assert.equal(res.body.errors[0].status, String(status));
  assert.deepEqual(await snapshot(t, org), before, 'a rejected request changed nothing');
  return res;
}

export function errorOf(res: ApiResponse): { status: string; title: string; detail?: string; source?: { pointer?: string; parameter?: string } } {
  assert.ok(Array.isArray(res.body?.errors), `expected an error document, got ${JSON.stringify(res.body)}`);
  return res.body.errors[0];
}
