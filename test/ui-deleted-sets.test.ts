import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { grantWorkspace, teamWithToken } from './support/factories/access.js';
import { createVarset } from './support/factories/varsets.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';
import {
  closeSignedInUi,
  heading,
  openSignedInUi,
  signIn,
  statusSays,
  watchPage,
  type Scenario,
  type UiServer,
} from './support/ui.js';

/** The organization's "Deleted sets" page: for the owners, linked from the navigation, each set with Restore. */

describe(`the deleted sets page, in Chromium (${storeKind})`, () => {
  let ui: UiServer;
  let browser: Browser;
  let page: Page;
  let scenario: Scenario;
  const ids: Record<string, string> = {};
  const scriptErrors: string[] = [];

  before(async () => {
    ({ browser, ui, page, scenario } = await openSignedInUi(scriptErrors, {
      seed: async (ui, scenario) => {
        for (const name of ['retired-a', 'retired-b']) {
          const set = await createVarset(ui.admin, scenario.org, {
            attributes: { name },
            vars: [{ key: 'level', value: name === 'retired-a' ? '1' : '2' }],
          });
          ids[name] = set.id;
          expectStatus(await ui.admin.delete(`/api/v2/varsets/${set.id}`), 204);
        }
      },
    }));
  });

  after(() => closeSignedInUi({ browser, ui }));

  it('lists the deleted sets, newest first, and restores one through the dry run', async () => {
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Deleted sets' }).click();
    await heading(page, `Deleted sets of ${scenario.org}`);
    assert.equal(new URL(page.url()).pathname, `/organizations/${scenario.org}/deleted-varsets`);
    const table = page.getByRole('table', { name: 'Deleted sets' });
    await table.getByRole('link', { name: 'retired-b' }).waitFor();
    assert.deepEqual(await table.locator('tbody th').allTextContents(), ['retired-b', 'retired-a']);
    assert.equal(
      await table.getByRole('link', { name: 'retired-a' }).getAttribute('href'),
      `/varsets/${ids['retired-a']}/history`,
    );

    await table.getByRole('button', { name: 'Restore retired-a' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore retired-a as it was at version 1?' });
    const changes = dialog.getByRole('list', { name: 'What restoring changes' });
    await changes.waitFor();
    assert.match(((await changes.textContent()) ?? '').replace(/\s+/g, ' '), /level \(terraform\) = "1"/);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await statusSays(page, 'Restored version 1 as version 3');
    await table.getByRole('link', { name: 'retired-a' }).waitFor({ state: 'detached' });
    assert.deepEqual(await table.locator('tbody th').allTextContents(), ['retired-b']);
    const restored = await ui.admin.get(`/api/v2/varsets/${ids['retired-a']}?include=vars`);
    expectStatus(restored, 200);
    assert.equal(restored.body.data.attributes.name, 'retired-a');
  });

  it('is not offered to a team that is not the owners', async () => {
    const reader = await teamWithToken(ui.admin, scenario.org);
    await grantWorkspace(ui.admin, reader.teamId, scenario.webWorkspaceId, { access: 'read' });
    const other = watchPage(await (await browser.newContext()).newPage(), scriptErrors, [401, 404]);
    await signIn(other, ui.url, reader.token);
    await heading(other, `Variable sets of ${scenario.org}`);
    const nav = other.getByRole('navigation', { name: 'Organization' });
    await nav.getByRole('link', { name: 'Workspaces' }).waitFor();
    assert.equal(await nav.getByRole('link', { name: 'Deleted sets' }).count(), 0);
    await other.goto(`${ui.url}/organizations/${scenario.org}/deleted-varsets`);
    await other.getByText("Only the organization's owners may see its deleted sets").waitFor();
    await other.context().close();
  });

  it('logged no script error', () => {
    assert.deepEqual(scriptErrors, []);
  });
});
