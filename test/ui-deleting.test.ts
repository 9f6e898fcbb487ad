import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { teamWithToken } from './support/factories/access.js';
import { createVar, createVarset } from './support/factories/varsets.js';
import { storeKind } from './support/store.js';
import {
  heading,
  launchChromium,
  seedScenario,
  signIn,
  startUiServer,
  statusSays,
  watchPage,
  type Scenario,
  type UiServer,
} from './support/ui.js';

/** Deleting a set: who is told it cannot be undone, the Undo offered to the others, and the deleted set's page. */

const ADMIN_TOKEN_FOR_UI = 'test-admin-token-0123456789abcdefghij';

describe(`deleting a set, and its page afterwards, in Chromium (${storeKind})`, () => {
  let ui: UiServer;
  let browser: Browser;
  let scenario: Scenario;
  const scriptErrors: string[] = [];

  async function pageFor(token: string): Promise<Page> {
    const page = watchPage(await (await browser.newContext()).newPage(), scriptErrors);
    await signIn(page, ui.url, token);
    await heading(page, /Variable sets of|Organizations/);
    return page;
  }

  before(async () => {
    browser = await launchChromium();
    ui = await startUiServer();
    scenario = await seedScenario(ui.admin);
  });

  after(async () => {
    await (browser as Browser | undefined)?.close();
    await (ui as UiServer | undefined)?.stop();
  });

  it('offers Undo after a deletion, and a deleted set keeps the navigation and links its history, where Restore is', async () => {
    const doomed = await createVarset(ui.admin, scenario.org, { attributes: { name: 'doomed' } });
    const page = await pageFor(ADMIN_TOKEN_FOR_UI);
    await page.goto(`${ui.url}/varsets/${doomed.id}`);
    await heading(page, 'doomed');
    await page.getByRole('button', { name: 'Delete set' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete doomed?' });
    await dialog.getByText("The organization's owners can restore it from its history.").waitFor();
    assert.equal(await dialog.getByText('This token cannot undo it').count(), 0);
    await dialog.getByRole('button', { name: 'Delete set' }).click();
    await statusSays(page, 'Set doomed deleted');
    await page.getByRole('button', { name: 'Undo' }).waitFor();

    // The deleted set's own address, opened afresh: the organization's navigation and a way to its history.
    await page.goto(`${ui.url}/varsets/${doomed.id}`);
    await heading(page, 'doomed (deleted)');
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Variable sets' }).waitFor();
    await page.getByRole('link', { name: 'Its history' }).click();
    await heading(page, 'doomed (deleted)');
    await page.getByRole('button', { name: 'Restore this set' }).first().waitFor();
  });

  it('warns a team that may delete sets but not restore them that a deletion is irreversible for it', async () => {
    const kept = await createVarset(ui.admin, scenario.org, { attributes: { name: 'kept' } });
    const writer = await teamWithToken(ui.admin, scenario.org, {
      'organization-access': { 'manage-workspaces': true },
    });
    const page = await pageFor(writer.token);
    await page.goto(`${ui.url}/varsets/${kept.id}`);
    await heading(page, 'kept');
    await page.getByRole('button', { name: 'Delete set' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete kept?' });
    await dialog
      .getByText("This token cannot undo it: only the organization's owners can restore a deleted set.")
      .waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('asks nothing it knows the answer to: the trail once for a team token, no preview of a deleted variable, no favicon for /api/docs', async () => {
    const writer = await teamWithToken(ui.admin, scenario.org, {
      'organization-access': { 'manage-workspaces': true },
    });
    const page = await pageFor(writer.token);
    const missing: string[] = [];
    const trailAsked: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 404) missing.push(response.url());
      if (response.url().includes('/organization/audit-trail')) trailAsked.push(response.url());
    });
    const set = await createVarset(ui.admin, scenario.org, { attributes: { name: 'short-lived' } });
    for (const key of ['a', 'b']) await createVar(ui.admin, set.id, { key, value: '1', category: 'terraform' });
    await page.goto(`${ui.url}/organizations/${scenario.org}/varsets`);
    await heading(page, `Variable sets of ${scenario.org}`);
    await page.getByRole('list', { name: 'Variable sets' }).getByRole('link', { name: 'short-lived' }).waitFor();
    // This load asks (an answer to the sign-in's load may still arrive too); the pages it goes on to ask no more.
    for (let tries = 0; tries < 50 && trailAsked.length === 0; tries++) await page.waitForTimeout(100);
    await page.waitForTimeout(300);
    trailAsked.length = 0;
    await page.getByRole('list', { name: 'Variable sets' }).getByRole('link', { name: 'short-lived' }).click();
    await heading(page, 'short-lived');
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Workspaces' }).click();
    await heading(page, /Workspaces/);
    await page.goBack();
    await heading(page, 'short-lived');
    assert.deepEqual(trailAsked, []);

    await page.getByRole('button', { name: 'Delete a' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete variable a?' });
    await dialog.getByText('No workspace affected').waitFor();
    await dialog.getByRole('button', { name: 'Delete variable' }).click();
    await statusSays(page, 'Variable a deleted');
    await page.getByRole('button', { name: 'Delete b' }).waitFor();
    await page.waitForTimeout(300);

    await page.goto(`${ui.url}/api/docs`);
    await page.waitForLoadState('load');
    await page.locator('.swagger-ui').first().waitFor();
    assert.deepEqual(
      missing.filter((url) => !url.includes('/organization/audit-trail')),
      [],
    );
  });

  it('logged no script error', () => {
    assert.deepEqual(scriptErrors, []);
  });
});
