import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';
import { heading, type Scenario, type UiServer, openSignedInUi, closeSignedInUi } from './support/ui.js';

/** A workspace's own variable that a priority set overrides says so where it is listed, and when it is edited. */

describe(`a workspace's overwritten variables, in Chromium (${storeKind})`, () => {
  let ui: UiServer;
  let browser: Browser;
  let page: Page;
  let scenario: Scenario;
  let apiWorkspaceId: string;
  const scriptErrors: string[] = [];

  before(async () => {
    ({ browser, ui, page, scenario } = await openSignedInUi(scriptErrors, {
      seed: async (ui, scenario) => {
        const workspaces = await ui.admin.get(`/api/v2/organizations/${scenario.org}/workspaces`);
        apiWorkspaceId = workspaces.body.data.find((w: any) => w.attributes.name === 'api').id;
        for (const [key, value] of [
          ['owner', 'api-team'],
          ['size', 'large'],
        ]) {
          expectStatus(
            await ui.admin.post(`/api/v2/workspaces/${apiWorkspaceId}/vars`, {
              data: { type: 'vars', attributes: { key, value, category: 'terraform' } },
            }),
            201,
          );
        }
        // The global set becomes a priority one: its owner beats the workspace's own.
        expectStatus(
          await ui.admin.patch(`/api/v2/varsets/${scenario.globalsSetId}`, {
            data: { type: 'varsets', attributes: { priority: true } },
          }),
          200,
        );
      },
    }));
  });

  after(() => closeSignedInUi({ browser, ui }));

  it('marks the overridden variable "Overwritten", names the set that wins, and warns when it is edited', async () => {
    await page.goto(`${ui.url}/workspaces/${apiWorkspaceId}`);
    await heading(page, 'Workspace api');
    const owner = page.locator('[data-variable="terraform:owner"]');
    await owner.getByText('Overwritten', { exact: true }).waitFor();
    assert.match(
      (await owner.textContent()) ?? '',
      /Overwritten by set globals \(priority\): runs get its value, not this one\./,
    );
    assert.equal(
      await owner.getByRole('link', { name: 'globals' }).getAttribute('href'),
      `/varsets/${scenario.globalsSetId}`,
    );
    // Its own size wins: nothing said.
    assert.equal(await page.locator('[data-variable="terraform:size"]').getByText('Overwritten').count(), 0);

    await page.getByRole('button', { name: 'Edit owner' }).click();
    const edit = page.getByRole('form', { name: 'Edit variable owner' });
    await edit
      .getByText('Saving changes no run: set globals (priority) overrides this variable, and runs get its value.')
      .waitFor();
  });

  it('logged no script error', () => {
    assert.deepEqual(scriptErrors, []);
  });
});
