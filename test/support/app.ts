import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../src/app.js';
import { ensureAdminToken } from '../../src/auth/tokens.js';
import { migrate, openStore, type Store } from '../../src/db/connect.js';
import { createOrganization, createProject, createWorkspace } from './factories/organizations.js';
import { ADMIN_TOKEN, injectClient, type Client } from './requests.js';
import { createTestStore, type TestStore } from './store.js';

type TestAppOptions = Partial<Omit<AppOptions, 'store'>>;
const unwrapped = (store: Store) => store;

/** An in-process varsetd on a fresh store (SQLite, or PostgreSQL with TEST_DATABASE_URL), with a site-admin token and a client. */
export class TestApp implements Client {
  private readonly client: Client;

  private constructor(
    readonly app: FastifyInstance,
    /** The store as opened, before any `wrap`. */
    readonly store: Store,
    private readonly testStore: TestStore,
  ) {
    this.client = injectClient(app);
  }

  /**
   * `options` go to buildApp over the default `publicUrl` (one nothing listens on); pass
   * `publicUrl: undefined` for absolute URLs derived from each request, as a listening app needs.
   * `wrap` may wrap the store the app is given (to count queries, or to drop the organization lock).
   */
  static async start(options: TestAppOptions = {}, wrap = unwrapped): Promise<TestApp> {
    const testStore = await createTestStore();
    const store = await openStore(testStore);
    await migrate(store);
    await ensureAdminToken(store, ADMIN_TOKEN, testStore.dataDir);
    const app = await buildApp({ publicUrl: 'http://127.0.0.1:1', ...options, store: wrap(store) });
    return new TestApp(app, store, testStore);
  }

  /**
   * Another varsetd on the same database, as a second process would be: a connection and
   * caches of its own (`wrap` may wrap its store; `options` go to buildApp). Close it before this one.
   */
  async sibling(wrap = unwrapped, options: TestAppOptions = {}): Promise<TestApp> {
    const store = await openStore(this.testStore);
    const app = await buildApp({ publicUrl: 'http://127.0.0.1:1', ...options, store: wrap(store) });
    return new TestApp(app, store, { ...this.testStore, dispose: async () => {} });
  }

  request: Client['request'] = (method, url, options) => this.client.request(method, url, options);
  get: Client['get'] = (url, options) => this.client.get(url, options);
  post: Client['post'] = (url, body, options) => this.client.post(url, body, options);
  patch: Client['patch'] = (url, body, options) => this.client.patch(url, body, options);
  put: Client['put'] = (url, body, options) => this.client.put(url, body, options);
  delete: Client['delete'] = (url, body, options) => this.client.delete(url, body, options);

  /** A GET with exactly `headers` (no token unless given), answered as Fastify's inject answers it: for pages and other raw bodies. */
  getRaw = (url: string, headers: Record<string, string> = {}) => this.app.inject({ method: 'GET', url, headers });

  /** Creates an organization (with a random name unless given) and returns its name. */
  createOrganization = (name?: string) => createOrganization(this, name);
  createProject = (organization: string, name?: string) => createProject(this, organization, name);
  createWorkspace = (organization: string, options?: { name?: string; projectId?: string }) =>
    createWorkspace(this, organization, options);

  async close(): Promise<void> {
    await this.app.close();
    await this.store.close();
    await this.testStore.dispose();
  }
}
