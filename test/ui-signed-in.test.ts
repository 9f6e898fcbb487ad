import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ownersTeam, teamToken } from './support/factories/access.js';
import { ADMIN_TOKEN, expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';
import {
  heading,
  launchChromium,
  seedScenario,
  startUiServer,
  watchPage,
  type Scenario,
  type UiServer,
} from './support/ui.js';

/**
 * Who is signed in, in the header (the token's kind, its team or organization), and the choice
 * to keep the sign-in across this browser's tabs: off by default, localStorage only when
 * chosen, both storages cleared by signing out.
 */

describe(`who is signed in, and keeping the sign-in across tabs, in Chromium (${storeKind})`, () => {
  let ui: UiServer;
  let browser: Browser;
  let scenario: Scenario;
  let owners: string;
  const scriptErrors: string[] = [];

  before(async () => {
    browser = await launchChromium();
    ui = await startUiServer();
    scenario = await seedScenario(ui.admin);
    owners = await teamToken(ui.admin, await ownersTeam(ui.admin, scenario.org), { description: 'laptop' });
  });
  after(async () => {
    await (browser as Browser | undefined)?.close();
    await (ui as UiServer | undefined)?.stop();
  });

  const newTab = async (context: BrowserContext): Promise<Page> => watchPage(await context.newPage(), scriptErrors);
  const signInWith = async (page: Page, token: string, keep: boolean) => {
    await page.goto(ui.url);
    await heading(page, 'Sign in');
    await page.getByLabel('API token').fill(token);
    if (keep) await page.getByLabel(/Keep me signed in on this browser/).check();
    await page.getByRole('button', { name: 'Sign in' }).click();
  };
  const storages = (page: Page) =>
    page.evaluate(() => ({ session: sessionStorage.length, local: localStorage.length }));
  const signedInAs = (page: Page) => page.getByLabel('Signed in as');

  it("names the token's kind and its team and organization in the header", async () => {
    const context = await browser.newContext();
    const page = await newTab(context);
    await signInWith(page, owners, false);
    await heading(page, `Variable sets of ${scenario.org}`);
    await signedInAs(page).getByText('Team token').waitFor();
    assert.equal(
      ((await signedInAs(page).textContent()) ?? '').replace(/\s+/g, ' ').trim(),
      `Team token team owners (token "laptop") of ${scenario.org}`,
    );
    const current = await ui.admin.get('/api/v2/current-token', { token: owners });
    expectStatus(current, 200);
    assert.deepEqual(current.body.data.attributes, {
      kind: 'team',
      description: 'team owners (token "laptop")',
      'organization-name': scenario.org,
    });
    await context.close();

    const admin = await newTab(await browser.newContext());
    await signInWith(admin, ADMIN_TOKEN, false);
    await signedInAs(admin).getByText('Site administrator').waitFor();
    await admin.context().close();
  });

  it('keeps the sign-in to its tab unless asked, and then across tabs until signing out clears both storages', async () => {
    const context = await browser.newContext();
    const first = await newTab(context);
    await signInWith(first, owners, false);
    await heading(first, `Variable sets of ${scenario.org}`);
    assert.deepEqual(await storages(first), { session: 1, local: 0 });
    // Another tab of the same browser is not signed in.
    const second = await newTab(context);
    await second.goto(ui.url);
    await heading(second, 'Sign in');
    assert.equal(await second.getByLabel(/Keep me signed in on this browser/).isChecked(), false);

    // Chosen: every new tab is signed in, and the token is in localStorage only.
    await signInWith(second, owners, true);
    await heading(second, `Variable sets of ${scenario.org}`);
    assert.deepEqual(await storages(second), { session: 0, local: 1 });
    const third = await newTab(context);
    await third.goto(`${ui.url}/organizations/${scenario.org}/varsets`);
    await heading(third, `Variable sets of ${scenario.org}`);
    await signedInAs(third).getByText('Team token').waitFor();

    // Signing out in one tab clears both storages: the other tabs sign out too, a new one asks again.
    await third.getByRole('button', { name: 'Sign out' }).click();
    await heading(third, 'Sign in');
    assert.deepEqual(await storages(third), { session: 0, local: 0 });
    await heading(second, 'Sign in');
    const fourth = await newTab(context);
    await fourth.goto(ui.url);
    await heading(fourth, 'Sign in');
    await context.close();
  });

  it('logged no script error', () => {
    assert.deepEqual(scriptErrors, []);
  });
});
