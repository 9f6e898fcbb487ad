import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { openStore } from '../src/db/connect.js';
import { createOrganization, createWorkspace } from './support/factories/organizations.js';
import { createVarset } from './support/factories/varsets.js';
import { startServerProcess, varsetdEnv, type ServerProcess } from './support/processes.js';
import { ADMIN_TOKEN, httpClient } from './support/requests.js';
import { createTestStore, storeKind, type TestStore } from './support/store.js';
import { buildUi, heading, launchChromium, signIn, watchPage } from './support/ui.js';

/** The web UI shows a sensitive variable that needs a value (its flag set in the store, as an import leaves it) on its set's page and in effective variables. */
describe(`the web UI shows a variable that needs a value (${storeKind})`, () => {
  let store: TestStore;
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  let varsetId: string;
  let workspaceId: string;
  const scriptErrors: string[] = [];

  before(async () => {
    await buildUi();
    store = await createTestStore();
    server = await startServerProcess(varsetdEnv(store, { VARSETD_ADMIN_TOKEN: ADMIN_TOKEN }));
    const c = httpClient(server.url);
    await createOrganization(c, 'acme');
    workspaceId = await createWorkspace(c, 'acme', { name: 'web' });
    varsetId = (
      await createVarset(c, 'acme', {
        attributes: { name: 'cloud' },
        workspaces: [workspaceId],
        vars: [{ key: 'TOKEN', category: 'env', sensitive: true }],
      })
    ).id;
    const opened = await openStore(store);
    try {
      await opened.db
        .updateTable('varset_variables')
        .set({ value_needed: true })
        .where('varset_id', '=', varsetId)
        .execute();
    } finally {
      await opened.close();
    }
    browser = await launchChromium();
    page = watchPage(await (await browser.newContext()).newPage(), scriptErrors);
    await signIn(page, server.url, ADMIN_TOKEN);
  });
  after(async () => {
    await (browser as Browser | undefined)?.close();
    await (server as ServerProcess | undefined)?.stop();
    await (store as TestStore | undefined)?.dispose();
  });

  it("on the set's page and in the workspace's effective variables", async () => {
    await page.goto(`${server.url}/varsets/${varsetId}`);
    await heading(page, 'cloud');
    await page.getByText('Needs a value', { exact: true }).waitFor();
    await page
      .getByText('Needs a value: it was imported without one, and no run can use it until one is given')
      .waitFor();
    await page.goto(`${server.url}/workspaces/${workspaceId}`);
    await heading(page, 'Workspace web');
    const token = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /TOKEN/ }) });
    await token.waitFor();
    assert.match((await token.textContent()) ?? '', /\(sensitive, needs a value\)/);
    assert.deepEqual(scriptErrors, []);
  });
});
