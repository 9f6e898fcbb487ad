import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { organizationToken, teamWithToken } from './support/factories/access.js';
import { createOrganization } from './support/factories/organizations.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';
import { closeSignedInUi, heading, openSignedInUi, signIn, type Scenario, type UiServer } from './support/ui.js';

/** The organization's "Import and export" page: the export's downloads, and an import's dry run, report and apply. */

describe(`the import and export page, in Chromium (${storeKind})`, () => {
  let ui: UiServer;
  let browser: Browser;
  let page: Page;
  let scenario: Scenario;
  const scriptErrors: string[] = [];

  before(async () => {
    ({ browser, ui, page, scenario } = await openSignedInUi(scriptErrors));
  });

  after(() => closeSignedInUi({ browser, ui }));

  it('downloads an export, dry-runs it into another organization, reads the report, imports, and sees the sets', async () => {
    await page
      .getByRole('navigation', { name: 'Organization' })
      .getByRole('link', { name: 'Import and export' })
      .click();
    await heading(page, `Import and export for ${scenario.org}`);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download export (JSON)' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), `${scenario.org}-varsets.json`);
    const file = await download.path();
    const downloaded = fs.readFileSync(file, 'utf8');
    const api = await ui.admin.get(`/api/v2/organizations/${scenario.org}/varset-export`);
    expectStatus(api, 200);
    assert.deepEqual(JSON.parse(downloaded), api.body);
    const [terraform] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download export (Terraform)' }).click(),
    ]);
    assert.match(fs.readFileSync(await terraform.path(), 'utf8'), /resource "tfe_variable_set"/);

    const target = await createOrganization(ui.admin);
    await page.goto(`${ui.url}/organizations/${target}/import-export`);
    await heading(page, `Import and export for ${target}`);
    await page.getByLabel('Export file', { exact: true }).setInputFiles(file);
    // Keyboard only: the dry run from its button, with Enter.
    const dryRun = page.getByRole('button', { name: 'Dry run' });
    // The file is read in the page before the button turns on.
    await dryRun.and(page.locator(':enabled')).waitFor();
    await dryRun.focus();
    await page.keyboard.press('Enter');
    const report = page.getByRole('heading', { level: 3, name: 'Dry run report: nothing was written' });
    await report.waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'import-report-heading');
    const table = page.getByRole('table', { name: 'What the import would do' });
    const rows = (await table.locator('tbody tr').allInnerTexts()).map((row) => row.replace(/\s+/g, ' ').trim());
    assert.ok(rows.includes('Set defaults created'), rows.join('\n'));
    assert.ok(rows.includes('Set globals created'), rows.join('\n'));
    assert.ok(
      rows.some((row) => /^Variable of defaults region \(terraform\) created/.test(row)),
      rows.join('\n'),
    );
    assert.match(
      (await page.getByText(/^From uploaded export/).textContent()) ?? '',
      /: 6 created, 0 updated, 0 unchanged, 0 skipped, 0 removed\.$/,
    );
    const none = await ui.admin.get(`/api/v2/organizations/${target}/varsets`);
    assert.equal(none.body.data.length, 0);

    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('heading', { level: 3, name: 'Import report' }).waitFor();
    await page.getByRole('table', { name: 'What the import did' }).waitFor();

    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Variable sets' }).click();
    await heading(page, `Variable sets of ${target}`);
    await page.getByRole('link', { name: 'defaults' }).waitFor();
    await page.getByRole('link', { name: 'globals' }).waitFor();
    assert.deepEqual(scriptErrors, []);
  });

  it("offers the import to the organization's token, which may import though it may not update the organization, and not to a member", async () => {
    const notice = "Only the organization's owners may import into it.";
    const pageFor = async (token: string) => {
      const context = await browser.newContext();
      const opened = await context.newPage();
      await signIn(opened, `${ui.url}/organizations/${scenario.org}/import-export`, token);
      await heading(opened, `Import and export for ${scenario.org}`);
      return opened;
    };
    const organization = await pageFor(await organizationToken(ui.admin, scenario.org));
    await organization.getByRole('button', { name: 'Dry run' }).waitFor();
    await organization
      .getByRole('navigation', { name: 'Organization' })
      .getByRole('link', { name: 'Deleted sets' })
      .waitFor();
    assert.equal(await organization.getByText(notice).count(), 0);
    await organization.context().close();

    const member = await pageFor((await teamWithToken(ui.admin, scenario.org, { visibility: 'organization' })).token);
    await member.getByText(notice).waitFor();
    assert.equal(
      await member
        .getByRole('navigation', { name: 'Organization' })
        .getByRole('link', { name: 'Deleted sets' })
        .count(),
      0,
    );
    await member.context().close();
  });
});
