import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../src/app.js';
import { ensureAdminToken } from '../src/auth/tokens.js';
import { Migrator } from 'kysely';
import { migrate, openStore, type Store } from '../src/db/connect.js';
import { migrations } from '../src/db/migrations/index.js';
import { randomAlphanumeric } from '../src/ids.js';

/**
 * Test stores: SQLite in a temporary folder, or, when TEST_DATABASE_URL is set, a fresh
 * database created on that PostgreSQL server and dropped afterwards.
 */
export const storeKind = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

export interface TestStore {
  databaseUrl: string | undefined;
  dataDir: string;
  dispose(): Promise<void>;
}

export async function createTestStore(): Promise<TestStore> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-test-'));
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    return { databaseUrl: undefined, dataDir, dispose: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `varsetd_test_${randomAlphanumeric(12).toLowerCase()}`;
  await withAdminClient(adminUrl, (client) => client.query(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    dataDir,
    dispose: async () => {
      await withAdminClient(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A fresh store migrated only up to `migration`, as an older varsetd left it, for `work`; removed afterwards. */
export async function withStoreMigratedTo(migration: string, work: (store: Store) => Promise<void>): Promise<void> {
  const testStore = await createTestStore();
  const store = await openStore(testStore);
  try {
    const { error } = await new Migrator({ db: store.db, provider: { getMigrations: async () => migrations } }).migrateTo(migration);
    if (error) throw error instanceof Error ? error : new Error(String(error));
    await work(store);
  } finally {
    await store.close();
    await testStore.dispose();
  }
}

async function withAdminClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The documents varsetd answers for a resource the caller may not see or that does not exist, and for a missing or refused token. */
export const NOT_FOUND = { errors: [{ status: '404', title: 'not found' }] };
export const UNAUTHORIZED = { errors: [{ status: '401', title: 'unauthorized' }] };

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdefghij';

export interface ApiResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** Parsed JSON body, or undefined for an empty one. */
  body: any;
}

export interface RequestOptions {
  token?: string | null;
  contentType?: string;
  /** Sent as is when a string; JSON-encoded otherwise. */
  body?: unknown;
}

/** An in-process varsetd on a fresh store, with a site-admin token and a request helper. */
export class TestApp {
  private constructor(
    readonly app: FastifyInstance,
    readonly store: Store,
    private readonly testStore: TestStore,
  ) {}

  /**
   * `options` go to buildApp over the default `publicUrl` (one nothing listens on); pass
   * `publicUrl: undefined` for absolute URLs derived from each request, as a listening app needs.
   */
  static async start(options: Partial<Omit<AppOptions, 'store'>> = {}): Promise<TestApp> {
    const testStore = await createTestStore();
    const store = await openStore(testStore);
    await migrate(store);
    await ensureAdminToken(store, ADMIN_TOKEN, testStore.dataDir);
    const app = await buildApp({ publicUrl: 'http://127.0.0.1:1', ...options, store });
    return new TestApp(app, store, testStore);
  }

  /**
   * Another varsetd on the same database, as a second process would be: a connection and
   * caches of its own (`wrap` may wrap its store; `options` go to buildApp). Close it before this one.
   */
  async sibling(wrap: (store: Store) => Store = (store) => store, options: Partial<Omit<AppOptions, 'store'>> = {}): Promise<TestApp> {
    const store = await openStore(this.testStore);
    const app = await buildApp({ publicUrl: 'http://127.0.0.1:1', ...options, store: wrap(store) });
    return new TestApp(app, store, { ...this.testStore, dispose: async () => {} });
  }

  async request(method: string, url: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = {};
    const token = options.token === undefined ? ADMIN_TOKEN : options.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let payload: string | undefined;
    if (options.body !== undefined) {
      payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] = options.contentType ?? 'application/vnd.api+json';
    } else if (options.contentType) {
      headers['content-type'] = options.contentType;
    }
    const response = await this.app.inject({ method: method as 'GET', url, headers, ...(payload !== undefined ? { payload } : {}) });
    return { status: response.statusCode, headers: response.headers, body: response.body === '' ? undefined : JSON.parse(response.body) };
  }

  get = (url: string, options?: RequestOptions) => this.request('GET', url, options);
  post = (url: string, body?: unknown, options?: RequestOptions) => this.request('POST', url, { ...options, body });
  patch = (url: string, body?: unknown, options?: RequestOptions) => this.request('PATCH', url, { ...options, body });
  put = (url: string, body?: unknown, options?: RequestOptions) => this.request('PUT', url, { ...options, body });
  delete = (url: string, body?: unknown, options?: RequestOptions) => this.request('DELETE', url, { ...options, body });

  /** Creates an organization (with a random name unless given) and returns its name. */
  async createOrganization(name = `org-${randomAlphanumeric(8)}`): Promise<string> {
    const res = await this.post('/api/v2/organizations', { data: { type: 'organizations', attributes: { name, email: `${name}@example.com` } } });
    expectStatus(res, 201);
    return res.body.data.id;
  }

  async createProject(organization: string, name = `prj-${randomAlphanumeric(8)}`): Promise<string> {
    const res = await this.post(`/api/v2/organizations/${organization}/projects`, { data: { type: 'projects', attributes: { name } } });
    expectStatus(res, 201);
    return res.body.data.id;
  }

  async createWorkspace(organization: string, options: { name?: string; projectId?: string } = {}): Promise<string> {
    const res = await this.post(`/api/v2/organizations/${organization}/workspaces`, {
      data: {
        type: 'workspaces',
        attributes: { name: options.name ?? `ws-${randomAlphanumeric(8)}` },
        ...(options.projectId ? { relationships: { project: { data: { type: 'projects', id: options.projectId } } } } : {}),
      },
    });
    expectStatus(res, 201);
    return res.body.data.id;
  }

  async close(): Promise<void> {
    await this.app.close();
    await this.store.close();
    await this.testStore.dispose();
  }
}

/** Fails with the response body in the message, which says far more than "expected 200, got 422". */
export function expectStatus(res: ApiResponse, status: number): void {
  if (res.status !== status) {
    throw new Error(`expected HTTP ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  }
}
