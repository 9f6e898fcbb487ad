import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Locator, Page } from 'playwright-core';
import { createVar, createVarset } from './support/factories/varsets.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';
import {
  fieldError,
  heading,
  statusSays,
  type Scenario,
  type UiServer,
  openSignedInUi,
  closeSignedInUi,
} from './support/ui.js';

/**
 * Saving a set, or a set's variable, first shows what the write would change (the API's impact
 * preview) in a dialog; only Confirm writes. A preview the API refuses is shown at its field.
 */

/** Each affected workspace's line in the dialog, by its name. */
async function impactLines(dialog: Locator): Promise<Map<string, string>> {
  const items = dialog.getByRole('list', { name: 'Affected workspaces' }).locator(':scope > li');
  const lines = new Map<string, string>();
  for (const item of await items.all())
    lines.set((await item.getByRole('link').first().textContent()) ?? '', (await item.textContent()) ?? '');
  return lines;
}

describe(`the impact preview before a save, in Chromium (${storeKind})`, () => {
  let ui: UiServer;
  let browser: Browser;
  let page: Page;
  let scenario: Scenario;
  let apiWorkspaceId: string;
  const scriptErrors: string[] = [];

  /** The global set's variable `key` as the API holds it. */
  const globalValue = async (key: string) => {
    const vars = await ui.admin.get(`/api/v2/varsets/${scenario.globalsSetId}/relationships/vars`);
    expectStatus(vars, 200);
    return vars.body.data.find((v: any) => v.attributes.key === key)?.attributes.value;
  };

  before(async () => {
    ({ browser, ui, page, scenario } = await openSignedInUi(scriptErrors, {
      expectedStatuses: [404, 422],
      seed: async (ui, scenario) => {
        const workspaces = await ui.admin.get(`/api/v2/organizations/${scenario.org}/workspaces`);
        apiWorkspaceId = workspaces.body.data.find((w: any) => w.attributes.name === 'api').id;
        // "api" holds its own owner: the global set's owner does not reach it.
        expectStatus(
          await ui.admin.post(`/api/v2/workspaces/${apiWorkspaceId}/vars`, {
            data: { type: 'vars', attributes: { key: 'owner', value: 'api-team', category: 'terraform' } },
          }),
          201,
        );
      },
    }));
  });

  after(() => closeSignedInUi({ browser, ui }));

  it("lists the workspaces a global set's value reaches, before and after, and writes only on Confirm", async () => {
    await page.goto(`${ui.url}/varsets/${scenario.globalsSetId}`);
    await heading(page, 'globals');
    await page.getByRole('button', { name: 'Edit TF_LOG' }).click();
    const edit = page.getByRole('form', { name: 'Edit variable TF_LOG' });
    await edit.getByLabel('Value', { exact: true }).fill('debug');
    await edit.getByRole('button', { name: 'Save variable' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save variable TF_LOG?' });
    await dialog.getByText('2 workspaces affected').waitFor();
    assert.match((await dialog.textContent()) ?? '', /The set reaches 2 workspaces, before and after\./);
    const lines = await impactLines(dialog);
    assert.deepEqual([...lines.keys()], ['api', 'web']);
    for (const line of lines.values()) assert.match(line, /TF_LOG \(env\): "info" → "debug"/);
    assert.equal(
      await dialog.getByRole('link', { name: 'web' }).getAttribute('href'),
      `/workspaces/${scenario.webWorkspaceId}`,
    );
    // Nothing is written while the dialog is open, nor after Cancel.
    assert.equal(await globalValue('TF_LOG'), 'info');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await edit.getByLabel('Value', { exact: true }).inputValue(), 'debug');
    assert.equal(await globalValue('TF_LOG'), 'info');

    await edit.getByRole('button', { name: 'Save variable' }).click();
    await dialog.getByText('2 workspaces affected').waitFor();
    assert.equal(await globalValue('TF_LOG'), 'info');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await statusSays(page, 'Saved: TF_LOG changed (value)');
    assert.equal(await globalValue('TF_LOG'), 'debug');
  });

  it("says which workspace's own value a priority set would now override, and Cancel writes nothing", async () => {
    await page.goto(`${ui.url}/varsets/${scenario.globalsSetId}/edit`);
    await heading(page, 'Edit globals');
    await page.getByLabel('Priority: its values win').check();
    await page.getByRole('button', { name: 'Save set' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save globals?' });
    // "web" gets the same values from a higher level; "api" loses its own owner to the set.
    await dialog.getByText('2 workspaces affected').waitFor();
    const lines = await impactLines(dialog);
    assert.deepEqual([...lines.keys()], ['api', 'web']);
    assert.match(
      lines.get('api')!,
      /owner: "api-team" → "platform" \(api's own value of owner is now overridden by set globals\)/,
    );
    assert.match(lines.get('web')!, /owner: from set globals, now at level 1 instead of 13/);
    assert.equal(
      await dialog.getByRole('link', { name: 'globals' }).first().getAttribute('href'),
      `/varsets/${scenario.globalsSetId}`,
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal((await ui.admin.get(`/api/v2/varsets/${scenario.globalsSetId}`)).body.data.attributes.priority, false);
  });

  it('says plainly that a save affects no workspace, and still makes it on Confirm', async () => {
    await page.goto(`${ui.url}/varsets/${scenario.defaultsSetId}/edit`);
    await heading(page, 'Edit defaults');
    await page.getByLabel('Description', { exact: true }).fill('Where teams start');
    await page.getByRole('button', { name: 'Save set' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save defaults?' });
    await dialog.getByText('No workspace affected').waitFor();
    assert.match(
      (await dialog.textContent()) ?? '',
      /no run would get another value\. The set reaches 0 workspaces, before and after\./,
    );
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await heading(page, 'defaults');
    await statusSays(page, 'Saved: description changed');
    assert.equal(
      (await ui.admin.get(`/api/v2/varsets/${scenario.defaultsSetId}`)).body.data.attributes.description,
      'Where teams start',
    );
  });

  it('never shows a sensitive value, and previews a deletion in its dialog', async () => {
    await page.goto(`${ui.url}/varsets/${scenario.globalsSetId}`);
    await heading(page, 'globals');
    const add = page.getByRole('form', { name: 'Add a variable' });
    await add.getByLabel('Key', { exact: true }).fill('token');
    await add.getByLabel('Value', { exact: true }).fill('very-secret-value');
    await add.getByLabel('Sensitive (write-only)').check();
    await add.getByRole('button', { name: 'Add variable' }).click();
    const adding = page.getByRole('dialog', { name: 'Add variable token?' });
    await adding.getByText('2 workspaces affected').waitFor();
    const text = (await adding.textContent()) ?? '';
    assert.match(text, /gets token \(sensitive\), from set globals/);
    assert.doesNotMatch(text, /very-secret-value/);
    await adding.getByRole('button', { name: 'Confirm' }).click();
    await statusSays(page, 'Variable token added');

    await page.getByRole('button', { name: 'Delete token' }).click();
    const deleting = page.getByRole('dialog', { name: 'Delete variable token?' });
    await deleting.getByText('2 workspaces affected').waitFor();
    for (const line of (await impactLines(deleting)).values())
      assert.match(line, /stops getting token \(was \(sensitive\), from set globals\)/);
    await deleting.getByRole('button', { name: 'Cancel' }).click();
    await deleting.waitFor({ state: 'hidden' });
    assert.equal(await globalValue('token'), null);
    await page.getByRole('button', { name: 'Delete token' }).click();
    await deleting.getByText('2 workspaces affected').waitFor();
    await deleting.getByRole('button', { name: 'Delete variable' }).click();
    await statusSays(page, 'Variable token deleted');
    assert.equal(await globalValue('token'), undefined);
  });

  it("shows the global rule's 422 at its field, with no dialog and nothing written", async () => {
    const other = await createVarset(ui.admin, scenario.org, { attributes: { name: 'also-global', global: true } });
    await page.goto(`${ui.url}/varsets/${other.id}`);
    await heading(page, 'also-global');
    const add = page.getByRole('form', { name: 'Add a variable' });
    await add.getByLabel('Key', { exact: true }).fill('owner');
    await add.getByLabel('Value', { exact: true }).fill('someone else');
    await add.getByRole('button', { name: 'Add variable' }).click();
    assert.match(
      await fieldError(add.getByLabel('Key', { exact: true })),
      /conflicts with the global variable set "globals"/,
    );
    assert.equal(await page.getByRole('dialog').count(), 0);
    assert.equal((await ui.admin.get(`/api/v2/varsets/${other.id}/relationships/vars`)).body.data.length, 0);

    // A set holding owner, made global in its form: refused before anything is written.
    const scoped = await createVarset(ui.admin, scenario.org, { attributes: { name: 'scoped' } });
    await createVar(ui.admin, scoped.id, { key: 'owner', value: 'scoped-team', category: 'terraform' });
    await page.goto(`${ui.url}/varsets/${scoped.id}/edit`);
    await heading(page, 'Edit scoped');
    await page.getByLabel('Global: every workspace of the organization').check();
    await page.getByRole('button', { name: 'Save set' }).click();
    assert.match(await fieldError(page.getByRole('group', { name: 'Scope' })), /global variable set "globals"/);
    assert.equal(await page.getByRole('dialog').count(), 0);
    assert.equal((await ui.admin.get(`/api/v2/varsets/${scoped.id}`)).body.data.attributes.global, false);
  });

  it('previews a new set: the workspaces it would reach and the values they would get', async () => {
    await page.goto(`${ui.url}/organizations/${scenario.org}/varsets/new`);
    await heading(page, /New variable set/);
    await page.getByLabel('Name', { exact: true }).fill('edge');
    await page.getByLabel('Chosen projects and workspaces').check();
    await page.getByLabel('Search workspaces').fill('we');
    await page.getByRole('button', { name: 'Add web' }).click();
    await page.getByRole('list', { name: 'Chosen workspaces' }).getByText('web').waitFor();
    const addVariable = page.getByRole('button', { name: 'Add a variable to the set' });
    await addVariable.click();
    await addVariable.click();
    const variable = (n: number) => page.getByRole('group', { name: `Variable ${n}`, exact: true });
    await variable(1).getByLabel('Key', { exact: true }).fill('owner');
    await variable(1).getByLabel('Value', { exact: true }).fill('edge-team');
    await variable(2).getByLabel('Key', { exact: true }).fill('zone');
    await variable(2).getByLabel('Value', { exact: true }).fill('a');
    await page.getByRole('button', { name: 'Create set' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create set edge?' });
    await dialog.getByText('1 workspace affected').waitFor();
    assert.match((await dialog.textContent()) ?? '', /The set reaches 0 workspaces before, 1 after\./);
    const lines = await impactLines(dialog);
    assert.deepEqual([...lines.keys()], ['web']);
    assert.match(lines.get('web')!, /owner: "platform" → "edge-team" \(now from set edge instead of set globals\)/);
    assert.match(lines.get('web')!, /gets zone = "a", from set edge/);
    // The new set has no page yet: its name is not a link.
    assert.equal(await dialog.getByRole('link', { name: 'edge' }).count(), 0);
    assert.equal((await ui.admin.get(`/api/v2/organizations/${scenario.org}/varsets?q=edge`)).body.data.length, 0);

    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await heading(page, 'edge');
    await statusSays(page, 'Set edge created with 2 variables');
    assert.equal((await ui.admin.get(`/api/v2/organizations/${scenario.org}/varsets?q=edge`)).body.data.length, 1);
  });

  it('logged no script error', () => {
    assert.deepEqual(scriptErrors, []);
  });
});
