import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ownersTeam, teamToken, teamWithToken } from './support/factories/access.js';
import { createWorkspace } from './support/factories/organizations.js';
import { createRunOverHttp } from './support/factories/runs.js';
import { assign, createVarset, identifiers, listVersions } from './support/factories/varsets.js';
import { ADMIN_TOKEN, expectStatus } from './support/requests.js';
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

/**
 * A set's history in a real headless Chromium: its versions as a readable diff, restoring one
 * through the confirmation dialog, a read-only token's view, and a deleted set restored by the
 * organization's owners.
 */
describe(`the web UI's history of a set in Chromium (${storeKind})`, () => {
  let ui: UiServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let page: Page;
  let scenario: Scenario;
  let owners: string;
  let setId: string;
  const scriptErrors: string[] = [];

  /** A signed-in page of its own browser context, its script errors noted. */
  async function pageFor(token: string, url: string): Promise<Page> {
    const context = await browser.newContext();
    contexts.push(context);
    const opened = watchPage(await context.newPage(), scriptErrors);
    await signIn(opened, url, token);
    return opened;
  }
  const versionItem = (on: Page, n: number) =>
    on.getByRole('list', { name: 'Versions' }).getByRole('listitem', { name: `Version ${n}`, exact: true });
  const textOf = async (on: Page, n: number) => ((await versionItem(on, n).textContent()) ?? '').replace(/\s+/g, ' ');
  const apiVersions = (id: string) => listVersions(ui.admin, id);

  before(async () => {
    browser = await launchChromium();
    ui = await startUiServer();
    scenario = await seedScenario(ui.admin);
    owners = await teamToken(ui.admin, await ownersTeam(ui.admin, scenario.org), { description: 'CI' });
    // Version 1 creates the set; 2 changes its description; 3 a sensitive value; 4 a plain value; 5 assigns it to a project.
    const set = await createVarset(ui.admin, scenario.org, {
      attributes: { name: 'payments', description: 'first' },
      workspaces: [scenario.webWorkspaceId],
      vars: [
        { key: 'region', value: 'eu' },
        { key: 'api_key', value: 'first-secret', sensitive: true },
      ],
    });
    setId = set.id;
    const vars = (await ui.admin.get(`/api/v2/varsets/${setId}/relationships/vars`)).body.data as any[];
    const varId = (key: string) => vars.find((v) => v.attributes.key === key).id;
    const asOwners = { token: owners };
    expectStatus(
      await ui.admin.patch(
        `/api/v2/varsets/${setId}`,
        { data: { type: 'varsets', attributes: { description: 'Payments service' } } },
        asOwners,
      ),
      200,
    );
    expectStatus(
      await ui.admin.patch(`/api/v2/varsets/${setId}/relationships/vars/${varId('api_key')}`, {
        data: { type: 'vars', attributes: { value: 'rotated-secret' } },
      }),
      200,
    );
    expectStatus(
      await ui.admin.patch(`/api/v2/varsets/${setId}/relationships/vars/${varId('region')}`, {
        data: { type: 'vars', attributes: { value: 'us' } },
      }),
      200,
    );
    await assign(ui.admin, setId, 'projects', [scenario.coreProjectId]);
    assert.equal((await apiVersions(setId)).length, 5);
    page = await pageFor(ADMIN_TOKEN, ui.url);
    await heading(page, `Variable sets of ${scenario.org}`);
  });

  after(async () => {
    for (const context of contexts) await context.close();
    await (browser as Browser | undefined)?.close();
    await (ui as UiServer | undefined)?.stop();
  });

  it('shows who changed what and when, newest first: an update, values (a sensitive one only as changed), assignments by name', async () => {
    await page.goto(`${ui.url}/varsets/${setId}`);
    await heading(page, 'payments');
    const tabs = page.getByRole('navigation', { name: 'Variable set' });
    await tabs.getByRole('link', { name: 'History' }).click();
    await page.waitForURL(`${ui.url}/varsets/${setId}/history`);
    await heading(page, 'payments');
    // The overview's heading is the same: wait for the history itself before reading the tabs.
    await versionItem(page, 1).waitFor();
    await tabs.locator('a[aria-current="page"]').filter({ hasText: 'History' }).waitFor();
    assert.equal(await tabs.getByRole('link', { name: 'History' }).getAttribute('aria-current'), 'page');
    const items = page
      .getByRole('list', { name: 'Versions' })
      .getByRole('listitem')
      .filter({ has: page.locator('.card-head') });
    assert.deepEqual(await items.evaluateAll((lis) => lis.map((li) => li.getAttribute('aria-label'))), [
      'Version 5',
      'Version 4',
      'Version 3',
      'Version 2',
      'Version 1',
    ]);

    const api = await apiVersions(setId);
    const second = api.find((v) => v.attributes.number === 2).attributes;
    assert.match(await textOf(page, 2), /changed the set/);
    assert.match(await textOf(page, 2), /by team owners \(token "CI"\)/);
    assert.match(await textOf(page, 2), /description: "first" → "Payments service"/);
    const time = versionItem(page, 2).locator('time');
    assert.equal(await time.getAttribute('datetime'), second['created-at']);
    assert.equal(await time.getAttribute('title'), second['created-at']);
    assert.match((await time.textContent()) ?? '', /\d{4}/);

    assert.match(await textOf(page, 3), /Variable api_key \(terraform\): value changed \(sensitive\)/);
    assert.match(await textOf(page, 4), /Variable region \(terraform\): value: "eu" → "us"/);
    assert.match(await textOf(page, 1), /created the set/);
    assert.match(await textOf(page, 1), /Variable added: region \(terraform\) = "eu"/);
    assert.match(await textOf(page, 1), /Variable added: api_key \(terraform\) = \(sensitive\)/);
    assert.equal(
      await versionItem(page, 1).getByRole('link', { name: 'web' }).getAttribute('href'),
      `/workspaces/${scenario.webWorkspaceId}`,
    );
    assert.match(await textOf(page, 1), /Workspace web added/);
    assert.match(await textOf(page, 5), /Project core added/);
    assert.equal(
      await versionItem(page, 5).getByRole('link', { name: 'core' }).getAttribute('href'),
      `/projects/${scenario.coreProjectId}`,
    );
    assert.doesNotMatch(await page.content(), /first-secret|rotated-secret/);
    // The newest version is what the set is: there is nothing to restore from it.
    assert.match(await textOf(page, 5), /current/);
    assert.equal(await versionItem(page, 5).getByRole('button', { name: 'Restore this version' }).count(), 0);
    assert.equal(await versionItem(page, 4).getByRole('button', { name: 'Restore this version' }).count(), 1);
  });

  it("links the set's version an effective variable comes from to that version in the set's history", async () => {
    await page.goto(`${ui.url}/workspaces/${scenario.webWorkspaceId}`);
    await heading(page, 'Workspace web');
    const region = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^region / }) });
    const link = region.getByRole('link', { name: 'version 5', exact: true });
    assert.equal(await link.getAttribute('href'), `/varsets/${setId}/history?version=5`);
    await link.click();
    await heading(page, 'payments');
    await versionItem(page, 5).and(page.locator('.wanted')).waitFor();
  });

  it('restores a version through a dialog that lists what the restore changes; the set holds the values again, as a new version', async () => {
    await page.goto(`${ui.url}/varsets/${setId}/history`);
    await versionItem(page, 2).getByRole('button', { name: 'Restore this version' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore payments as it was at version 2?' });
    const listed = dialog.getByRole('list', { name: 'What restoring changes' });
    await listed.waitFor();
    const changes = ((await listed.textContent()) ?? '').replace(/\s+/g, ' ');
    assert.match(changes, /Variable api_key \(terraform\): value changed \(sensitive\)/);
    assert.match(changes, /Variable region \(terraform\): value: "us" → "eu"/);
    assert.match(changes, /Project core removed/);
    assert.equal(await listed.getByRole('listitem').count(), 3);
    // Cancelled, nothing changes.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal((await apiVersions(setId)).length, 5);

    await versionItem(page, 2).getByRole('button', { name: 'Restore this version' }).click();
    await listed.waitFor();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await statusSays(page, 'Restored version 2 as version 6');
    await dialog.waitFor({ state: 'hidden' });
    assert.match(await textOf(page, 6), /restored version 2/);
    assert.match(await textOf(page, 6), /Variable region \(terraform\): value: "us" → "eu"/);
    const [newest] = await apiVersions(setId);
    assert.deepEqual(
      [newest.attributes.number, newest.attributes.action, newest.attributes['rolled-back-to']],
      [6, 'rollback', 2],
    );

    await page.getByRole('navigation', { name: 'Variable set' }).getByRole('link', { name: 'Overview' }).click();
    await heading(page, 'payments');
    await page.locator('.variable').filter({ hasText: 'region' }).getByText('eu').waitFor();
    assert.equal(
      await page.getByRole('region', { name: 'Where it applies' }).getByRole('link', { name: 'core' }).count(),
      0,
    );
    const set = await ui.admin.get(`/api/v2/varsets/${setId}`);
    assert.deepEqual(set.body.data.relationships.projects.data, []);
    // The sensitive value restored is the one of version 2, as a run receives it.
    const runId = await createRunOverHttp(ui.admin, scenario.webWorkspaceId, 'After the restore');
    const opened = await ui.admin.get(`/api/v2/runs/${runId}/opened-variables`);
    expectStatus(opened, 200);
    assert.equal(opened.body.data.find((v: any) => v.attributes.key === 'api_key').attributes.value, 'first-secret');

    // The set is as it was at version 2 again: its dry run says so and offers no confirmation.
    await page.getByRole('navigation', { name: 'Variable set' }).getByRole('link', { name: 'History' }).click();
    await versionItem(page, 2).getByRole('button', { name: 'Restore this version' }).click();
    await dialog.getByText('The set is already as it was at version 2: restoring would change nothing.').waitFor();
    assert.equal(await dialog.getByRole('button', { name: 'Confirm' }).count(), 0);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.equal((await apiVersions(setId)).length, 6);
  });

  it('opens the page holding an older version, and pages through a long history', async () => {
    const long = await createVarset(ui.admin, scenario.org, { attributes: { name: 'long-history' } });
    for (let n = 2; n <= 23; n++)
      expectStatus(
        await ui.admin.patch(`/api/v2/varsets/${long.id}`, {
          data: { type: 'varsets', attributes: { description: `step ${n}` } },
        }),
        200,
      );
    await page.goto(`${ui.url}/varsets/${long.id}/history?version=2`);
    await page.waitForURL((url) => url.searchParams.get('page') === '2' && url.searchParams.get('version') === '2');
    await versionItem(page, 2).and(page.locator('.wanted')).waitFor();
    assert.match(await textOf(page, 2), /description: "" → "step 2"/);
    const pager = page.getByRole('navigation', { name: 'Versions pages' });
    await pager.getByText('Page 2 of 2 (23 items)').waitFor();
    await pager.getByRole('button', { name: 'Previous page' }).click();
    await versionItem(page, 23).waitFor();
    assert.equal(await versionItem(page, 2).count(), 0);
    expectStatus(await ui.admin.delete(`/api/v2/varsets/${long.id}`), 204);
  });

  it("shows the global rule's refusal of a restore in the dialog, linking the set that holds the key, with no way to confirm", async () => {
    const first = await createVarset(ui.admin, scenario.org, {
      attributes: { name: 'first-global', global: true },
      vars: [{ key: 'shared_key', value: 'a' }],
    });
    const [variable] = (await ui.admin.get(`/api/v2/varsets/${first.id}/relationships/vars`)).body.data;
    expectStatus(await ui.admin.delete(`/api/v2/varsets/${first.id}/relationships/vars/${variable.id}`), 204);
    const second = await createVarset(ui.admin, scenario.org, {
      attributes: { name: 'second-global', global: true },
      vars: [{ key: 'shared_key', value: 'b' }],
    });
    await page.goto(`${ui.url}/varsets/${first.id}/history`);
    await versionItem(page, 1).getByRole('button', { name: 'Restore this version' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore first-global as it was at version 1?' });
    const refusal = dialog.getByRole('alert');
    await refusal.waitFor();
    assert.match((await refusal.textContent()) ?? '', /"shared_key".*global variable set "second-global"/);
    assert.equal(
      await refusal.getByRole('link', { name: 'second-global' }).getAttribute('href'),
      `/varsets/${second.id}`,
    );
    assert.equal(await dialog.getByRole('button', { name: 'Confirm' }).count(), 0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Restore this version');
    assert.equal((await apiVersions(first.id)).length, 2);
    for (const set of [first, second]) expectStatus(await ui.admin.delete(`/api/v2/varsets/${set.id}`), 204);
  });

  it('shows a read-only token the history, with no way to restore', async () => {
    const reader = await teamWithToken(ui.admin, scenario.org, { 'organization-access': { 'read-workspaces': true } });
    const readerPage = await pageFor(reader.token, `${ui.url}/varsets/${setId}/history`);
    await heading(readerPage, 'payments');
    await versionItem(readerPage, 1).waitFor();
    assert.match(await textOf(readerPage, 3), /value changed \(sensitive\)/);
    assert.equal(await readerPage.getByRole('button', { name: /^Restore/ }).count(), 0);
  });

  it("restores a deleted set from its history, as the organization's owners may, leaving out a workspace that is gone", async () => {
    const scratch = await createWorkspace(ui.admin, scenario.org, { name: 'scratch' });
    const retired = await createVarset(ui.admin, scenario.org, {
      attributes: { name: 'retired' },
      workspaces: [scenario.webWorkspaceId, scratch],
      vars: [{ key: 'level', value: '3' }],
    });
    expectStatus(await ui.admin.delete(`/api/v2/varsets/${retired.id}`), 204);
    expectStatus(await ui.admin.delete(`/api/v2/workspaces/${scratch}`), 204);

    // Anyone but the owners is told there is nothing here.
    const writer = await teamWithToken(ui.admin, scenario.org, { 'organization-access': { 'manage-projects': true } });
    const writerPage = await pageFor(writer.token, `${ui.url}/varsets/${retired.id}/history`);
    await writerPage.getByText('No variable set here, or this token may not see it.').waitFor();

    const ownersPage = await pageFor(owners, `${ui.url}/varsets/${retired.id}/history`);
    await heading(ownersPage, 'retired (deleted)');
    // The deleted set's versions name its organization: the way back to its sets stays.
    await ownersPage.getByRole('link', { name: `Variable sets of ${scenario.org}` }).waitFor();
    assert.match(await textOf(ownersPage, 2), /deleted the set/);
    assert.equal(await versionItem(ownersPage, 2).getByRole('button').count(), 0);
    await versionItem(ownersPage, 1).getByRole('button', { name: 'Restore this set' }).click();
    const dialog = ownersPage.getByRole('dialog', { name: 'Restore retired as it was at version 1?' });
    await dialog.getByRole('alert').filter({ hasText: scratch }).waitFor();
    assert.match((await dialog.getByRole('alert').textContent()) ?? '', /can no longer be assigned to/);
    assert.equal(await dialog.getByRole('button', { name: 'Confirm' }).count(), 0);
    await dialog.getByRole('button', { name: 'Restore the rest' }).click();
    const listed = dialog.getByRole('list', { name: 'What restoring changes' });
    await listed.waitFor();
    const changes = ((await listed.textContent()) ?? '').replace(/\s+/g, ' ');
    assert.match(changes, /name: "retired"/);
    assert.match(changes, /Variable added: level \(terraform\) = "3"/);
    assert.match(changes, /Workspace web added/);
    assert.doesNotMatch(changes, new RegExp(scratch));
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await statusSays(ownersPage, 'Restored version 1 as version 3');
    await heading(ownersPage, 'retired');
    assert.match(await textOf(ownersPage, 3), /restored version 1/);

    const restored = await ui.admin.get(`/api/v2/varsets/${retired.id}?include=vars`);
    expectStatus(restored, 200);
    assert.deepEqual(
      restored.body.data.relationships.workspaces.data,
      identifiers('workspaces', [scenario.webWorkspaceId]).data,
    );
    assert.deepEqual(
      restored.body.included.map((v: any) => [v.attributes.key, v.attributes.value]),
      [['level', '3']],
    );
  });

  it('logged no script error and no Content-Security-Policy violation on any page', () => {
    assert.deepEqual(scriptErrors, []);
  });
});
