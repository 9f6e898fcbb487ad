import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { teamWithToken } from './support/factories/access.js';
import { createVar, createVarset, listVersions } from './support/factories/varsets.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';
import {
  closeSignedInUi,
  confirmImpact,
  focused,
  heading,
  openSignedInUi,
  signIn,
  statusSays,
  tabTo,
  watchPage,
  type Scenario,
  type UiServer,
} from './support/ui.js';

/** Undo in the message of a write, and restoring a deleted set, with the keyboard alone where a person would. */

const text = async (locator: ReturnType<Page['getByRole']>) =>
  ((await locator.textContent()) ?? '').replace(/\s+/g, ' ');

const newestNumber = async (ui: UiServer, setId: string): Promise<number> =>
  (await listVersions(ui.admin, setId))[0].attributes.number;

describe(`Undo after a write, in Chromium (${storeKind})`, () => {
  let ui: UiServer;
  let browser: Browser;
  let page: Page;
  let scenario: Scenario;
  const ids: Record<string, string> = {};
  const scriptErrors: string[] = [];

  before(async () => {
    ({ browser, ui, page, scenario } = await openSignedInUi(scriptErrors, {
      expectedStatuses: [401, 404, 409, 422],
      seed: async (ui, scenario) => {
        const retiring = await createVarset(ui.admin, scenario.org, {
          attributes: { name: 'retiring' },
          workspaces: [scenario.webWorkspaceId],
          vars: [{ key: 'tier', value: 'gold' }],
        });
        ids.retiring = retiring.id;
      },
    }));
  });

  after(() => closeSignedInUi({ browser, ui }));

  it('walks a keyboard-only user through adding a variable, confirming its preview, undoing it and restoring a deleted set', async () => {
    const globals = scenario.globalsSetId;
    const before = await newestNumber(ui, globals);

    // From the sets page, to the set, into the form to add a variable: Tab, typing, Enter.
    await tabTo(page, 'globals');
    await page.keyboard.press('Enter');
    await heading(page, 'globals');
    await tabTo(page, 'Key');
    await page.keyboard.type('colour');
    await page.keyboard.press('Tab');
    await page.keyboard.type('blue');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    const preview = page.getByRole('dialog', { name: 'Add variable colour?' });
    await preview.getByText('2 workspaces affected').waitFor();
    assert.deepEqual(await focused(page), { tag: 'button', name: 'Confirm', inDialog: true });
    await page.keyboard.press('Enter');
    await preview.waitFor({ state: 'hidden' });
    await statusSays(page, 'Variable colour added');
    assert.equal(await newestNumber(ui, globals), before + 1);

    // Undo, back up the page from the form: its dialog says what undoing changes, and opens on Cancel.
    await tabTo(page, 'Undo', 'Shift+Tab');
    await page.keyboard.press('Enter');
    const undo = page.getByRole('dialog', { name: `Undo: restore globals as it was at version ${before}?` });
    const changes = undo.getByRole('list', { name: 'What restoring changes' });
    await changes.waitFor();
    assert.match(await text(changes), /Variable removed: colour \(terraform\) = "blue"/);
    // What the workspaces stop getting, as the save's preview said what they would get.
    await undo.getByText('2 workspaces affected').waitFor();
    const stops = undo.getByRole('list', { name: 'Affected workspaces' });
    assert.deepEqual(await stops.locator(':scope > li > a').allTextContents(), ['api', 'web']);
    assert.match(await text(stops), /stops getting colour \(was "blue", from set globals\)/);
    assert.deepEqual(await focused(page), { tag: 'button', name: 'Cancel', inDialog: true });
    await page.keyboard.press('Tab');
    assert.deepEqual(await focused(page), { tag: 'button', name: 'Confirm', inDialog: true });
    await page.keyboard.press('Space');
    await undo.waitFor({ state: 'hidden' });
    await statusSays(page, `Undone: globals is again as it was at version ${before} (as version ${before + 2})`);
    assert.deepEqual(await focused(page), { tag: 'h1', name: 'globals', inDialog: false });
    const vars = await ui.admin.get(`/api/v2/varsets/${globals}/relationships/vars`);
    assert.deepEqual(vars.body.data.map((v: any) => v.attributes.key).sort(), ['TF_LOG', 'owner']);
    const versions = await listVersions(ui.admin, globals);
    assert.equal(versions[0].attributes.action, 'rollback');
    assert.equal(versions[0].attributes['rolled-back-to'], before);

    // A set deleted through its dialog, then restored from the deleted sets, which names its workspace.
    await tabTo(page, 'Variable sets');
    await page.keyboard.press('Enter');
    await heading(page, `Variable sets of ${scenario.org}`);
    await tabTo(page, 'retiring');
    await page.keyboard.press('Enter');
    await heading(page, 'retiring');
    await tabTo(page, 'Delete set');
    await page.keyboard.press('Enter');
    const deletion = page.getByRole('dialog', { name: 'Delete retiring?' });
    await deletion.waitFor();
    assert.deepEqual(await focused(page), { tag: 'button', name: 'Cancel', inDialog: true });
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await heading(page, `Variable sets of ${scenario.org}`);
    await statusSays(page, 'Set retiring deleted');
    expectStatus(await ui.admin.get(`/api/v2/varsets/${ids.retiring}`), 404);

    await tabTo(page, 'Deleted sets');
    await page.keyboard.press('Enter');
    await heading(page, `Deleted sets of ${scenario.org}`);
    await tabTo(page, 'Restore retiring');
    await page.keyboard.press('Enter');
    const restore = page.getByRole('dialog', { name: 'Restore retiring as it was at version 1?' });
    const restoring = restore.getByRole('list', { name: 'What restoring changes' });
    await restoring.waitFor();
    assert.match(await text(restoring), /Variable added: tier \(terraform\) = "gold"/);
    // The workspace it reaches again, by name and linked, as a save's preview lists it.
    const affected = restore.getByRole('list', { name: 'Affected workspaces' });
    await affected.getByRole('link', { name: 'web' }).waitFor();
    assert.equal(
      await affected.getByRole('link', { name: 'web' }).getAttribute('href'),
      `/workspaces/${scenario.webWorkspaceId}`,
    );
    assert.deepEqual(await focused(page), { tag: 'button', name: 'Cancel', inDialog: true });
    await tabTo(page, 'Confirm');
    await page.keyboard.press('Enter');
    await restore.waitFor({ state: 'hidden' });
    await statusSays(page, 'Restored version 1 as version 3');
    const restored = await ui.admin.get(`/api/v2/varsets/${ids.retiring}?include=vars`);
    expectStatus(restored, 200);
    assert.equal(restored.body.data.relationships.workspaces.data[0].id, scenario.webWorkspaceId);
  });

  it("undoes a set's deletion from its message, which brings the user to the set restored", async () => {
    const doomed = await createVarset(ui.admin, scenario.org, { attributes: { name: 'doomed' } });
    await createVar(ui.admin, doomed.id, { key: 'zone', value: 'a', category: 'terraform' });
    await page.goto(`${ui.url}/varsets/${doomed.id}`);
    await heading(page, 'doomed');
    await page.getByRole('button', { name: 'Delete set' }).click();
    await page.getByRole('dialog', { name: 'Delete doomed?' }).getByRole('button', { name: 'Delete set' }).click();
    await statusSays(page, 'Set doomed deleted');
    await page.getByRole('button', { name: 'Undo' }).click();
    const undo = page.getByRole('dialog', { name: 'Undo: restore doomed as it was at version 2?' });
    await undo.getByRole('list', { name: 'What restoring changes' }).waitFor();
    await undo.getByRole('button', { name: 'Confirm' }).click();
    await heading(page, 'doomed');
    assert.equal(new URL(page.url()).pathname, `/varsets/${doomed.id}`);
    await statusSays(page, 'Undone: doomed is again as it was at version 2 (as version 4)');
    expectStatus(await ui.admin.get(`/api/v2/varsets/${doomed.id}`), 200);
  });

  it("undoes a variable's change and deletion and a set's edit, each through the restore dialog", async () => {
    const set = await createVarset(ui.admin, scenario.org, {
      attributes: { name: 'editable', description: 'first' },
      workspaces: [scenario.webWorkspaceId],
      vars: [{ key: 'size', value: 's' }],
    });
    const sizeOf = async () =>
      (await ui.admin.get(`/api/v2/varsets/${set.id}/relationships/vars`)).body.data.find(
        (v: any) => v.attributes.key === 'size',
      )?.attributes.value;
    const undoing = async (change: RegExp) => {
      await page.getByRole('button', { name: 'Undo' }).click();
      const title = /^Undo: restore editable as it was at version \d+\?$/;
      const changes = page.getByRole('dialog', { name: title }).getByRole('list', { name: 'What restoring changes' });
      await changes.waitFor();
      assert.match(await text(changes), change);
      await confirmImpact(page, title);
      await page
        .getByRole('status')
        .filter({ hasText: /^Undone: editable is again as it was at version \d+/ })
        .waitFor();
    };
    await page.goto(`${ui.url}/varsets/${set.id}`);
    await heading(page, 'editable');

    await page.getByRole('button', { name: 'Edit size' }).click();
    const edit = page.getByRole('form', { name: 'Edit variable size' });
    await edit.getByLabel('Value', { exact: true }).fill('m');
    await edit.getByRole('button', { name: 'Save variable' }).click();
    await confirmImpact(page, 'Save variable size?');
    await statusSays(page, 'Saved: size changed (value)');
    assert.equal(await sizeOf(), 'm');
    await undoing(/Variable size \(terraform\): value: "m" → "s"/);
    assert.equal(await sizeOf(), 's');

    await page.getByRole('button', { name: 'Delete size' }).click();
    await page
      .getByRole('dialog', { name: 'Delete variable size?' })
      .getByRole('button', { name: 'Delete variable' })
      .click();
    await statusSays(page, 'Variable size deleted');
    assert.equal(await sizeOf(), undefined);
    await undoing(/Variable added: size \(terraform\) = "s"/);
    assert.equal(await sizeOf(), 's');

    await page.goto(`${ui.url}/varsets/${set.id}/edit`);
    await heading(page, 'Edit editable');
    await page.getByLabel('Description', { exact: true }).fill('second');
    await page.getByRole('button', { name: 'Save set' }).click();
    await confirmImpact(page, 'Save editable?');
    await heading(page, 'editable');
    await statusSays(page, 'Saved: description changed');
    await undoing(/description: "second" → "first"/);
    assert.equal((await ui.admin.get(`/api/v2/varsets/${set.id}`)).body.data.attributes.description, 'first');
  });

  it('refuses to undo once the set changed since: when Undo is pressed, on Confirm, and in between through the API', async () => {
    const defaults = scenario.defaultsSetId;
    await page.goto(`${ui.url}/varsets/${defaults}`);
    await heading(page, 'defaults');
    const add = page.getByRole('form', { name: 'Add a variable' });
    await add.getByLabel('Key', { exact: true }).fill('first');
    await add.getByLabel('Value', { exact: true }).fill('1');
    await add.getByRole('button', { name: 'Add variable' }).click();
    await confirmImpact(page, 'Add variable first?');
    await statusSays(page, 'Variable first added');
    // Someone else's change, after this one.
    await createVar(ui.admin, defaults, { key: 'theirs', value: 'x', category: 'terraform' });
    const newest = await newestNumber(ui, defaults);
    await page.getByRole('button', { name: 'Undo' }).click();
    const refusal = page.getByRole('alert');
    await refusal.filter({ hasText: 'Not undone' }).waitFor();
    assert.match(
      await text(refusal),
      new RegExp(
        `Not undone: defaults changed since, as version ${newest} by .*Undoing would take back that change too`,
      ),
    );
    assert.equal(await page.getByRole('button', { name: 'Undo' }).count(), 0);
    assert.equal(await page.getByRole('dialog').count(), 0);
    assert.equal(await focused(page).then((f) => f.tag), 'span');

    // Unchanged when Undo opens its dialog, changed before Confirm: the rollback is not made.
    await add.getByLabel('Key', { exact: true }).fill('second');
    await add.getByLabel('Value', { exact: true }).fill('2');
    await add.getByRole('button', { name: 'Add variable' }).click();
    await confirmImpact(page, 'Add variable second?');
    await statusSays(page, 'Variable second added');
    await page.getByRole('button', { name: 'Undo' }).click();
    const undo = page.getByRole('dialog', { name: /^Undo: restore defaults/ });
    await undo.getByRole('list', { name: 'What restoring changes' }).waitFor();
    await createVar(ui.admin, defaults, { key: 'theirs_too', value: 'y', category: 'terraform' });
    const last = await newestNumber(ui, defaults);
    await undo.getByRole('button', { name: 'Confirm' }).click();
    await undo
      .getByRole('alert')
      .filter({ hasText: `changed since, as version ${last}` })
      .waitFor();
    assert.equal(await newestNumber(ui, defaults), last);
    const keys = (await ui.admin.get(`/api/v2/varsets/${defaults}/relationships/vars`)).body.data.map(
      (v: any) => v.attributes.key,
    );
    for (const key of ['first', 'second', 'theirs', 'theirs_too']) assert.ok(keys.includes(key), key);
    await undo.getByRole('button', { name: 'Cancel' }).click();

    // A write landing between that last check and the rollback: the API's own condition refuses it.
    await add.getByLabel('Key', { exact: true }).fill('third');
    await add.getByLabel('Value', { exact: true }).fill('3');
    await add.getByRole('button', { name: 'Add variable' }).click();
    await confirmImpact(page, 'Add variable third?');
    await statusSays(page, 'Variable third added');
    await page.getByRole('button', { name: 'Undo' }).click();
    await undo.getByRole('list', { name: 'What restoring changes' }).waitFor();
    await page.route(/\/actions\/rollback\?.*if-newest-version=/, async (route) => {
      await createVar(ui.admin, defaults, { key: 'in_between', value: 'z', category: 'terraform' });
      await route.continue();
    });
    await undo.getByRole('button', { name: 'Confirm' }).click();
    await undo.getByRole('alert').filter({ hasText: 'the set changed since' }).waitFor();
    await page.unroute(/\/actions\/rollback/);
    const [newestNow] = await listVersions(ui.admin, defaults);
    assert.equal(newestNow.attributes.action, 'update', 'no rollback was made');
    await undo.getByRole('button', { name: 'Cancel' }).click();
  });

  it("offers Undo of a variable's write to a team that may change the set, but not of a deletion it may not restore", async () => {
    const kept = await createVarset(ui.admin, scenario.org, { attributes: { name: 'kept' } });
    const writer = await teamWithToken(ui.admin, scenario.org, {
      'organization-access': { 'manage-workspaces': true },
    });
    const other = watchPage(await (await browser.newContext()).newPage(), scriptErrors);
    await signIn(other, ui.url, writer.token);
    await heading(other, `Variable sets of ${scenario.org}`);
    await other.goto(`${ui.url}/varsets/${kept.id}`);
    await heading(other, 'kept');
    const add = other.getByRole('form', { name: 'Add a variable' });
    await add.getByLabel('Key', { exact: true }).fill('mine');
    await add.getByRole('button', { name: 'Add variable' }).click();
    await confirmImpact(other, 'Add variable mine?');
    await statusSays(other, 'Variable mine added');
    await other.getByRole('button', { name: 'Undo' }).waitFor();

    await other.getByRole('button', { name: 'Delete set' }).click();
    await other.getByRole('dialog', { name: 'Delete kept?' }).getByRole('button', { name: 'Delete set' }).click();
    await statusSays(other, "Set kept deleted: only the organization's owners can restore it");
    assert.equal(await other.getByRole('button', { name: 'Undo' }).count(), 0);
    assert.equal(await other.getByRole('link', { name: /Undo/ }).count(), 0);
    await other.context().close();
  });

  it('logged no script error', () => {
    assert.deepEqual(scriptErrors, []);
  });
});
