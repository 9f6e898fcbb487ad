import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Locator, Page } from 'playwright-core';
import { assign, createVar, createVarset } from './support/factories/varsets.js';
import { ADMIN_TOKEN, expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';
import {
  closeSignedInUi,
  heading,
  openSignedInUi,
  signIn,
  tabTo,
  watchPage,
  type Scenario,
  type UiServer,
} from './support/ui.js';

/**
 * The workspace page opens on what a run gets: one row per effective variable, its winner and
 * where from, why on demand, filtered by key and to conflicts, long values on one line.
 */

const SECRET = 'hunter2-never-shown';
const POLICY = `{"statements":[${'"allow:read",'.repeat(12)}"END-OF-POLICY"]}`;

describe(`a workspace page: what a run gets, in Chromium (${storeKind})`, () => {
  let ui: UiServer;
  let browser: Browser;
  let page: Page;
  let scenario: Scenario;
  const sets: Record<string, string> = {};
  const scriptErrors: string[] = [];

  before(async () => {
    ({ browser, ui, page, scenario } = await openSignedInUi(scriptErrors, {
      seed: async (ui, scenario) => {
        const web = scenario.webWorkspaceId;
        // tier from a global set, a project set, a direct set, a priority set and the workspace itself.
        await createVar(ui.admin, scenario.globalsSetId, { key: 'tier', value: 'global-tier', category: 'terraform' });
        await assign(ui.admin, scenario.defaultsSetId, 'projects', [scenario.coreProjectId]);
        await createVar(ui.admin, scenario.defaultsSetId, {
          key: 'tier',
          value: 'project-tier',
          category: 'terraform',
        });
        sets.direct = (
          await createVarset(ui.admin, scenario.org, {
            attributes: { name: 'direct' },
            workspaces: [web],
            vars: [
              { key: 'tier', value: 'direct-tier' },
              { key: 'policy', value: POLICY },
              { key: 'db_password', value: SECRET, sensitive: true },
            ],
          })
        ).id;
        sets.enforced = (
          await createVarset(ui.admin, scenario.org, {
            attributes: { name: 'enforced', priority: true },
            workspaces: [web],
            vars: [{ key: 'tier', value: 'priority-tier' }],
          })
        ).id;
        for (const [key, value] of [
          ['tier', 'own-tier'],
          ['region', 'eu'],
        ]) {
          expectStatus(
            await ui.admin.post(`/api/v2/workspaces/${web}/vars`, {
              data: { type: 'vars', attributes: { key, value, category: 'terraform' } },
            }),
            201,
          );
        }
      },
    }));
  });

  after(() => closeSignedInUi({ browser, ui }));

  const table = () => page.getByRole('table', { name: /^What a run gets/ });
  const row = (key: string) =>
    table()
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${key} `) }) });
  const keys = async () => (await table().locator('tbody th[scope="row"] code').allTextContents()).sort();
  /** Opens a row's "Why" and answers what it opened. */
  const why = async (key: string, category = 'terraform'): Promise<Locator> => {
    const button = row(key).getByRole('button', { name: `Why ${key} (${category})` });
    assert.equal(await button.getAttribute('aria-expanded'), 'false');
    await button.click();
    assert.equal(await button.getAttribute('aria-expanded'), 'true');
    const detail = page.locator(`[id="${await button.getAttribute('aria-controls')}"]`);
    await detail.waitFor();
    return detail;
  };

  it('opens on the table, before the workspace variables and its sets, one row per effective variable', async () => {
    await page.goto(`${ui.url}/workspaces/${scenario.webWorkspaceId}`);
    await heading(page, 'Workspace web');
    await table().waitFor();
    assert.deepEqual(await page.getByRole('heading', { level: 2 }).allTextContents(), [
      'What a run gets',
      'Workspace variables',
      'Variable sets that apply',
      'Runs',
    ]);
    assert.deepEqual(await table().getByRole('columnheader').allTextContents(), ['Variable', 'Value', 'From', 'Why']);
    assert.deepEqual(await keys(), ['TF_LOG', 'db_password', 'instance_type', 'owner', 'policy', 'region', 'tier']);
    await page.getByText('7 variables', { exact: true }).waitFor();
  });

  it('names the winner, its level and its set, and on demand the rule that decided and every value it beat', async () => {
    const api = await ui.admin.get(`/api/v2/workspaces/${scenario.webWorkspaceId}/effective-variables?explain=true`);
    expectStatus(api, 200);
    const tier = api.body.data.find((d: any) => d.id === 'terraform:tier').attributes;
    assert.equal(tier.source.precedence, 3);

    const text = (await row('tier').textContent()) ?? '';
    assert.match(text, /priority-tier/);
    assert.match(text, /Level 3/);
    assert.match(text, /enforced \(direct, priority\)/);
    assert.doesNotMatch(text, /own-tier|direct-tier|project-tier|global-tier/);
    assert.equal(
      await row('tier').getByRole('link', { name: 'enforced' }).getAttribute('href'),
      `/varsets/${sets.enforced}`,
    );

    const detail = await why('tier');
    await detail.getByText(tier.reason).waitFor();
    assert.match((await detail.textContent()) ?? '', /Decided by a higher level/);
    await detail.getByRole('button', { name: 'Show 1 more' }).click();
    const beaten = ((await detail.getByRole('list', { name: 'What tier overrides' }).textContent()) ?? '').replace(
      /\s+/g,
      ' ',
    );
    for (const expected of [
      "from the workspace's own variables (own-tier)",
      "from set 'direct', applied to the workspace (direct-tier)",
      "from set 'defaults', applied to project 'core' (project-tier)",
      "from set 'globals', global (global-tier)",
    ])
      assert.ok(beaten.includes(expected), `${expected} in ${beaten}`);

    // The workspace's own region wins over the project's set: "this workspace", linked to its variables below.
    assert.match((await row('region').textContent()) ?? '', /eu.*Level 8.*this workspace/);
    const own = row('region').getByRole('link', { name: 'this workspace' });
    assert.equal(await own.getAttribute('href'), `#workspaces-${scenario.webWorkspaceId}-variables-title`);
    // Nothing else defines owner.
    await (await why('owner')).getByText('Nothing else defines it.').waitFor();
  });

  it('marks the overridden workspace variable "Overwritten", with the set that wins, and only that one', async () => {
    const tier = page.locator('[data-variable="terraform:tier"]');
    assert.match((await tier.textContent()) ?? '', /Overwritten by set enforced \(priority\): runs get its value/);
    assert.equal(await tier.getByRole('link', { name: 'enforced' }).getAttribute('href'), `/varsets/${sets.enforced}`);
    assert.equal(await page.locator('[data-variable="terraform:region"]').getByText('Overwritten').count(), 0);
  });

  it('filters by key and to the keys more than one source defines', async () => {
    const filter = page.getByLabel('Filter by key');
    await filter.fill('TI');
    await page.getByText('1 of 7 variables', { exact: true }).waitFor();
    assert.deepEqual(await keys(), ['tier']);
    await filter.fill('');
    const conflicts = page.getByLabel('Conflicts only');
    await conflicts.check();
    await page.getByText('2 of 7 variables', { exact: true }).waitFor();
    assert.deepEqual(await keys(), ['region', 'tier']);
    await filter.fill('re');
    await page.getByText('1 of 7 variables', { exact: true }).waitFor();
    assert.deepEqual(await keys(), ['region']);
    await filter.fill('policy');
    await table()
      .getByText(/No variable matches/)
      .waitFor();
    assert.deepEqual(await keys(), []);
    await conflicts.uncheck();
    assert.deepEqual(await keys(), ['policy']);
    await filter.fill('');
    await page.getByText('7 variables', { exact: true }).waitFor();
  });

  it('shows a long value on one line until "Show all", which the keyboard reaches', async () => {
    const value = row('policy').locator('code.long-value');
    const lineHeight = async () =>
      value.evaluate((e) => e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight));
    assert.ok((await lineHeight()) < 1.5, `collapsed: ${await lineHeight()} lines`);
    const button = row('policy').getByRole('button', { name: /^Show (all|less) of policy$/ });
    assert.equal(await button.getAttribute('aria-expanded'), 'false');
    // Reached with Tab from the filter, and opened with Enter.
    await page.getByLabel('Filter by key').focus();
    await tabTo(page, 'Show all of policy');
    assert.ok(await button.evaluate((b) => b === document.activeElement), 'Tab reached another Show all');
    await page.keyboard.press('Enter');
    assert.equal(await button.getAttribute('aria-expanded'), 'true');
    assert.equal(await button.textContent(), 'Show less of policy');
    assert.ok((await lineHeight()) >= 2, `opened: ${await lineHeight()} lines`);
    assert.equal(await value.textContent(), POLICY);
    await page.keyboard.press('Enter');
    assert.ok((await lineHeight()) < 1.5);
  });

  it('never has a sensitive value in the page', async () => {
    assert.match((await row('db_password').textContent()) ?? '', /\(sensitive\)/);
    await why('db_password');
    assert.ok(!(await page.content()).includes(SECRET));
  });

  it('fits a 390 px wide screen without sideways scrolling', async () => {
    const phone = watchPage(
      await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage(),
      scriptErrors,
    );
    await signIn(phone, ui.url, ADMIN_TOKEN);
    await heading(phone, `Variable sets of ${scenario.org}`);
    await phone.goto(`${ui.url}/workspaces/${scenario.webWorkspaceId}`);
    await phone.getByRole('table', { name: /^What a run gets/ }).waitFor();
    await phone.getByRole('button', { name: 'Why tier (terraform)' }).click();
    await phone.getByRole('button', { name: 'Show all of policy' }).click();
    assert.equal(await phone.evaluate(() => document.documentElement.scrollWidth), 390);
    const wrap = phone.locator('.run-gets .table-wrap');
    assert.ok(await wrap.evaluate((e) => e.scrollWidth <= e.clientWidth), 'the table scrolls sideways');
    await phone.context().close();
  });

  it('logged no script error', () => {
    assert.deepEqual(scriptErrors, []);
  });
});
