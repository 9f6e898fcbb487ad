import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { listVersions, varsPath } from './support/factories/varsets.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';
import {
  closeSignedInUi,
  fieldError,
  heading,
  openSignedInUi,
  statusSays,
  type Scenario,
  type UiServer,
} from './support/ui.js';

/**
 * A set's variables edited as a grid: rows pasted from a .env file, one preview of all of them,
 * one save that makes one version; a refused row is shown at its field, and nothing is written.
 */
describe(`editing a set's variables as a grid, in Chromium (${storeKind})`, () => {
  let ui: UiServer;
  let browser: Browser;
  let page: Page;
  let scenario: Scenario;
  const scriptErrors: string[] = [];

  before(async () => {
    ({ browser, ui, page, scenario } = await openSignedInUi(scriptErrors, { expectedStatuses: [422] }));
  });
  after(() => closeSignedInUi({ browser, ui }));

  const variables = async (setId: string) => {
    const res = await ui.admin.get(varsPath(setId));
    expectStatus(res, 200);
    return Object.fromEntries(res.body.data.map((v: any) => [v.attributes.key, v.attributes]));
  };
  /** The set's page in grid mode, once the grid shows its first row (the variable `firstKey`). */
  const openGrid = async (setId: string, firstKey: string) => {
    await page.goto(`${ui.url}/varsets/${setId}`);
    await heading(page, 'defaults');
    await page.getByRole('button', { name: 'Edit as grid' }).click();
    const grid = page.getByRole('form', { name: 'Edit variables as a grid' });
    await grid.getByLabel(`Key of row 1 (${firstKey})`).waitFor();
    return grid;
  };

  it('pastes a .env of 5 lines, previews them once and saves them as one version', async () => {
    const setId = scenario.defaultsSetId;
    const versionsBefore = await listVersions(ui.admin, setId);
    const grid = await openGrid(setId, 'instance_type');
    await grid
      .getByLabel('Text to paste')
      .fill(
        [
          '# pasted from .env',
          'export DB_HOST=db.internal',
          'DB_PORT=5432',
          'GREETING="hello world"',
          "QUOTED='single # not a comment'",
          'EMPTY_ONE=',
          'this line is not a variable',
        ].join('\n'),
      );
    await grid.getByRole('button', { name: 'Add pasted rows' }).click();
    assert.match(
      (await grid.getByRole('alert').textContent()) ?? '',
      /One line could not be read.*Line 7: no "=": not KEY=value/,
    );
    assert.equal(await grid.getByLabel('Value of row 5 (GREETING)').inputValue(), 'hello world');
    assert.equal(await grid.getByLabel('Category of row 5 (GREETING)').inputValue(), 'env');

    await grid.getByRole('button', { name: 'Review changes (5)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save 5 changes to the variables?' });
    await dialog.getByText(/No workspace affected/).waitFor();
    assert.equal((await listVersions(ui.admin, setId)).length, versionsBefore.length, 'the preview wrote nothing');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await statusSays(page, `Variables saved as version ${versionsBefore.length + 1}`);
    // The write made the set's newest version: its message offers Undo, as every write to a set's does.
    await page.getByRole('button', { name: 'Undo' }).waitFor();

    const versions = await listVersions(ui.admin, setId);
    assert.equal(versions.length, versionsBefore.length + 1, 'exactly one new version');
    const added = versions[0].attributes.changes.map((c: any) => `${c.action} ${c.key} ${c.category}`);
    assert.deepEqual(added.sort(), [
      'added DB_HOST env',
      'added DB_PORT env',
      'added EMPTY_ONE env',
      'added GREETING env',
      'added QUOTED env',
    ]);
    const now = await variables(setId);
    assert.equal(now.QUOTED.value, 'single # not a comment');
    assert.equal(now.DB_HOST.value, 'db.internal');
    await page.getByRole('button', { name: 'Edit as grid' }).waitFor();
    assert.deepEqual(scriptErrors, []);
  });

  it('shows a refused row at its field, focused, and writes nothing', async () => {
    const setId = scenario.defaultsSetId;
    const versionsBefore = await listVersions(ui.admin, setId);
    const grid = await openGrid(setId, 'DB_HOST');
    await grid.getByLabel('Value of row 1 (DB_HOST)').fill('db.example');
    await grid.getByRole('button', { name: 'Add a row' }).click();
    const rows = await grid.locator('tbody tr').count();
    const key = grid.getByLabel(`Key of row ${rows}`, { exact: true });
    await key.fill('region');
    await grid.getByLabel(`Key of row ${rows} (region)`).waitFor();
    await grid.getByRole('button', { name: 'Review changes (2)' }).click();
    const field = grid.getByLabel(`Key of row ${rows} (region)`);
    assert.match(await fieldError(field), /Key has already been taken/);
    assert.equal(await field.evaluate((el) => el === document.activeElement), true, 'focus is on the invalid field');
    assert.equal((await listVersions(ui.admin, setId)).length, versionsBefore.length);
    assert.equal((await variables(setId)).DB_HOST.value, 'db.internal');

    // The row fixed, the same review saves both rows as one version.
    await field.fill('zone');
    await grid.getByRole('button', { name: 'Review changes (2)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save 2 changes to the variables?' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await statusSays(page, `Variables saved as version ${versionsBefore.length + 1}`);
    assert.equal((await listVersions(ui.admin, setId)).length, versionsBefore.length + 1);
    assert.equal((await variables(setId)).DB_HOST.value, 'db.example');
    assert.deepEqual(scriptErrors, []);
  });
});
