import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { createVarset } from './support/factories/varsets.js';
import { storeKind } from './support/store.js';
import { closeSignedInUi, heading, openSignedInUi, type Scenario, type UiServer } from './support/ui.js';

/**
 * The workspace page says which dynamic credentials the workspace's variables turn on, for
 * which clouds, aliases and phases, from the API's explain data; the variables themselves stay
 * plain values in the table, never shown as secrets.
 */
describe(`the web UI names a workspace's dynamic credentials (${storeKind})`, () => {
  let ui: UiServer;
  let browser: Browser;
  let page: Page;
  let scenario: Scenario;
  const scriptErrors: string[] = [];

  before(async () => {
    ({ browser, ui, page, scenario } = await openSignedInUi(scriptErrors, {
      seed: async (ui, scenario) => {
        const env = (key: string, value: string) => ({ key, value, category: 'env' });
        await createVarset(ui.admin, scenario.org, {
          attributes: { name: 'cloud access' },
          workspaces: [scenario.webWorkspaceId],
          vars: [
            env('TFC_AWS_PROVIDER_AUTH', 'true'),
            env('TFC_AWS_RUN_ROLE_ARN', 'arn:aws:iam::123456789012:role/web'),
            env('TFC_AWS_PROVIDER_AUTH_STAGING', 'true'),
            env('TFC_AWS_PLAN_ROLE_ARN_STAGING', 'arn:aws:iam::210987654321:role/staging-plan'),
            env('TFC_VAULT_PROVIDER_AUTH', 'true'),
            env('TFC_VAULT_RUN_ROLE', 'web'),
          ],
        });
      },
    }));
  });
  after(async () => closeSignedInUi({ browser, ui }));

  it('on the workspace page: each cloud and alias with its phases, the roles shown as plain values', async () => {
    await page.goto(`${ui.url}/workspaces/${scenario.webWorkspaceId}`);
    await heading(page, 'Workspace web');
    const note = page.locator('.dynamic-credentials');
    await note.waitFor();
    assert.equal(
      (await note.textContent())?.replace(/\s+/g, ' '),
      'Dynamic credentials: AWS (plan, apply), AWS alias STAGING (plan), Vault (a variable it needs is missing)',
    );
    assert.equal(
      await note.getByText('AWS alias STAGING (plan)').getAttribute('title'),
      'Tokens with audience aws.workload.identity',
    );
    const role = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^TFC_AWS_RUN_ROLE_ARN/ }) });
    assert.match((await role.textContent()) ?? '', /arn:aws:iam::123456789012:role\/web/);
    assert.doesNotMatch((await role.textContent()) ?? '', /sensitive/);

    // A workspace whose variables turn nothing on has no note.
    const api = await ui.admin.get(`/api/v2/organizations/${scenario.org}/workspaces`);
    const other = api.body.data.find((w: any) => w.attributes.name === 'api').id;
    await page.goto(`${ui.url}/workspaces/${other}`);
    await heading(page, 'Workspace api');
    await page.getByRole('heading', { name: 'What a run gets' }).waitFor();
    await page.getByRole('table', { name: /What a run gets/ }).waitFor();
    assert.equal(await page.locator('.dynamic-credentials').count(), 0);
    assert.deepEqual(scriptErrors, []);
  });
});
