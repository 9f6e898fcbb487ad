import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { createVarset } from './support/factories/varsets.js';
import { storeKind } from './support/store.js';
import {
  attributeBecomes,
  closeSignedInUi,
  heading,
  openSignedInUi,
  type Scenario,
  type UiServer,
} from './support/ui.js';

/**
 * "Which sets define DB_PASSWORD?" on the sets page: the "Search by key" field asks the server
 * for the sets defining exactly that key, kept in the URL, in the cards and in the table.
 */

describe(`searching the sets by variable key, in Chromium (${storeKind})`, () => {
  let ui: UiServer;
  let browser: Browser;
  let page: Page;
  let scenario: Scenario;
  const scriptErrors: string[] = [];

  before(async () => {
    ({ browser, ui, page, scenario } = await openSignedInUi(scriptErrors, {
      seed: async (ui, scenario) => {
        await createVarset(ui.admin, scenario.org, {
          attributes: { name: 'db-credentials' },
          vars: [{ key: 'DB_PASSWORD', category: 'env', sensitive: true, value: 'secret' }],
        });
        await createVarset(ui.admin, scenario.org, {
          attributes: { name: 'db-terraform', global: true },
          vars: [{ key: 'DB_PASSWORD', category: 'terraform', value: 'x' }],
        });
        await createVarset(ui.admin, scenario.org, {
          attributes: { name: 'legacy' },
          vars: [{ key: 'db_password', category: 'env', value: 'x' }],
        });
      },
    }));
  });

  after(() => closeSignedInUi({ browser, ui }));

  it('lists the sets defining the key typed, exactly, and keeps it in the URL', async () => {
    await page.goto(`${ui.url}/organizations/${scenario.org}/varsets`);
    const sets = page.getByRole('list', { name: 'Variable sets' });
    await sets.getByRole('link', { name: 'defaults' }).waitFor();
    const names = () => sets.locator('a[href^="/varsets/"]').allTextContents();
    await page.getByLabel('Search by key').fill('DB_PASSWORD');
    await page.waitForURL((url) => url.searchParams.get('key') === 'DB_PASSWORD');
    await sets.getByRole('link', { name: 'defaults' }).waitFor({ state: 'detached' });
    // The new page replaces "Loading…": wait for it before reading it.
    await sets.getByRole('link', { name: 'db-credentials' }).waitFor();
    assert.deepEqual(await names(), ['db-credentials', 'db-terraform']);

    // Kept across a reload, and in the table view with its filters.
    await page.reload();
    await heading(page, `Variable sets of ${scenario.org}`);
    await sets.getByRole('link', { name: 'db-credentials' }).waitFor();
    assert.equal(await page.getByLabel('Search by key').inputValue(), 'DB_PASSWORD');
    await page.getByRole('button', { name: 'Table view' }).click();
    await attributeBecomes(page.getByRole('button', { name: 'Table view' }), 'aria-pressed', 'true');
    const table = page.getByRole('table', { name: 'Variable sets' });
    await table.getByRole('link', { name: 'db-terraform' }).waitFor();
    await page.getByLabel('Global', { exact: true }).check();
    await page.waitForURL((url) => url.searchParams.has('global') && url.searchParams.get('key') === 'DB_PASSWORD');
    await table.getByRole('link', { name: 'db-credentials' }).waitFor({ state: 'detached' });
    await table.getByRole('link', { name: 'db-terraform' }).waitFor();
    assert.deepEqual(await table.locator('tbody th a[href^="/varsets/"]').allTextContents(), ['db-terraform']);
    await page.getByLabel('Global', { exact: true }).uncheck();
    await page.getByRole('button', { name: 'Table view' }).click();

    // Case counts, as it does for Terraform: the lower-case key is another one.
    await page.getByLabel('Search by key').fill('db_password');
    await page.waitForURL((url) => url.searchParams.get('key') === 'db_password');
    await sets.getByRole('link', { name: 'legacy' }).waitFor();
    assert.deepEqual(await names(), ['legacy']);
    await page.getByLabel('Search by key').fill('NO_SUCH_KEY');
    await page.getByText('No set defines the key “NO_SUCH_KEY”.').waitFor();

    // Cleared, the whole list is back.
    await page.getByLabel('Search by key').fill('');
    await page.waitForURL((url) => !url.searchParams.has('key'));
    await sets.getByRole('link', { name: 'defaults' }).waitFor();
  });

  it('logged no script error', () => {
    assert.deepEqual(scriptErrors, []);
  });
});
