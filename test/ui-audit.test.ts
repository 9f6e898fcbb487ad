import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { organizationToken, ownersTeam, teamToken } from './support/factories/access.js';
import { createOrganization } from './support/factories/organizations.js';
import { createVarset } from './support/factories/varsets.js';
import { ADMIN_TOKEN, expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';
import {
  heading,
  launchChromium,
  seedScenario,
  signIn,
  startUiServer,
  watchPage,
  type Scenario,
  type UiServer,
} from './support/ui.js';

/**
 * An organization's audit trail in a real headless Chromium: the writes made through the API in
 * words, with links; the `since` filter (sent to the API) and the filters of the page shown,
 * kept in the URL; pages of 100; who may read it and what everyone else is told.
 */

/** The browser's time zone: an offset of half an hour shows that `since` is typed in local time and sent as UTC. */
const TIME_ZONE = 'Asia/Kolkata';
const KOLKATA_OFFSET_MS = 5.5 * 3600_000;

describe(`the web UI's audit trail in Chromium (${storeKind})`, () => {
  let ui: UiServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let scenario: Scenario;
  let orgToken: string;
  let owners: { token: string };
  let page: Page;
  /** Writes of the owners' token, with the X-Request-Id each was answered with. */
  const writes = {
    setId: '',
    setCreated: '',
    varUpdated: '',
    rolledBack: '',
    rollbackVersion: 0,
    workspaceVarCreated: '',
  };
  const scriptErrors: string[] = [];

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ timezoneId: TIME_ZONE });
    contexts.push(context);
    return watchPage(await context.newPage(), scriptErrors);
  }
  const table = (on: Page) => on.getByRole('table', { name: 'Audit events' });
  const rows = (on: Page) => table(on).locator('tbody tr');
  const rowOf = (on: Page, requestId: string) => rows(on).filter({ hasText: requestId });
  const cells = async (on: Page, requestId: string) =>
    (await rowOf(on, requestId).locator('td').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  const whats = (on: Page) => rows(on).locator('td:nth-child(3)').allTextContents();
  const whos = (on: Page) => rows(on).locator('td:nth-child(2)').allTextContents();
  /** Waits for `read` to give `expected` (the table follows a change of the URL a render later), then checks it. */
  async function settlesTo<T>(read: () => Promise<T>, expected: T): Promise<void> {
    let last = await read();
    for (
      const deadline = Date.now() + 10_000;
      !isDeepStrictEqual(last, expected) && Date.now() < deadline;
      last = await read()
    )
      await sleep(50);
    assert.deepEqual(last, expected);
  }
  const requestIdOf = (res: { headers: Record<string, unknown> }): string => String(res.headers['x-request-id']);
  async function trail(org: string, parameters = ''): Promise<any> {
    const res = await ui.admin.get(
      `/api/v2/organization/audit-trail?filter%5Borganization%5D%5Bname%5D=${org}${parameters}`,
    );
    expectStatus(res, 200);
    return res.body;
  }

  before(async () => {
    browser = await launchChromium();
    ui = await startUiServer();
    scenario = await seedScenario(ui.admin);
    orgToken = await organizationToken(ui.admin, scenario.org);
    owners = { token: await teamToken(ui.admin, await ownersTeam(ui.admin, scenario.org), { description: 'CI' }) };

    const created = await ui.admin.post(
      `/api/v2/organizations/${scenario.org}/varsets`,
      { data: { type: 'varsets', attributes: { name: 'payments', description: 'first' } } },
      owners,
    );
    expectStatus(created, 200);
    writes.setId = created.body.data.id;
    writes.setCreated = requestIdOf(created);
    const firstVersion = (await ui.admin.get(`/api/v2/varsets/${writes.setId}/versions`)).body.data[0].id;
    expectStatus(
      await ui.admin.patch(
        `/api/v2/varsets/${writes.setId}`,
        { data: { type: 'varsets', attributes: { description: 'second' } } },
        owners,
      ),
      200,
    );
    const rollback = await ui.admin.post(
      `/api/v2/varsets/${writes.setId}/actions/rollback`,
      { data: { type: 'varset-versions', id: firstVersion } },
      owners,
    );
    expectStatus(rollback, 200);
    writes.rolledBack = requestIdOf(rollback);
    writes.rollbackVersion = rollback.body.meta.version.number;

    const region = (await ui.admin.get(`/api/v2/varsets/${scenario.defaultsSetId}/relationships/vars`)).body.data.find(
      (v: any) => v.attributes.key === 'region',
    );
    const updated = await ui.admin.patch(
      `/api/v2/varsets/${scenario.defaultsSetId}/relationships/vars/${region.id}`,
      { data: { type: 'vars', attributes: { value: 'eu' } } },
      owners,
    );
    expectStatus(updated, 200);
    writes.varUpdated = requestIdOf(updated);
    const workspaceVar = await ui.admin.post(
      `/api/v2/workspaces/${scenario.webWorkspaceId}/vars`,
      { data: { type: 'vars', attributes: { key: 'TF_LOG', value: 'debug', category: 'env' } } },
      owners,
    );
    expectStatus(workspaceVar, 201);
    writes.workspaceVarCreated = requestIdOf(workspaceVar);
  });

  after(async () => {
    for (const context of contexts) await context.close();
    await (browser as Browser | undefined)?.close();
    await (ui as UiServer | undefined)?.stop();
  });

  it("links the trail from the organization token's navigation, and shows the writes newest first, in words, with links", async () => {
    page = await newPage();
    await signIn(page, ui.url, orgToken);
    await heading(page, `Variable sets of ${scenario.org}`);
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Audit trail' }).click();
    await heading(page, `Audit trail of ${scenario.org}`);
    assert.equal(new URL(page.url()).pathname, `/organizations/${scenario.org}/audit-trail`);
    await rowOf(page, writes.workspaceVarCreated).waitFor();

    const api = (await trail(scenario.org)).data as any[];
    const times = await rows(page)
      .locator('time')
      .evaluateAll((all) => all.map((t) => t.getAttribute('datetime')));
    assert.deepEqual(
      times,
      api.map((e) => e.timestamp),
    );
    assert.deepEqual([...times].sort().reverse(), times, 'newest first');
    const newest = rows(page).first().locator('time');
    assert.equal(await newest.getAttribute('title'), api[0].timestamp);
    assert.match((await newest.textContent()) ?? '', /\d{4}/);

    const [, who, what, resource, details, request] = await cells(page, writes.setCreated);
    assert.equal(who, 'team owners (token "CI")');
    assert.equal(what, 'variable set created');
    assert.match(resource!, new RegExp(`^payments ${writes.setId}$`));
    assert.equal(details, 'name payments');
    assert.match(request!, new RegExp(`^${writes.setCreated}`));
    assert.equal(
      await rowOf(page, writes.setCreated).getByRole('link', { name: 'payments' }).getAttribute('href'),
      `/varsets/${writes.setId}`,
    );

    const variable = await cells(page, writes.varUpdated);
    assert.equal(variable[2], 'variable updated');
    assert.match(variable[4]!, /^key region category terraform sensitive false varset_id varset-/);
    assert.doesNotMatch(variable[4]!, /\beu\b/, 'never a value');
    assert.equal(
      await rowOf(page, writes.varUpdated).getByRole('link', { name: 'region' }).getAttribute('href'),
      `/varsets/${scenario.defaultsSetId}`,
    );
    assert.equal(
      await rowOf(page, writes.varUpdated).getByRole('link', { name: scenario.defaultsSetId }).getAttribute('href'),
      `/varsets/${scenario.defaultsSetId}`,
    );
    assert.equal((await cells(page, writes.workspaceVarCreated))[2], 'variable created');
    assert.equal(
      await rowOf(page, writes.workspaceVarCreated).getByRole('link', { name: 'TF_LOG' }).getAttribute('href'),
      `/workspaces/${scenario.webWorkspaceId}`,
    );

    const rolledBack = await cells(page, writes.rolledBack);
    assert.equal(rolledBack[2], 'variable set rolled back to version 1');
    const toHistory = rowOf(page, writes.rolledBack).getByRole('link', { name: 'payments' });
    assert.equal(
      await toHistory.getAttribute('href'),
      `/varsets/${writes.setId}/history?version=${writes.rollbackVersion}`,
    );
    await toHistory.click();
    await heading(page, 'payments');
    await page
      .getByRole('listitem', { name: `Version ${writes.rollbackVersion}`, exact: true })
      .and(page.locator('.wanted'))
      .waitFor();
  });

  it("copies an event's request id", async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ui.url });
    await page.goto(`${ui.url}/organizations/${scenario.org}/audit-trail`);
    await rowOf(page, writes.varUpdated)
      .getByRole('button', { name: `Copy request id ${writes.varUpdated}`, exact: true })
      .click();
    await rowOf(page, writes.varUpdated)
      .getByRole('button', { name: `Copied request id ${writes.varUpdated}`, exact: true })
      .waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), writes.varUpdated);
  });

  it('narrows the table to the events since a time, and to a type, who and action, all asked of the API and kept in the URL', async () => {
    // A boundary at a whole second: every write so far is before it, the next ones at or after it.
    const boundary = Math.ceil((Date.now() + 1) / 1000) * 1000;
    await new Promise((resolve) => setTimeout(resolve, boundary - Date.now() + 5));
    const late = await createVarset(ui.admin, scenario.org, { attributes: { name: 'late' } });
    expectStatus(
      await ui.admin.post(
        `/api/v2/varsets/${late.id}/relationships/vars`,
        { data: { type: 'vars', attributes: { key: 'size', value: 's', category: 'terraform' } } },
        owners,
      ),
      200,
    );
    const since = new Date(boundary).toISOString();
    const expected = (await trail(scenario.org, `&since=${encodeURIComponent(since)}`)).data as any[];
    assert.deepEqual(
      expected.map((e) => `${e.resource.type} ${e.resource.action}`),
      ['var create', 'varset create'],
    );

    await page.goto(`${ui.url}/organizations/${scenario.org}/audit-trail`);
    await rowOf(page, writes.setCreated).waitFor();
    assert.ok((await rows(page).count()) > expected.length);
    // Typed in the browser's local time, sent and kept as UTC.
    await page
      .getByLabel('Events since (your local time)')
      .fill(new Date(boundary + KOLKATA_OFFSET_MS).toISOString().slice(0, 19));
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('since') === since);
    await settlesTo(() => whats(page), ['variable created', 'variable set created']);

    await page.getByRole('button', { name: 'All events' }).click();
    await rowOf(page, writes.setCreated).waitFor();
    await page.goBack();
    await settlesTo(() => whats(page), ['variable created', 'variable set created']);

    await page.getByLabel('Type').selectOption({ label: 'variable set' });
    await page.waitForURL(
      (url) => url.searchParams.get('type') === 'varset' && url.searchParams.get('since') === since,
    );
    await settlesTo(() => whats(page), ['variable set created']);
    await page.getByText('1 event passes the filters.').waitFor();

    // Reloaded, the address keeps both filters.
    await page.reload();
    await heading(page, `Audit trail of ${scenario.org}`);
    await settlesTo(() => whats(page), ['variable set created']);
    assert.equal(await page.getByLabel('Type').inputValue(), 'varset');
    // The same local time, compared as instants: the browser leaves out seconds that are zero (08:08, not 08:08:00).
    const shown = await page.getByLabel('Events since (your local time)').inputValue();
    assert.equal(
      Date.parse(`${shown}Z`),
      Date.parse(`${new Date(boundary + KOLKATA_OFFSET_MS).toISOString().slice(0, 19)}Z`),
      shown,
    );

    // Who: a text match on the description, over the whole trail's first page.
    await page.goto(`${ui.url}/organizations/${scenario.org}/audit-trail?type=varset`);
    await rowOf(page, writes.setCreated).waitFor();
    await page.getByLabel('Who').fill('token "ci"');
    await page.waitForURL((url) => url.searchParams.get('who') === 'token "ci"');
    const byOwners = (await trail(scenario.org)).data.filter(
      (e: any) => e.resource.type === 'varset' && e.auth.description === 'team owners (token "CI")',
    );
    assert.equal(byOwners.length, 3);
    await settlesTo(
      () => whos(page),
      byOwners.map((e: any) => e.auth.description),
    );
    await page.getByLabel('Action').selectOption({ label: 'rolled back' });
    await page.waitForURL(
      (url) =>
        url.searchParams.get('action') === 'rollback' &&
        url.searchParams.get('who') === 'token "ci"' &&
        url.searchParams.get('type') === 'varset',
    );
    await settlesTo(() => whats(page), ['variable set rolled back to version 1']);
  });

  it("gives an owners team token no link, and says at the trail's address who may read it", async () => {
    const ownersPage = await newPage();
    const probe = ownersPage.waitForResponse((response) => response.url().includes('/api/v2/organization/audit-trail'));
    await signIn(ownersPage, `${ui.url}/organizations/${scenario.org}/varsets`, owners.token);
    await heading(ownersPage, `Variable sets of ${scenario.org}`);
    assert.equal((await probe).status(), 404);
    const nav = ownersPage.getByRole('navigation', { name: 'Organization' });
    await nav.getByRole('link', { name: 'Workspaces' }).waitFor();
    assert.equal(await nav.getByRole('link', { name: 'Audit trail' }).count(), 0);

    await ownersPage.goto(`${ui.url}/organizations/${scenario.org}/audit-trail`);
    await heading(ownersPage, `Audit trail of ${scenario.org}`);
    await ownersPage
      .getByText(
        "Only the organization's own token or the site administrator can read an organization's audit trail.",
        { exact: false },
      )
      .waitFor();
    assert.equal(await table(ownersPage).count(), 0);
  });

  it('shows the site administrator the trail of the organization it opens', async () => {
    const other = await createOrganization(ui.admin);
    await createVarset(ui.admin, other, { attributes: { name: 'elsewhere' } });
    const adminPage = await newPage();
    await signIn(adminPage, `${ui.url}/organizations/${other}/varsets`, ADMIN_TOKEN);
    await heading(adminPage, `Variable sets of ${other}`);
    await adminPage
      .getByRole('navigation', { name: 'Organization' })
      .getByRole('link', { name: 'Audit trail' })
      .click();
    await heading(adminPage, `Audit trail of ${other}`);
    await settlesTo(() => whats(adminPage), ['variable set created', 'organization created']);
    const api = (await trail(other)).data as any[];
    assert.deepEqual(
      await whos(adminPage),
      api.map((e) => e.auth.description),
    );
    assert.match(api[0].auth.description, /^site administrator/);
    assert.equal(await rows(adminPage).filter({ hasText: 'payments' }).count(), 0);
    assert.equal(
      await rows(adminPage).getByRole('link', { name: other }).getAttribute('href'),
      `/organizations/${other}/varsets`,
    );
  });

  it('pages through the trail 100 events at a time', async () => {
    for (let n = 0; (await trail(scenario.org, '&page%5Bsize%5D=1')).pagination.total_count <= 100; n++) {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          createVarset(ui.admin, scenario.org, { attributes: { name: `bulk-${n}-${i}` } }),
        ),
      );
    }
    const total = (await trail(scenario.org, '&page%5Bsize%5D=1')).pagination.total_count;
    await page.goto(`${ui.url}/organizations/${scenario.org}/audit-trail`);
    const pager = page.getByRole('navigation', { name: 'Audit events pages' });
    await pager.getByText(`Page 1 of 2 (${total} items)`).waitFor();
    assert.equal(await rows(page).count(), 100);
    await pager.getByRole('button', { name: 'Next page' }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    await pager.getByText(`Page 2 of 2 (${total} items)`).waitFor();
    assert.equal(await rows(page).count(), total - 100);
    // The oldest event, the organization's creation, is last.
    assert.equal(await rows(page).last().locator('td:nth-child(3)').textContent(), 'organization created');
  });

  it('logged no script error and no Content-Security-Policy violation on any page', () => {
    assert.deepEqual(scriptErrors, []);
  });
});
