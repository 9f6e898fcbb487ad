import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { grantWorkspace, teamWithToken } from './support/factories/access.js';
import { createProject, createWorkspace } from './support/factories/organizations.js';
import { createRunOverHttp } from './support/factories/runs.js';
import { createVar, createVarset } from './support/factories/varsets.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';
import {
  attributeBecomes,
  confirmImpact,
  fieldError,
  heading,
  launchChromium,
  seedScenario,
  signIn,
  submitSignIn,
  startUiServer,
  statusSays,
  watchPage,
  type Scenario,
  type UiServer,
} from './support/ui.js';

/**
 * The web UI in a real headless Chromium, against a real varsetd process on a fresh store: what
 * a person does, step by step, and what the API holds afterwards.
 */

const ADMIN_TOKEN_FOR_UI = 'test-admin-token-0123456789abcdefghij';

describe(`the web UI in Chromium (${storeKind})`, () => {
  let ui: UiServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let scenario: Scenario;
  let webSettingsId: string;
  /** Script errors and Content-Security-Policy violations the pages reported (refused API requests are expected). */
  const scriptErrors: string[] = [];

  before(async () => {
    browser = await launchChromium();
    ui = await startUiServer();
    scenario = await seedScenario(ui.admin);
    context = await browser.newContext();
    page = watchPage(await context.newPage(), scriptErrors);
  });

  after(async () => {
    await (browser as Browser | undefined)?.close();
    await (ui as UiServer | undefined)?.stop();
  });

  it("refuses a wrong token and signs in with a good one, keeping it in sessionStorage and landing on the only organization's sets", async () => {
    await submitSignIn(page, ui.url, 'not-a-real-token-at-all');
    const token = page.getByLabel('API token');
    assert.match(await fieldError(token), /did not accept/);
    await token.fill(ADMIN_TOKEN_FOR_UI);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading(page, `Variable sets of ${scenario.org}`);
    assert.equal(new URL(page.url()).pathname, `/organizations/${scenario.org}/varsets`);
    assert.equal(await page.evaluate(() => sessionStorage.getItem('varsetd.token')), ADMIN_TOKEN_FOR_UI);
    const sets = page.getByRole('list', { name: 'Variable sets' });
    await sets.getByRole('link', { name: 'globals' }).waitFor();
    assert.match((await sets.textContent()) ?? '', /Global/);
    assert.match((await sets.textContent()) ?? '', /2 variables · 0 workspaces · 0 projects/);
  });

  it('creates a set applied to a workspace, with variables, one of them sensitive', async () => {
    await page.getByRole('link', { name: 'New variable set' }).click();
    await heading(page, /New variable set/);
    await page.getByLabel('Name', { exact: true }).fill('web-settings');
    await page.getByLabel('Description', { exact: true }).fill('What the web workspace needs');
    await page.getByLabel('Chosen projects and workspaces').check();
    await page.getByLabel('Search workspaces').fill('we');
    await page.getByRole('button', { name: 'Add web' }).click();
    await page.getByRole('list', { name: 'Chosen workspaces' }).getByText('web').waitFor();
    await page.getByRole('button', { name: 'Create set' }).click();
    await confirmImpact(page, 'Create set web-settings?');
    await heading(page, 'web-settings');
    await statusSays(page, 'Set web-settings created');
    webSettingsId = new URL(page.url()).pathname.split('/').pop()!;

    const add = page.getByRole('form', { name: 'Add a variable' });
    await add.getByLabel('Key', { exact: true }).fill('region');
    await add.getByLabel('Value', { exact: true }).fill('eu');
    await add.getByRole('button', { name: 'Add variable' }).click();
    await confirmImpact(page, 'Add variable region?');
    await page.locator('.variable').filter({ hasText: 'region' }).waitFor();
    await statusSays(page, 'Variable region added');

    await add.getByLabel('Key', { exact: true }).fill('db_password');
    await add.getByLabel('Value', { exact: true }).fill('first-secret');
    await add.getByLabel('Sensitive (write-only)').check();
    await add.getByRole('button', { name: 'Add variable' }).click();
    await confirmImpact(page, 'Add variable db_password?');
    const secret = page.locator('.variable').filter({ hasText: 'db_password' });
    await secret.getByText('Sensitive: write-only, never shown').waitFor();
    assert.doesNotMatch(await page.content(), /first-secret/);

    const vars = await ui.admin.get(`/api/v2/varsets/${webSettingsId}/relationships/vars`);
    expectStatus(vars, 200);
    assert.deepEqual(
      vars.body.data.map((v: any) => [v.attributes.key, v.attributes.value, v.attributes.sensitive]).sort(),
      [
        ['db_password', null, true],
        ['region', 'eu', false],
      ],
    );
    const set = await ui.admin.get(`/api/v2/varsets/${webSettingsId}`);
    assert.deepEqual(set.body.data.relationships.workspaces.data, [
      { type: 'workspaces', id: scenario.webWorkspaceId },
    ]);
  });

  it("shows the global rule's 422 next to the field it points at", async () => {
    await page.goto(`${ui.url}/organizations/${scenario.org}/varsets/new`);
    await heading(page, /New variable set/);
    await page.getByLabel('Name', { exact: true }).fill('more-globals');
    await page.getByLabel('Global: every workspace of the organization').check();
    await page.getByRole('button', { name: 'Create set' }).click();
    await confirmImpact(page, 'Create set more-globals?');
    await heading(page, 'more-globals');
    const add = page.getByRole('form', { name: 'Add a variable' });
    await add.getByLabel('Key', { exact: true }).fill('owner');
    await add.getByLabel('Value', { exact: true }).fill('someone else');
    await add.getByRole('button', { name: 'Add variable' }).click();
    const message = await fieldError(add.getByLabel('Key', { exact: true }));
    assert.match(message, /conflicts with the global variable set "globals"/);
    // The set already holding the key is a link to it.
    const other = page
      .locator(`[id="${await add.getByLabel('Key', { exact: true }).getAttribute('aria-describedby')}"]`)
      .getByRole('link', { name: 'globals' });
    assert.equal(await other.getAttribute('href'), `/varsets/${scenario.globalsSetId}`);
    await other.click();
    await heading(page, 'globals');
  });

  it('creates a set with its variables in one request, showing an error at the variable it concerns', async () => {
    await page.goto(`${ui.url}/organizations/${scenario.org}/varsets/new`);
    await heading(page, /New variable set/);
    await page.getByLabel('Name', { exact: true }).fill('born-global');
    await page.getByLabel('Global: every workspace of the organization').check();
    const addVariable = page.getByRole('button', { name: 'Add a variable to the set' });
    for (let i = 0; i < 3; i++) await addVariable.click();
    const variable = (n: number) => page.getByRole('group', { name: `Variable ${n}`, exact: true });
    await variable(1).getByLabel('Key', { exact: true }).fill('LOG_FORMAT');
    await variable(1).getByLabel('Value', { exact: true }).fill('json');
    await variable(1).getByLabel('Environment variable (otherwise Terraform)').check();
    await variable(2).getByLabel('Key', { exact: true }).fill('drop-me');
    await variable(3).getByLabel('Key', { exact: true }).fill('owner');
    await variable(3).getByLabel('Value', { exact: true }).fill('someone');
    await variable(2).getByRole('button', { name: 'Remove variable 2' }).click();
    assert.equal(await variable(3).count(), 0);
    // "owner" is held by the global set "globals" already: the 422 points at that variable, and links to the set.
    await page.getByRole('button', { name: 'Create set' }).click();
    const ownerKey = variable(2).getByLabel('Key', { exact: true });
    assert.equal(await ownerKey.inputValue(), 'owner');
    assert.match(await fieldError(ownerKey), /conflicts with the global variable set "globals"/);
    assert.equal(
      await variable(2).getByRole('link', { name: 'globals' }).getAttribute('href'),
      `/varsets/${scenario.globalsSetId}`,
    );
    assert.equal(
      (await ui.admin.get(`/api/v2/organizations/${scenario.org}/varsets?q=born-global`)).body.data.length,
      0,
    );

    await ownerKey.fill('team');
    await variable(2).getByLabel('Sensitive (write-only)').check();
    await page.getByRole('button', { name: 'Create set' }).click();
    await confirmImpact(page, 'Create set born-global?');
    await heading(page, 'born-global');
    await statusSays(page, 'Set born-global created with 2 variables');
    const setId = new URL(page.url()).pathname.split('/').pop()!;
    const vars = await ui.admin.get(`/api/v2/varsets/${setId}/relationships/vars`);
    assert.deepEqual(
      vars.body.data
        .map((v: any) => [v.attributes.key, v.attributes.category, v.attributes.value, v.attributes.sensitive])
        .sort(),
      [
        ['LOG_FORMAT', 'env', 'json', false],
        ['team', 'terraform', null, true],
      ],
    );
    expectStatus(await ui.admin.delete(`/api/v2/varsets/${setId}`), 204);
  });

  it('assigns a set to a project through the searchable picker', async () => {
    await page.goto(`${ui.url}/varsets/${scenario.defaultsSetId}`);
    await heading(page, 'defaults');
    await page.getByRole('link', { name: 'Edit set' }).click();
    await heading(page, 'Edit defaults');
    await page.getByRole('group', { name: 'Projects' }).getByLabel('Search projects').fill('co');
    await page.getByRole('group', { name: 'Projects' }).getByRole('button', { name: 'Add core' }).click();
    await page.getByRole('button', { name: 'Save set' }).click();
    await confirmImpact(page, 'Save defaults?');
    await heading(page, 'defaults');
    await page.getByRole('link', { name: 'core' }).first().waitFor();
    await statusSays(page, 'Saved: projects (core added) changed');
    const set = await ui.admin.get(`/api/v2/varsets/${scenario.defaultsSetId}`);
    assert.deepEqual(set.body.data.relationships.projects.data, [{ type: 'projects', id: scenario.coreProjectId }]);
  });

  it('keeps the navigation, naming the organization, on the pages of a set, its form, a workspace and a project', async () => {
    const pages: [string, string | RegExp][] = [
      [`/varsets/${scenario.defaultsSetId}`, 'defaults'],
      [`/varsets/${scenario.defaultsSetId}/edit`, 'Edit defaults'],
      [`/workspaces/${scenario.webWorkspaceId}`, 'Workspace web'],
      [`/projects/${scenario.coreProjectId}`, 'Project core'],
    ];
    for (const [path, title] of pages) {
      await page.goto(`${ui.url}${path}`);
      await heading(page, title);
      const nav = page.getByRole('navigation', { name: 'Organization' });
      await nav.getByRole('link', { name: 'Variable sets' }).waitFor();
      assert.match((await nav.textContent()) ?? '', new RegExp(`Organization ${scenario.org}`), path);
      for (const name of ['Projects', 'Workspaces'])
        assert.equal(await nav.getByRole('link', { name }).count(), 1, `${path}: ${name}`);
    }
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Workspaces' }).click();
    await heading(page, `Workspaces of ${scenario.org}`);
  });

  it("shows a workspace's sets, how they reach it, and what a run gets with what it overrode", async () => {
    await page.goto(`${ui.url}/organizations/${scenario.org}/workspaces`);
    await page.getByRole('list', { name: 'Workspaces' }).getByRole('link', { name: 'web' }).click();
    await heading(page, 'Workspace web');
    const sets = page.getByRole('list', { name: 'Variable sets that apply' });
    await sets.locator('li').filter({ hasText: 'web-settings' }).getByText('Applies directly').waitFor();
    await sets.locator('li').filter({ hasText: 'defaults' }).getByText("Applies through its project 'core'").waitFor();
    await sets
      .locator('li')
      .filter({ hasText: /^globals/ })
      .getByText('Applies global')
      .waitFor();

    const region = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /region/ }) });
    await region.waitFor();
    const text = (await region.textContent()) ?? '';
    assert.match(text, /eu/);
    assert.match(text, /web-settings \(direct\)/);
    const why = region.getByRole('button', { name: 'Why region (terraform)' });
    await why.click();
    const detail = page.locator(`[id="${await why.getAttribute('aria-controls')}"]`);
    assert.match(
      (await detail.textContent()) ?? '',
      /overrides region from set 'defaults', applied to project 'core' \(us\)/,
    );
    const password = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /db_password/ }) });
    assert.match((await password.textContent()) ?? '', /\(sensitive\)/);
  });

  it('says why each effective variable wins, at which level, as the API explains it; folds a long list of overridden values', async () => {
    const explained = await createWorkspace(ui.admin, scenario.org, {
      name: 'explained',
      projectId: scenario.coreProjectId,
    });
    const core = { type: 'projects', id: scenario.coreProjectId };
    const owned = await createVarset(ui.admin, scenario.org, {
      attributes: { name: 'core-owned' },
      parent: core,
      projects: [scenario.coreProjectId],
      vars: [
        { key: 'tier', value: 'owned-tier' },
        { key: 'zone', value: 'owned-zone' },
        { key: 'fold', value: 'owned-fold' },
      ],
    });
    await createVarset(ui.admin, scenario.org, {
      attributes: { name: 'direct-set' },
      workspaces: [explained],
      vars: [
        { key: 'tier', value: 'direct-tier' },
        { key: 'fold', value: 'f0' },
      ],
    });
    await createVarset(ui.admin, scenario.org, {
      attributes: { name: 'enforced', priority: true },
      workspaces: [explained],
      vars: [{ key: 'mode', value: 'forced' }],
    });
    for (const n of [1, 2, 3, 4]) {
      const vars = [
        { key: 'fold', value: `f${n}`, sensitive: n === 4 },
        ...(n <= 2 ? [{ key: 'tie', value: `t${n}` }] : []),
      ];
      await createVarset(ui.admin, scenario.org, { attributes: { name: `fold-${n}` }, workspaces: [explained], vars });
    }
    for (const [key, value] of [
      ['zone', 'ws-zone'],
      ['mode', 'ws-mode'],
    ]) {
      expectStatus(
        await ui.admin.post(`/api/v2/workspaces/${explained}/vars`, {
          data: { type: 'vars', attributes: { key, value, category: 'terraform' } },
        }),
        201,
      );
    }
    const api = await ui.admin.get(`/api/v2/workspaces/${explained}/effective-variables?explain=true`);
    expectStatus(api, 200);
    const answer = (key: string) => api.body.data.find((d: any) => d.attributes.key === key).attributes;

    await page.goto(`${ui.url}/workspaces/${explained}`);
    await heading(page, 'Workspace explained');
    const row = (key: string) =>
      page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${key} `) }) });
    /** A row's "Why", opened. */
    const why = async (key: string) => {
      const button = row(key).getByRole('button', { name: `Why ${key} (terraform)` });
      if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
      return page.locator(`[id="${await button.getAttribute('aria-controls')}"]`);
    };
    // Over a direct set (a set owned by the project beats it), over a project-owned set (a workspace variable), and a priority set's.
    for (const [key, level, decided] of [
      ['tier', 10, 'direct-set'],
      ['zone', 8, 'core-owned'],
      ['mode', 3, 'the workspace'],
    ] as const) {
      const expected = answer(key);
      assert.equal(expected.source.precedence, level, key);
      assert.equal(expected['decided-by'], 'precedence', key);
      await (await why(key)).getByText(expected.reason).waitFor();
      assert.equal(
        await row(key)
          .getByRole('link', { name: `Level ${level}` })
          .textContent(),
        `Level ${level}`,
      );
      assert.match((await (await why(key)).textContent()) ?? '', new RegExp(decided), key);
    }
    assert.match(answer('tier').reason, /beats everything below level 10/);
    assert.match(
      answer('mode').reason,
      /^Level 3 \(a priority set owned by the organization, applied directly to the workspace\) beats everything below level 3/,
    );
    await (
      await why('tie')
    )
      .getByText("a tie between sets of one kind is settled by name, and 'fold-1' sorts first")
      .waitFor();
    // Sets, the project and the workspace are links.
    assert.equal(
      await row('tier').getByRole('link', { name: 'core-owned' }).getAttribute('href'),
      `/varsets/${owned.id}`,
    );
    assert.equal(
      await (await why('zone')).getByRole('link', { name: "project 'core'" }).getAttribute('href'),
      `/projects/${scenario.coreProjectId}`,
    );
    assert.equal(
      await row('zone').getByRole('link', { name: 'this workspace' }).getAttribute('href'),
      `#workspaces-${explained}-variables-title`,
    );

    // Five overridden values of one level: three shown, grouped under their level, the rest behind "Show 2 more".
    const foldWhy = await why('fold');
    const fold = foldWhy.getByRole('list', { name: 'What fold overrides' });
    assert.equal(answer('fold').overridden.length, 5);
    assert.equal(await fold.locator(':scope > li').count(), 1);
    assert.match(
      (await fold.locator(':scope > li').textContent()) ?? '',
      /^Level 11: set owned by the organization, applied directly to the workspace/,
    );
    assert.equal(await fold.locator('li li').count(), 3);
    await foldWhy.getByRole('button', { name: 'Show 2 more' }).click();
    assert.equal(await fold.locator('li li').count(), 5);
    const folded = (await foldWhy.textContent()) ?? '';
    assert.match(folded, /overrides fold from set 'fold-4', applied to the workspace \(sensitive\)/);
    assert.doesNotMatch(folded, /\(\(sensitive\)\)/);
    assert.equal(await foldWhy.getByRole('button', { name: 'Show fewer' }).getAttribute('aria-expanded'), 'true');

    // A level links to its row in the table of levels the API lists.
    await row('zone').getByRole('link', { name: 'Level 8' }).click();
    const levelRow = page.locator('#precedence-level-8');
    await levelRow.waitFor({ state: 'visible' });
    assert.equal(await levelRow.textContent(), `8${api.body.meta.precedence.find((l: any) => l.level === 8).name}`);
  });

  it("opens a workspace's form to add a variable on demand, and closes it again", async () => {
    await page.goto(`${ui.url}/workspaces/${scenario.webWorkspaceId}`);
    await heading(page, 'Workspace web');
    const open = page.getByRole('button', { name: 'Add a variable' });
    await open.waitFor();
    const add = page.getByRole('form', { name: 'Add a variable' });
    assert.equal(await add.count(), 0);
    await open.click();
    await add.waitFor();
    assert.equal(await open.count(), 0);
    assert.equal(
      await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent),
      'Key',
    );
    await add.getByLabel('Key', { exact: true }).fill('build');
    await add.getByLabel('Value', { exact: true }).fill('42');
    await add.getByRole('button', { name: 'Add variable' }).click();
    await statusSays(page, 'Variable build added');
    const vars = await ui.admin.get(`/api/v2/workspaces/${scenario.webWorkspaceId}/vars`);
    assert.deepEqual(
      vars.body.data.map((v: any) => [v.attributes.key, v.attributes.value]),
      [['build', '42']],
    );
    await add.getByRole('button', { name: 'Close' }).click();
    await add.waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Add a variable');
  });

  it('replaces a sensitive value without ever showing it', async () => {
    await page.goto(`${ui.url}/varsets/${webSettingsId}`);
    await heading(page, 'web-settings');
    await page.getByRole('button', { name: 'Edit db_password' }).click();
    const edit = page.getByRole('form', { name: 'Edit variable db_password' });
    assert.equal(await edit.getByLabel('Value', { exact: true }).inputValue(), '');
    // What the API refuses to change on a sensitive variable is locked, with a note saying why.
    for (const label of ['Key', 'HCL (the value is an expression)', 'Sensitive (write-only)'])
      assert.equal(await edit.getByLabel(label, { exact: true }).isDisabled(), true, label);
    assert.equal(await edit.getByLabel('Value', { exact: true }).isDisabled(), false);
    await edit.getByText('A sensitive variable stays sensitive, and keeps its key and HCL flag').waitFor();
    await edit.getByLabel('Value', { exact: true }).fill('second-secret');
    await edit.getByRole('button', { name: 'Save variable' }).click();
    await confirmImpact(page, 'Save variable db_password?');
    await edit.waitFor({ state: 'detached' });
    await statusSays(page, "Variable db_password's value replaced");
    assert.doesNotMatch(await page.content(), /second-secret|first-secret/);

    // The only door a sensitive value leaves through: a run's opened variables, for the token that created the run.
    const runId = await createRunOverHttp(ui.admin, scenario.webWorkspaceId, 'Check the new password');
    const opened = await ui.admin.get(`/api/v2/runs/${runId}/opened-variables`);
    expectStatus(opened, 200);
    assert.equal(
      opened.body.data.find((v: any) => v.attributes.key === 'db_password').attributes.value,
      'second-secret',
    );
  });

  it('shows a run with its stored variables, and adds a comment (an empty one is refused at the field)', async () => {
    const runId = await createRunOverHttp(ui.admin, scenario.webWorkspaceId, 'Plan for the release');
    await page.goto(`${ui.url}/workspaces/${scenario.webWorkspaceId}`);
    await page.getByRole('list', { name: 'Runs' }).getByRole('link', { name: 'Plan for the release' }).click();
    await heading(page, `Run ${runId}`);
    await page.getByText('pending').first().waitFor();
    const region = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /region/ }) });
    assert.match((await region.textContent()) ?? '', /eu/);

    await page.getByLabel('Comment', { exact: true }).fill('   ');
    await page.getByRole('button', { name: 'Add comment' }).click();
    assert.match(await fieldError(page.getByLabel('Comment', { exact: true })), /./);

    await page.getByLabel('Comment', { exact: true }).fill('The plan looks right to me.');
    await page.getByRole('button', { name: 'Add comment' }).click();
    await page.getByRole('list', { name: 'Comments' }).getByText('The plan looks right to me.').waitFor();
    await statusSays(page, 'Comment added');
    const comments = await ui.admin.get(`/api/v2/runs/${runId}/comments`);
    assert.deepEqual(
      comments.body.data.map((c: any) => c.attributes.body),
      ['The plan looks right to me.'],
    );
  });

  it('says what a save changed, and confirms a deleted variable', async () => {
    await page.goto(`${ui.url}/varsets/${scenario.globalsSetId}`);
    await heading(page, 'globals');
    await page.getByRole('button', { name: 'Edit TF_LOG' }).click();
    const edit = page.getByRole('form', { name: 'Edit variable TF_LOG' });
    await edit.getByLabel('Value', { exact: true }).fill('debug');
    await edit.getByLabel('Description', { exact: true }).fill('Louder logs');
    await edit.getByRole('button', { name: 'Save variable' }).click();
    await confirmImpact(page, 'Save variable TF_LOG?');
    await statusSays(page, 'Saved: TF_LOG changed (value, description)');

    const add = page.getByRole('form', { name: 'Add a variable' });
    await add.getByLabel('Key', { exact: true }).fill('scratch');
    await add.getByLabel('Value', { exact: true }).fill('1');
    await add.getByRole('button', { name: 'Add variable' }).click();
    await confirmImpact(page, 'Add variable scratch?');
    await statusSays(page, 'Variable scratch added');
    await page.getByRole('button', { name: 'Delete scratch' }).click();
    await page
      .getByRole('dialog', { name: 'Delete variable scratch?' })
      .getByRole('button', { name: 'Delete variable' })
      .click();
    await statusSays(page, 'Variable scratch deleted');
    const vars = await ui.admin.get(`/api/v2/varsets/${scenario.globalsSetId}/relationships/vars`);
    assert.deepEqual(vars.body.data.map((v: any) => [v.attributes.key, v.attributes.value]).sort(), [
      ['TF_LOG', 'debug'],
      ['owner', 'platform'],
    ]);
  });

  it("offers no edit controls to a token that may read but not write, not even at a form's typed address", async () => {
    const reader = await teamWithToken(ui.admin, scenario.org, { 'organization-access': { 'read-workspaces': true } });
    const readerContext = await browser.newContext();
    try {
      const readerPage = await readerContext.newPage();
      readerPage.setDefaultTimeout(15_000);
      await signIn(readerPage, ui.url, reader.token);
      await heading(readerPage, `Variable sets of ${scenario.org}`);
      await readerPage.goto(`${ui.url}/organizations/${scenario.org}/varsets`);
      await readerPage.getByRole('list', { name: 'Variable sets' }).getByRole('link', { name: 'web-settings' }).click();
      await heading(readerPage, 'web-settings');
      await readerPage.locator('.variable').filter({ hasText: 'region' }).waitFor();
      for (const name of ['Edit set', 'Delete set', 'New variable set'])
        assert.equal(
          (await readerPage.getByRole('link', { name }).count()) +
            (await readerPage.getByRole('button', { name }).count()),
          0,
          name,
        );
      assert.equal(await readerPage.getByRole('button', { name: 'Edit region' }).count(), 0);
      assert.equal(await readerPage.getByRole('form', { name: 'Add a variable' }).count(), 0);

      await readerPage.goto(`${ui.url}/workspaces/${scenario.webWorkspaceId}`);
      await heading(readerPage, 'Workspace web');
      await readerPage.getByRole('heading', { name: 'What a run gets' }).waitFor();
      assert.equal(await readerPage.getByRole('form', { name: 'Add a variable' }).count(), 0);
      assert.equal(await readerPage.getByRole('button', { name: 'Add a variable' }).count(), 0);

      // Typed into the address bar: no form to fill in, and the page says what the token may not do.
      await readerPage.goto(`${ui.url}/varsets/${webSettingsId}/edit`);
      await heading(readerPage, 'Edit web-settings');
      await readerPage.getByText('This token may not change or delete the variable set web-settings').waitFor();
      await readerPage.goto(`${ui.url}/organizations/${scenario.org}/varsets/new`);
      await heading(readerPage, /New variable set/);
      await readerPage.getByText(`This token may not create variable sets in ${scenario.org}.`).waitFor();
      for (const path of [`/varsets/${webSettingsId}/edit`, `/organizations/${scenario.org}/varsets/new`]) {
        await readerPage.goto(`${ui.url}${path}`);
        await readerPage.getByText(/This token may not/).waitFor();
        assert.equal(
          await readerPage
            .locator('main form input:enabled, main form textarea:enabled, main form button:enabled')
            .count(),
          0,
          path,
        );
      }
    } finally {
      await readerContext.close();
    }
  });

  it('calls a project the token cannot see so, instead of showing its id', async () => {
    const secretProjectId = await createProject(ui.admin, scenario.org, 'secret');
    expectStatus(
      await ui.admin.post(`/api/v2/varsets/${webSettingsId}/relationships/projects`, {
        data: [{ type: 'projects', id: secretProjectId }],
      }),
      204,
    );
    const webReader = await teamWithToken(ui.admin, scenario.org);
    await grantWorkspace(ui.admin, webReader.teamId, scenario.webWorkspaceId, { access: 'read' });
    const readerContext = await browser.newContext();
    try {
      const readerPage = await readerContext.newPage();
      readerPage.setDefaultTimeout(15_000);
      await signIn(readerPage, `${ui.url}/varsets/${webSettingsId}`, webReader.token);
      await heading(readerPage, 'web-settings');
      const applies = readerPage.getByRole('region', { name: 'Where it applies' });
      await applies.getByText('a project you cannot see').waitFor();
      assert.doesNotMatch((await applies.textContent()) ?? '', new RegExp(secretProjectId));
    } finally {
      await readerContext.close();
    }
  });

  it("counts a set's variables in words in the delete dialog", async () => {
    const single = await createVarset(ui.admin, scenario.org, { attributes: { name: 'single' } });
    await createVar(ui.admin, single.id, { key: 'only', value: '1', category: 'terraform' });
    for (const [setId, name, words] of [
      [single.id, 'single', 'Its one variable stops applying to every workspace it reaches.'],
      [scenario.globalsSetId, 'globals', 'Its 2 variables stop applying to every workspace it reaches.'],
    ]) {
      await page.goto(`${ui.url}/varsets/${setId}`);
      await heading(page, name);
      await page.getByRole('button', { name: 'Delete set' }).click();
      const dialog = page.getByRole('dialog', { name: `Delete ${name}?` });
      await dialog.getByText(words).waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
    }
    expectStatus(await ui.admin.delete(`/api/v2/varsets/${single.id}`), 204);
  });

  it('deletes a set with the keyboard alone, through a confirmation dialog that holds and returns focus', async () => {
    await page.goto(`${ui.url}/organizations/${scenario.org}/varsets?q=more`);
    await page.getByRole('list', { name: 'Variable sets' }).getByRole('link', { name: 'more-globals' }).focus();
    await page.keyboard.press('Enter');
    await heading(page, 'more-globals');
    const setId = new URL(page.url()).pathname.split('/').pop()!;
    const deleteButton = page.getByRole('button', { name: 'Delete set' });
    await deleteButton.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Delete more-globals?' });
    await dialog.waitFor();
    assert.match((await dialog.textContent()) ?? '', /It holds no variables, so no workspace loses a value\./);
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Cancel');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Delete set');
    assert.equal((await ui.admin.get(`/api/v2/varsets/${setId}`)).status, 200);

    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Tab');
    assert.equal(
      await page.evaluate(
        () => document.activeElement?.closest('dialog') !== null && document.activeElement?.textContent,
      ),
      'Delete set',
    );
    await page.keyboard.press('Enter');
    await heading(page, `Variable sets of ${scenario.org}`);
    await statusSays(page, 'Set more-globals deleted');
    assert.equal((await ui.admin.get(`/api/v2/varsets/${setId}`)).status, 404);
    // The message belongs to the moment: leaving the list and coming back does not repeat it.
    await page.getByRole('list', { name: 'Variable sets' }).getByRole('link', { name: 'globals' }).click();
    await heading(page, 'globals');
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Variable sets' }).click();
    await heading(page, `Variable sets of ${scenario.org}`);
    assert.equal((await page.getByRole('status').textContent())?.trim(), '');
  });

  it('shows no pager when a list fits on one page or is empty', async () => {
    await page.goto(`${ui.url}/organizations/${scenario.org}/varsets`);
    await page.getByRole('list', { name: 'Variable sets' }).getByRole('link', { name: 'defaults' }).waitFor();
    assert.equal(await page.getByRole('navigation', { name: 'Variable sets pages' }).count(), 0);
    await page.goto(`${ui.url}/organizations/${scenario.org}/varsets?q=no-such-set`);
    await page.getByText("No set's name contains “no-such-set”.").waitFor();
    assert.equal(await page.getByRole('navigation', { name: 'Variable sets pages' }).count(), 0);
    await page.goto(`${ui.url}/organizations/${scenario.org}/projects?q=no-such-project`);
    await heading(page, `Projects of ${scenario.org}`);
    await page.getByText('None.').waitFor();
    assert.equal(await page.getByRole('navigation', { name: 'Projects pages' }).count(), 0);
  });

  it('searches the sets as you type, once typing pauses, keeping the search in the URL for the back button', async () => {
    await page.goto(`${ui.url}/organizations/${scenario.org}/varsets`);
    const sets = page.getByRole('list', { name: 'Variable sets' });
    await sets.getByRole('link', { name: 'defaults' }).waitFor();
    const entries = await page.evaluate(() => history.length);
    const search = page.getByLabel('Search sets by name');
    await search.pressSequentially('glob', { delay: 40 });
    await page.waitForURL((url) => url.searchParams.get('q') === 'glob');
    await sets.getByRole('link', { name: 'defaults' }).waitFor({ state: 'detached' });
    await sets.getByRole('link', { name: 'globals' }).waitFor();
    // One search for the four keys typed, not one each.
    assert.equal(await page.evaluate(() => history.length), entries + 1);
    await search.fill('core');
    await page.waitForURL((url) => url.searchParams.get('q') === 'core');
    await sets.getByRole('link', { name: 'core-owned' }).waitFor();

    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('q') === 'glob');
    await sets.getByRole('link', { name: 'globals' }).waitFor();
    assert.equal(await search.inputValue(), 'glob');
    await page.goBack();
    await page.waitForURL((url) => !url.searchParams.has('q'));
    await sets.getByRole('link', { name: 'defaults' }).waitFor();
    assert.equal(await search.inputValue(), '');
  });

  it('shows the sets as a table, sorted by a column and filtered to global, priority or project-owned sets, all kept in the URL', async () => {
    const listed = await ui.admin.get(`/api/v2/organizations/${scenario.org}/varsets?page%5Bsize%5D=20`);
    expectStatus(listed, 200);
    const all: any[] = listed.body.data;
    assert.ok(all.length > 5 && listed.body.meta.pagination['total-pages'] === 1);
    await page.goto(`${ui.url}/organizations/${scenario.org}/varsets`);
    await page.getByRole('button', { name: 'Table view' }).click();
    await page.waitForURL((url) => url.searchParams.get('view') === 'table');
    await attributeBecomes(page.getByRole('button', { name: 'Table view' }), 'aria-pressed', 'true');
    const table = page.getByRole('table', { name: 'Variable sets' });
    const names = async () => table.locator('tbody th a[href^="/varsets/"]').allTextContents();
    /** Waits for the table's names to become `expected` (the table follows the URL's change). */
    const namesBecome = async (expected: string[]) => {
      for (let tries = 0; tries < 50 && JSON.stringify(await names()) !== JSON.stringify(expected); tries++)
        await page.waitForTimeout(100);
      assert.deepEqual(await names(), expected);
    };
    await table.getByRole('link', { name: 'defaults' }).waitFor();
    await namesBecome(all.map((v) => v.attributes.name));

    const header = (name: string) => table.getByRole('columnheader', { name: new RegExp(`^${name}`) });
    await header('Variables').getByRole('button').click();
    await page.waitForURL((url) => url.searchParams.get('sort') === 'variables');
    await attributeBecomes(header('Variables'), 'aria-sort', 'ascending');
    const byVariables = [...all].sort(
      (a, b) =>
        a.attributes['var-count'] - b.attributes['var-count'] || a.attributes.name.localeCompare(b.attributes.name),
    );
    await namesBecome(byVariables.map((v) => v.attributes.name));
    await header('Variables').getByRole('button').click();
    await page.waitForURL((url) => url.searchParams.get('sort') === '-variables');
    await attributeBecomes(header('Variables'), 'aria-sort', 'descending');
    await namesBecome(
      [...all]
        .sort(
          (a, b) =>
            b.attributes['var-count'] - a.attributes['var-count'] || a.attributes.name.localeCompare(b.attributes.name),
        )
        .map((v) => v.attributes.name),
    );
    await header('Name').getByRole('button').click();
    await page.waitForURL((url) => url.searchParams.get('sort') === 'name');
    await namesBecome(all.map((v) => v.attributes.name).sort((a, b) => a.localeCompare(b)));
    await attributeBecomes(header('Variables'), 'aria-sort', null);
    await header('Scope').getByRole('button').click();
    await page.waitForURL((url) => url.searchParams.get('sort') === 'scope');
    const scope = (v: any) => (v.attributes.global ? -1 : v.attributes['project-count']);
    await namesBecome(
      [...all]
        .sort((a, b) => scope(a) - scope(b) || a.attributes.name.localeCompare(b.attributes.name))
        .map((v) => v.attributes.name),
    );
    await header('Updated').getByRole('button').click();
    await page.waitForURL((url) => url.searchParams.get('sort') === 'updated');
    await header('Updated').getByRole('button').click();
    await page.waitForURL((url) => url.searchParams.get('sort') === '-updated');
    await namesBecome(
      [...all]
        .sort(
          (a, b) =>
            b.attributes['updated-at'].localeCompare(a.attributes['updated-at']) ||
            a.attributes.name.localeCompare(b.attributes.name),
        )
        .map((v) => v.attributes.name),
    );

    const filters = page.getByRole('group', { name: 'Show only sets that are' });
    // A filter's box shows what the URL says: each click is followed by the URL's change.
    await filters.getByLabel('Global').click();
    await page.waitForURL((url) => url.searchParams.has('global'));
    await namesBecome(
      all
        .filter((v) => v.attributes.global)
        .map((v) => v.attributes.name)
        .sort(),
    );
    await filters.getByLabel('Global').click();
    await page.waitForURL((url) => !url.searchParams.has('global'));
    await filters.getByLabel('Priority').click();
    await page.waitForURL((url) => url.searchParams.has('priority') && !url.searchParams.has('global'));
    await namesBecome(['enforced']);
    await filters.getByLabel('Priority').click();
    await page.waitForURL((url) => !url.searchParams.has('priority'));
    await filters.getByLabel('Owned by a project').click();
    await page.waitForURL((url) => url.searchParams.has('owned') && !url.searchParams.has('priority'));
    await namesBecome(['core-owned']);
    await filters.getByLabel('Priority').click();
    await page.getByText('No set passes the filters.').waitFor();

    // Reloaded, the URL brings back the view, the sort and the filters.
    await page.reload();
    await page.getByText('No set passes the filters.').waitFor();
    assert.equal(await filters.getByLabel('Owned by a project').isChecked(), true);
    await page.goBack();
    await table.getByRole('link', { name: 'core-owned' }).waitFor();
  });

  it('signs out, forgetting the token; a token the server stops accepting signs out too', async () => {
    await page.goto(`${ui.url}/organizations/${scenario.org}/varsets`);
    await heading(page, `Variable sets of ${scenario.org}`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await heading(page, 'Sign in');
    assert.equal(await page.evaluate(() => sessionStorage.getItem('varsetd.token')), null);

    await page.evaluate(() => sessionStorage.setItem('varsetd.token', 'revoked-or-expired-token-0000000000'));
    await page.goto(`${ui.url}/organizations/${scenario.org}/varsets`);
    await heading(page, 'Sign in');
    assert.equal(await page.evaluate(() => sessionStorage.getItem('varsetd.token')), null);

    // Signing in again with the keyboard alone: Tab to the field, type, Enter.
    for (let i = 0; i < 5 && (await page.evaluate(() => document.activeElement?.id)) !== 'token'; i++)
      await page.keyboard.press('Tab');
    await page.keyboard.type(ADMIN_TOKEN_FOR_UI);
    await page.keyboard.press('Enter');
    await heading(page, `Variable sets of ${scenario.org}`);
  });

  it('links to the API reference, which renders the OpenAPI document from varsetd alone, with no script error or CSP violation', async () => {
    const docsContext = await browser.newContext();
    const problems: string[] = [];
    const outside: string[] = [];
    try {
      // Every request is let through only to varsetd itself; any other is refused and noted.
      await docsContext.route('**/*', (route) => {
        const url = new URL(route.request().url());
        if (url.protocol === 'data:' || url.hostname === '127.0.0.1') return route.continue();
        outside.push(url.href);
        return route.abort('blockedbyclient');
      });
      await docsContext.exposeFunction('reportViolation', (text: string) => problems.push(`CSP violation: ${text}`));
      await docsContext.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          (window as unknown as { reportViolation(text: string): void }).reportViolation(
            `${event.violatedDirective} ${event.blockedURI}`,
          );
        });
      });
      const docsPage = await docsContext.newPage();
      docsPage.setDefaultTimeout(15_000);
      docsPage.on('pageerror', (error) => problems.push(error.message));
      docsPage.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      docsPage.on('requestfailed', (request) => problems.push(`${request.url()}: ${request.failure()?.errorText}`));

      // Signed out, the footer's link is there all the same: the reference needs no token.
      await docsPage.goto(ui.url);
      await heading(docsPage, 'Sign in');
      await docsPage.getByRole('link', { name: 'API reference' }).click();
      await docsPage.waitForURL(`${ui.url}/api/docs`);
      await docsPage.getByRole('heading', { name: /^varsetd/ }).waitFor();
      const operation = docsPage
        .locator('.opblock')
        .filter({ has: docsPage.getByText('/api/v2/varsets/{id}', { exact: true }) })
        .first();
      await operation.waitFor();
      await operation.locator('.opblock-summary-control').click();
      await operation.getByRole('heading', { name: 'Parameters' }).waitFor();
      assert.equal(await docsPage.title(), 'varsetd API reference');
      assert.deepEqual(outside, []);
      assert.deepEqual(problems, []);
    } finally {
      await docsContext.close();
    }
  });

  it('logged no script error and no Content-Security-Policy violation on any page', () => {
    assert.deepEqual(scriptErrors, []);
  });
});
