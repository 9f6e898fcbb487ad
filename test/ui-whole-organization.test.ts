import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { ownersTeam, teamToken } from './support/factories/access.js';
import { createVar, createVarset } from './support/factories/varsets.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';
import {
  heading,
  signIn,
  watchPage,
  type Scenario,
  type UiServer,
  openSignedInUi,
  closeSignedInUi,
} from './support/ui.js';

/**
 * The table view's filters and sort and the audit trail's filters answer for the whole
 * organization, not for the page shown: the matching sets and events are past the first page.
 */

const ADMIN_TOKEN_FOR_UI = 'test-admin-token-0123456789abcdefghij';

describe(`filters and sorts over a whole organization, in Chromium (${storeKind})`, () => {
  let ui: UiServer;
  let browser: Browser;
  let page: Page;
  let scenario: Scenario;
  const scriptErrors: string[] = [];

  before(async () => {
    ({ browser, ui, page, scenario } = await openSignedInUi(scriptErrors, {
      seed: async (ui, scenario) => {
        // Six more global sets and a set of many variables, all named after 25 plain sets: none is on the first page by name.
        for (let i = 0; i < 25; i++)
          await createVarset(ui.admin, scenario.org, { attributes: { name: `a-plain-${String(i).padStart(2, '0')}` } });
        for (let i = 0; i < 6; i++)
          await createVarset(ui.admin, scenario.org, { attributes: { name: `more-global-${i}`, global: true } });
        const many = await createVarset(ui.admin, scenario.org, { attributes: { name: 'z-many' } });
        for (const key of ['k1', 'k2', 'k3', 'k4'])
          await createVar(ui.admin, many.id, { key, value: 'v', category: 'terraform' });
        // Five changes by the owners' "platform" token, then more than a page of the trail by others.
        const platform = {
          token: await teamToken(ui.admin, await ownersTeam(ui.admin, scenario.org), { description: 'platform' }),
        };
        for (let i = 0; i < 5; i++) {
          expectStatus(
            await ui.admin.patch(
              `/api/v2/varsets/${scenario.defaultsSetId}`,
              { data: { type: 'varsets', attributes: { description: `by platform ${i}` } } },
              platform,
            ),
            200,
          );
        }
        for (let i = 0; i < 105; i++) {
          expectStatus(
            await ui.admin.patch(`/api/v2/varsets/${many.id}`, {
              data: { type: 'varsets', attributes: { description: `by the administrator ${i}` } },
            }),
            200,
          );
        }
      },
    }));
  });

  after(() => closeSignedInUi({ browser, ui }));

  it('filters the table view to every global set of the organization, and sorts all its sets', async () => {
    await page.goto(`${ui.url}/organizations/${scenario.org}/varsets?view=table&global=1`);
    const table = page.getByRole('table', { name: 'Variable sets' });
    await table.getByRole('link', { name: 'more-global-5' }).waitFor();
    assert.deepEqual(await table.locator('tbody th a[href^="/varsets/"]').allTextContents(), [
      'globals',
      'more-global-0',
      'more-global-1',
      'more-global-2',
      'more-global-3',
      'more-global-4',
      'more-global-5',
    ]);
    await page.goto(`${ui.url}/organizations/${scenario.org}/varsets?view=table&sort=-variables`);
    await table.locator('tbody tr').first().getByRole('link', { name: 'z-many' }).waitFor();
  });

  it('filters the audit trail by who over every page, not only the 100 events shown', async () => {
    await page.goto(`${ui.url}/organizations/${scenario.org}/audit-trail?who=platform`);
    await page.getByText('5 events pass the filters.').waitFor();
    const whos = await page
      .getByRole('table', { name: 'Audit events' })
      .locator('tbody tr td:nth-child(2)')
      .allTextContents();
    assert.deepEqual(whos, Array(5).fill('team owners (token "platform")'));
  });

  it('says a page past the last one is, and offers the last page', async () => {
    await page.goto(`${ui.url}/organizations/${scenario.org}/varsets?page=99`);
    await page.getByText('No variable sets on this page: it is past the last one.').waitFor();
    assert.equal(await page.getByText('No variable sets yet.').count(), 0);
    const pager = page.getByRole('navigation', { name: 'Variable sets pages' });
    assert.match((await pager.textContent()) ?? '', /There is no page 99: the list has 2 pages \(34 items\)\./);
    await pager.getByRole('button', { name: 'Last page (2)' }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    await page.getByRole('list', { name: 'Variable sets' }).getByRole('link', { name: 'z-many' }).waitFor();
  });

  it('says a global set applies to every workspace, not to none', async () => {
    await page.goto(`${ui.url}/organizations/${scenario.org}/varsets?q=globals`);
    const card = page.getByRole('list', { name: 'Variable sets' }).getByRole('listitem').filter({ hasText: 'globals' });
    await card.getByText('2 variables · every workspace of the organization').waitFor();
    assert.doesNotMatch((await card.textContent()) ?? '', /0 workspaces/);
    await page.goto(`${ui.url}/varsets/${scenario.globalsSetId}`);
    await page.getByText('2 variables · every workspace of the organization').waitFor();
  });

  it('says a mistyped organization does not exist, instead of showing it empty', async () => {
    await page.goto(`${ui.url}/organizations/${scenario.org}x/varsets`);
    await heading(page, `No organization ${scenario.org}x`);
    assert.equal(await page.getByRole('link', { name: 'New variable set' }).count(), 0);
    await page.getByRole('link', { name: 'The organizations this token sees' }).click();
    await heading(page, /Organizations|Variable sets of/);
  });

  it('fits the audit trail in a 390 px wide screen, scrolling only its table sideways', async () => {
    const phone = watchPage(
      await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage(),
      scriptErrors,
    );
    await signIn(phone, ui.url, ADMIN_TOKEN_FOR_UI);
    await heading(phone, /Organizations|Variable sets of/);
    await phone.goto(`${ui.url}/organizations/${scenario.org}/audit-trail?type=varset`);
    await phone.getByRole('table', { name: 'Audit events' }).waitFor();
    const wider = await phone.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter(
          (e) =>
            !e.parentElement?.closest('.table-wrap') &&
            e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5,
        )
        .map((e) => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`),
    );
    assert.deepEqual(wider, []);
    assert.equal(await phone.evaluate(() => document.documentElement.scrollWidth), 390);
    await phone.context().close();
  });

  it('logged no script error', () => {
    assert.deepEqual(scriptErrors, []);
  });
});
