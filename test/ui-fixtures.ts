import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { gzipSync } from 'node:zlib';
import { promisify } from 'node:util';
import assert from 'node:assert/strict';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ADMIN_TOKEN, createTestStore, expectStatus, type TestStore } from './helpers.js';
import { tar } from './runs-fixtures.js';
import { ROOT, startServerProcess, varsetdEnv, type ServerProcess } from './server-process.js';
import { createOrganization, createVar, createVarset, httpClient, type Client } from './varsets-fixtures.js';

/** The Chromium the browser tests drive: Debian's, installed by scripts/chromium.sh. Nothing downloads one. */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((candidate) => candidate && fs.existsSync(candidate));
  if (!found) {
    throw new Error('Chromium is not installed, and the web UI tests need it: run `bash scripts/chromium.sh` (CI runs it from .ci/run), or set CHROMIUM_PATH.');
  }
  return found;
}

export function launchChromium(): Promise<Browser> {
  // Root in a container has no user namespaces for Chromium's sandbox.
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
}

/** Builds the web UI into dist/web unless it is up to date (as `npm run build` does). */
export async function buildUi(): Promise<void> {
  await promisify(execFile)(process.execPath, ['scripts/build-ui.mjs'], { cwd: ROOT });
}

/** Waits for the page's main heading. */
export async function heading(page: Page, name: string | RegExp): Promise<void> {
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

export async function signIn(page: Page, url: string, token: string): Promise<void> {
  await page.goto(url);
  await heading(page, 'Sign in');
  await page.getByLabel('API token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Waits for the page's polite status message to say `text`. */
export async function statusSays(page: Page, text: string): Promise<void> {
  const region = page.getByRole('status');
  await region.filter({ hasText: text }).waitFor();
  assert.equal(await region.getAttribute('aria-live'), 'polite');
  assert.equal((await region.textContent())?.trim(), text);
}

/** The impact preview a save opens first, by its title: waits for what it says, then confirms the write. */
export async function confirmImpact(page: Page, title: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.getByText(/affected/).first().waitFor();
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

export interface UiServer {
  url: string;
  admin: Client;
  server: ServerProcess;
  stop(): Promise<void>;
}

/** A real varsetd process serving the built UI on a fresh store, with an HTTP client holding the admin token. */
export async function startUiServer(): Promise<UiServer> {
  await buildUi();
  const store: TestStore = await createTestStore();
  let server: ServerProcess;
  try {
    server = await startServerProcess(varsetdEnv(store, { VARSETD_ADMIN_TOKEN: ADMIN_TOKEN }));
  } catch (error) {
    await store.dispose();
    throw error;
  }
  return {
    url: server.url,
    admin: httpClient(server.url),
    server,
    stop: async () => {
      await server.stop();
      await store.dispose();
    },
  };
}

export async function createProject(c: Client, org: string, name: string): Promise<string> {
  const res = await c.post(`/api/v2/organizations/${org}/projects`, { data: { type: 'projects', attributes: { name } } });
  expectStatus(res, 201);
  return res.body.data.id;
}

export async function createWorkspace(c: Client, org: string, name: string, projectId?: string): Promise<string> {
  const relationships = projectId ? { project: { data: { type: 'projects', id: projectId } } } : undefined;
  const res = await c.post(`/api/v2/organizations/${org}/workspaces`, { data: { type: 'workspaces', attributes: { name }, ...(relationships ? { relationships } : {}) } });
  expectStatus(res, 201);
  return res.body.data.id;
}

/** A run of the workspace over real HTTP: a configuration version, its upload, then POST /runs. */
export async function createRunOverHttp(c: Client, workspaceId: string, message: string): Promise<string> {
  const cv = await c.post(`/api/v2/workspaces/${workspaceId}/configuration-versions`, { data: { type: 'configuration-versions' } });
  expectStatus(cv, 201);
  const uploaded = await fetch(cv.body.data.attributes['upload-url'], { method: 'PUT', body: gzipSync(tar({ 'main.tf': 'output "x" { value = 1 }\n' })) });
  if (uploaded.status !== 200) throw new Error(`upload answered ${uploaded.status}`);
  const run = await c.post('/api/v2/runs', {
    data: { type: 'runs', attributes: { message }, relationships: { workspace: { data: { type: 'workspaces', id: workspaceId } } } },
  });
  expectStatus(run, 201);
  return run.body.data.id;
}

export interface Scenario {
  org: string;
  coreProjectId: string;
  webWorkspaceId: string;
  defaultsSetId: string;
  globalsSetId: string;
}

/**
 * An organization as a person would find it: project "core" with workspace "web", workspace
 * "api" in the default project, set "defaults" (region = us, applied nowhere yet) and the global
 * set "globals" (owner = platform).
 */
export async function seedScenario(c: Client, org?: string): Promise<Scenario> {
  const name = await createOrganization(c, org);
  const coreProjectId = await createProject(c, name, 'core');
  const webWorkspaceId = await createWorkspace(c, name, 'web', coreProjectId);
  await createWorkspace(c, name, 'api');
  const defaults = await createVarset(c, name, { attributes: { name: 'defaults', description: 'Values every team starts from' } });
  await createVar(c, defaults.id, { key: 'region', value: 'us', category: 'terraform' });
  await createVar(c, defaults.id, { key: 'instance_type', value: 't3.small', category: 'terraform' });
  const globals = await createVarset(c, name, { attributes: { name: 'globals', global: true, description: 'Applied to every workspace' } });
  await createVar(c, globals.id, { key: 'owner', value: 'platform', category: 'terraform' });
  await createVar(c, globals.id, { key: 'TF_LOG', value: 'info', category: 'env' });
  return { org: name, coreProjectId, webWorkspaceId, defaultsSetId: defaults.id, globalsSetId: globals.id };
}
