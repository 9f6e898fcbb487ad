import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { createVar, createVarset } from './support/factories/varsets.js';
import { storeKind } from './support/store.js';
import {
  closeSignedInUi,
  focused,
  heading,
  openSignedInUi,
  statusSays,
  type Scenario,
  type UiServer,
} from './support/ui.js';

/** Dialogs and forms with the keyboard alone: where focus goes, and that Enter never loses what was typed. */

describe(`dialogs and forms with the keyboard, in Chromium (${storeKind})`, () => {
  let ui: UiServer;
  let browser: Browser;
  let page: Page;
  let scenario: Scenario;
  const scriptErrors: string[] = [];

  before(async () => {
    ({ browser, ui, page, scenario } = await openSignedInUi(scriptErrors, { expectedStatuses: [404, 422] }));
  });

  after(() => closeSignedInUi({ browser, ui }));

  it("opens a save's preview on Confirm, keeps Tab inside, returns focus on Escape, and saves on a second Enter", async () => {
    await page.goto(`${ui.url}/varsets/${scenario.globalsSetId}`);
    await heading(page, 'globals');
    const add = page.getByRole('form', { name: 'Add a variable' });
    await add.getByLabel('Value', { exact: true }).fill('blue');
    await add.getByLabel('Key', { exact: true }).fill('colour');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add variable colour?' });
    await dialog.getByText('2 workspaces affected').waitFor();
    assert.deepEqual(await focused(page), { tag: 'button', name: 'Confirm', inDialog: true });
    // The preview links each workspace: Tab goes round them and the buttons, never out of the dialog.
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      assert.equal((await focused(page)).inDialog, true, `Tab ${i + 1} left the dialog`);
    }
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Shift+Tab');
      assert.equal((await focused(page)).inDialog, true, `Shift+Tab ${i + 1} left the dialog`);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.equal((await focused(page)).name, 'Key');
    assert.equal(await add.getByLabel('Key', { exact: true }).inputValue(), 'colour');

    await page.keyboard.press('Enter');
    await dialog.getByText('2 workspaces affected').waitFor();
    await page.keyboard.press('Enter');
    await statusSays(page, 'Variable colour added');
    assert.equal(new URL(page.url()).pathname, `/varsets/${scenario.globalsSetId}`);
    const vars = await ui.admin.get(`/api/v2/varsets/${scenario.globalsSetId}/relationships/vars`);
    assert.equal(vars.body.data.find((v: any) => v.attributes.key === 'colour')?.attributes.value, 'blue');
  });

  it("opens the set form's preview on Confirm too", async () => {
    await page.goto(`${ui.url}/varsets/${scenario.globalsSetId}/edit`);
    await heading(page, 'Edit globals');
    await page.getByLabel('Description', { exact: true }).fill('Every workspace gets these');
    await page.getByLabel('Name', { exact: true }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Save globals?' });
    await dialog.getByText(/affected/).waitFor();
    assert.deepEqual(await focused(page), { tag: 'button', name: 'Confirm', inDialog: true });
    await page.keyboard.press('Enter');
    await heading(page, 'globals');
    await statusSays(page, 'Saved: description changed');
  });

  it('moves focus to the heading of a page that loads, and back to the Edit button when Escape closes an inline edit', async () => {
    await page.goto(`${ui.url}/varsets/${scenario.defaultsSetId}`);
    await heading(page, 'defaults');
    await page.waitForFunction(
      () => document.activeElement?.tagName === 'H1' && document.activeElement.textContent === 'defaults',
    );
    await page.getByRole('button', { name: 'Edit region' }).click();
    const edit = page.getByRole('form', { name: 'Edit variable region' });
    await edit.getByLabel('Value', { exact: true }).fill('eu');
    await page.keyboard.press('Escape');
    await edit.waitFor({ state: 'hidden' });
    assert.equal((await focused(page)).name, 'Edit region');
    const vars = await ui.admin.get(`/api/v2/varsets/${scenario.defaultsSetId}/relationships/vars`);
    assert.equal(vars.body.data.find((v: any) => v.attributes.key === 'region')?.attributes.value, 'us');
  });

  it("keeps focus in the variables' section after a deletion, not on the page", async () => {
    await page.goto(`${ui.url}/varsets/${scenario.defaultsSetId}`);
    await heading(page, 'defaults');
    await page.getByRole('button', { name: 'Delete instance_type' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete variable instance_type?' });
    await dialog.getByText('No workspace affected').waitFor();
    await dialog.getByRole('button', { name: 'Delete variable' }).click();
    await statusSays(page, 'Variable instance_type deleted');
    await page.waitForFunction(
      () => document.activeElement?.tagName === 'H2' && document.activeElement.textContent === 'Variables',
    );
  });

  it('focuses the first field a 422 marks, and forgets "already taken" once the name is changed', async () => {
    await page.goto(`${ui.url}/organizations/${scenario.org}/varsets/new`);
    await heading(page, /New variable set/);
    const name = page.getByLabel('Name', { exact: true });
    await name.fill('globals');
    await page.getByRole('button', { name: 'Create set' }).click();
    await name.and(page.locator('[aria-invalid="true"]')).waitFor();
    assert.equal((await focused(page)).name, 'Name');
    await page.getByText('Name has already been taken').waitFor();
    await page.keyboard.type('-2');
    await page.getByText('Name has already been taken').waitFor({ state: 'hidden' });
    assert.equal(await name.getAttribute('aria-invalid'), null);
  });

  it('shows the message of a write where the user is, and brings the row written into view', async () => {
    const long = await createVarset(ui.admin, scenario.org, { attributes: { name: 'long' } });
    for (let i = 10; i < 28; i++)
      await createVar(ui.admin, long.id, { key: `k${i}`, value: 'v', category: 'terraform' });
    await page.setViewportSize({ width: 1000, height: 600 });
    await page.goto(`${ui.url}/varsets/${long.id}`);
    await heading(page, 'long');
    const add = page.getByRole('form', { name: 'Add a variable' });
    await add.getByLabel('Key', { exact: true }).fill('a_first');
    await add.getByLabel('Value', { exact: true }).fill('1');
    await add.getByRole('button', { name: 'Add variable' }).click();
    await page.getByRole('dialog', { name: 'Add variable a_first?' }).getByRole('button', { name: 'Confirm' }).click();
    await statusSays(page, 'Variable a_first added');
    const inView = (selector: string) =>
      page.evaluate((s) => {
        const box = document.querySelector(s)!.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      }, selector);
    assert.equal(await inView('[role="status"]'), true, 'the message is out of view');
    await page.waitForFunction(() => {
      const box = document.querySelector('[data-variable="terraform:a_first"]')?.getBoundingClientRect();
      return box !== undefined && box.top >= 0 && box.bottom <= window.innerHeight;
    });
    await page.setViewportSize({ width: 1280, height: 720 });
  });

  it('asks before a link leaves a half-filled form, and stays with what was typed on Cancel', async () => {
    await page.goto(`${ui.url}/organizations/${scenario.org}/varsets/new`);
    await heading(page, /New variable set/);
    const workspacesLink = page
      .getByRole('navigation', { name: 'Organization' })
      .getByRole('link', { name: 'Workspaces' });
    // Untouched, it leaves without a question.
    await workspacesLink.click();
    await heading(page, /Workspaces/);
    await page.goBack();
    await heading(page, /New variable set/);
    await page.getByLabel('Name', { exact: true }).fill('half-done');
    const questions: string[] = [];
    page.once('dialog', (dialog) => (questions.push(dialog.message()), void dialog.dismiss()));
    await workspacesLink.click();
    await page.waitForTimeout(200);
    assert.deepEqual(questions, ['Leave this page? What you typed in its form is not saved.']);
    assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), 'half-done');
    page.once('dialog', (dialog) => void dialog.accept());
    await workspacesLink.click();
    await heading(page, /Workspaces/);
  });

  it('logged no script error', () => {
    assert.deepEqual(scriptErrors, []);
  });
});
