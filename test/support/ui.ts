import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import assert from 'node:assert/strict';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { createOrganization, createProject, createWorkspace } from './factories/organizations.js';
import { createVar, createVarset } from './factories/varsets.js';
import { ROOT, startServerProcess, varsetdEnv, type ServerProcess } from './processes.js';
import { ADMIN_TOKEN, httpClient, type Client } from './requests.js';
import { createTestStore, type TestStore } from './store.js';

/** The Chromium the browser tests drive: Debian's, installed by scripts/chromium.sh. Nothing downloads one. */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((candidate) => candidate && fs.existsSync(candidate));
  if (!found) {
    throw new Error(
      'Chromium is not installed, and the web UI tests need it: run `bash scripts/chromium.sh` (CI runs it from .ci/run), or set CHROMIUM_PATH.',
    );
  }
  return found;
}

export function launchChromium(): Promise<Browser> {
  // Root in a container has no user namespaces for Chromium's sandbox.
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
}

/** Builds the web UI into dist/web unless it is up to date (as `npm run build` does). */
export async function buildUi(): Promise<void> {
  await promisify(execFile)(process.execPath, ['scripts/build-ui.mjs'], { cwd: ROOT });
}

/** Waits for the page's main heading. */
export async function heading(page: Page, name: string | RegExp): Promise<void> {
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

/** Opens `url`, which asks for a token, and submits `token`; the answer is the caller's to wait for. */
export async function submitSignIn(page: Page, url: string, token: string): Promise<void> {
  await page.goto(url);
  await heading(page, 'Sign in');
  await page.getByLabel('API token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Signs in with a token the server accepts, and returns once the UI has kept it (the UI checks the
 * token with the server first), so that a navigation right after is signed in too.
 */
export async function signIn(page: Page, url: string, token: string): Promise<void> {
  await submitSignIn(page, url, token);
  await page.waitForFunction(
    (key) => (sessionStorage.getItem(key) ?? localStorage.getItem(key)) !== null,
    'varsetd.token',
  );
}

/** The text of the element a field (input or fieldset) names in aria-describedby: its error message. */
export async function fieldError(field: Locator): Promise<string> {
  await field.and(field.page().locator('[aria-invalid="true"]')).waitFor();
  const id = await field.getAttribute('aria-describedby');
  assert.ok(id, 'the field names no error message');
  assert.equal(await field.getAttribute('aria-invalid'), 'true');
  return (await field.page().locator(`[id="${id}"]`).textContent()) ?? '';
}

/**
 * Waits until `element`'s attribute `name` reads `value` (null: until it has none). The UI renders a
 * navigation in a transition, so the URL changes a moment before the page shows it.
 */
export async function attributeBecomes(element: Locator, name: string, value: string | null): Promise<void> {
  const selector = value === null ? `:not([${name}])` : `[${name}="${value}"]`;
  await element.and(element.page().locator(selector)).waitFor();
}

/**
 * Sets the page's default timeout and notes in `errors` what its scripts throw and log as errors,
 * except the browser's own line for a refused API request answered with one of `expectedStatuses`.
 */
export function watchPage(page: Page, errors: string[], expectedStatuses = [401, 404, 422]): Page {
  const refused = new RegExp(
    `^Failed to load resource: the server responded with a status of (${expectedStatuses.join('|')})`,
  );
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !refused.test(message.text())) errors.push(message.text());
  });
  return page;
}

/** Waits for the page's polite status message to say `text`. */
export async function statusSays(page: Page, text: string): Promise<void> {
  const region = page.getByRole('status');
  await region.filter({ hasText: text }).waitFor();
  assert.equal(await region.getAttribute('aria-live'), 'polite');
  assert.equal((await region.textContent())?.trim(), text);
}

/** What has focus: its tag, its accessible label or text, and whether a dialog holds it. */
export const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    return {
      tag: active?.tagName.toLowerCase() ?? '',
      name:
        active?.getAttribute('aria-label') ??
        (active?.id ? document.querySelector(`label[for="${active.id}"]`)?.textContent : null) ??
        active?.textContent.trim() ??
        '',
      inDialog: Boolean(active?.closest('dialog[open]')),
    };
  });

/** Presses `key` (Tab or Shift+Tab) until the focused control is named `name`. */
export async function tabTo(page: Page, name: string, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
  const seen: string[] = [];
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press(key);
    const now = await focused(page);
    if (now.name.trim() === name) return;
    seen.push(now.name.trim());
  }
  assert.fail(`${key} never reached "${name}"; it went through: ${seen.join(' | ')}`);
}

/** The impact preview a save opens first, by its title: waits for what it says, then confirms the write. */
export async function confirmImpact(page: Page, title: string | RegExp): Promise<void> {
  const dialog = page.getByRole('dialog', { name: title });
  await dialog
    .getByText(/affected/)
    .first()
    .waitFor();
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
  const webWorkspaceId = await createWorkspace(c, name, { name: 'web', projectId: coreProjectId });
  await createWorkspace(c, name, { name: 'api' });
  const defaults = await createVarset(c, name, {
    attributes: { name: 'defaults', description: 'Values every team starts from' },
  });
  await createVar(c, defaults.id, { key: 'region', value: 'us', category: 'terraform' });
  await createVar(c, defaults.id, { key: 'instance_type', value: 't3.small', category: 'terraform' });
  const globals = await createVarset(c, name, {
    attributes: { name: 'globals', global: true, description: 'Applied to every workspace' },
  });
  await createVar(c, globals.id, { key: 'owner', value: 'platform', category: 'terraform' });
  await createVar(c, globals.id, { key: 'TF_LOG', value: 'info', category: 'env' });
  return { org: name, coreProjectId, webWorkspaceId, defaultsSetId: defaults.id, globalsSetId: globals.id };
}

export interface SignedInUi {
  browser: Browser;
  ui: UiServer;
  page: Page;
  scenario: Scenario;
}

/**
 * Chromium, signed in with the admin token on the sets of the seeded scenario, of a varsetd
 * serving the UI; `seed` adds to the scenario before the sign-in. What was opened is closed if a
 * step fails.
 */
export async function openSignedInUi(
  scriptErrors: string[],
  options: { expectedStatuses?: number[]; seed?: (ui: UiServer, scenario: Scenario) => Promise<void> } = {},
): Promise<SignedInUi> {
  const browser = await launchChromium();
  let ui: UiServer | undefined;
  try {
    ui = await startUiServer();
    const scenario = await seedScenario(ui.admin);
    await options.seed?.(ui, scenario);
    const page = watchPage(await (await browser.newContext()).newPage(), scriptErrors, options.expectedStatuses);
    await signIn(page, ui.url, ADMIN_TOKEN);
    await heading(page, `Variable sets of ${scenario.org}`);
    return { browser, ui, page, scenario };
  } catch (error) {
    await closeSignedInUi({ browser, ui });
    throw error;
  }
}

/** Closes what `openSignedInUi` opened (nothing, when it never ran). */
export async function closeSignedInUi(opened: Partial<SignedInUi> | undefined): Promise<void> {
  await opened?.browser?.close();
  await opened?.ui?.stop();
}
