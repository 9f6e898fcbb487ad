/**
 * The pictures of the web UI in docs/web-ui.md: `node --import tsx scripts/screenshots.ts` starts varsetd
 * on a fresh store, seeds an example organization through the API, and has Debian's headless
 * Chromium (scripts/chromium.sh) save PNGs of the main pages into docs/screenshots/.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { ownersTeam, teamToken } from '../test/support/factories/access.js';
import { createRunOverHttp } from '../test/support/factories/runs.js';
import { assign, createVar, createVarset } from '../test/support/factories/varsets.js';
import { ROOT } from '../test/support/processes.js';
import { ADMIN_TOKEN, expectStatus } from '../test/support/requests.js';
import { launchChromium, seedScenario, startUiServer } from '../test/support/ui.js';

const OUT = path.join(ROOT, 'docs', 'screenshots');

const ui = await startUiServer();
const browser = await launchChromium();
try {
  const scenario = await seedScenario(ui.admin, 'acme');
  await assign(ui.admin, scenario.defaultsSetId, 'projects', [scenario.coreProjectId]);
  const web = await createVarset(ui.admin, scenario.org, {
    attributes: { name: 'web-settings', description: 'What the web workspace needs' },
    workspaces: [scenario.webWorkspaceId],
  });
  await createVar(ui.admin, web.id, { key: 'region', value: 'eu', category: 'terraform' });
  await createVar(ui.admin, web.id, { key: 'db_password', value: 'not-shown', category: 'terraform', sensitive: true });
  // A history to show: an update by the owners' CI token, a sensitive value replaced, a change taken back by a rollback.
  const ownersCi = {
    token: await teamToken(ui.admin, await ownersTeam(ui.admin, scenario.org), { description: 'CI' }),
  };
  expectStatus(
    await ui.admin.patch(
      `/api/v2/varsets/${web.id}`,
      { data: { type: 'varsets', attributes: { description: 'What the web workspace needs, in eu' } } },
      ownersCi,
    ),
    200,
  );
  const password = (await ui.admin.get(`/api/v2/varsets/${web.id}/relationships/vars`)).body.data.find(
    (v: { attributes: { key: string } }) => v.attributes.key === 'db_password',
  );
  expectStatus(
    await ui.admin.patch(
      `/api/v2/varsets/${web.id}/relationships/vars/${password.id}`,
      { data: { type: 'vars', attributes: { value: 'rotated' } } },
      ownersCi,
    ),
    200,
  );
  const beforePriority = (await ui.admin.get(`/api/v2/varsets/${web.id}/versions?page%5Bsize%5D=1`)).body.data[0].id;
  expectStatus(
    await ui.admin.patch(`/api/v2/varsets/${web.id}`, { data: { type: 'varsets', attributes: { priority: true } } }),
    200,
  );
  expectStatus(
    await ui.admin.post(
      `/api/v2/varsets/${web.id}/actions/rollback`,
      { data: { type: 'varset-versions', id: beforePriority } },
      ownersCi,
    ),
    200,
  );
  const priority = await createVarset(ui.admin, scenario.org, {
    attributes: { name: 'security-baseline', priority: true, global: true, description: 'Wins over everything' },
  });
  await createVar(ui.admin, priority.id, { key: 'encrypt_volumes', value: 'true', category: 'terraform', hcl: true });
  const runId = await createRunOverHttp(ui.admin, scenario.webWorkspaceId, 'Release 1.4');
  expectStatus(
    await ui.admin.post(`/api/v2/runs/${runId}/comments`, {
      data: { type: 'comments', attributes: { body: 'Region moved to eu for the release: looks right.' } },
    }),
    201,
  );

  fs.mkdirSync(OUT, { recursive: true });
  const shoot = async (
    name: string,
    url: string,
    ready: (page: Page) => Promise<unknown>,
    options: BrowserContextOptions = {},
  ) => {
    const context = await browser.newContext({
      viewport: { width: 1100, height: 760 },
      colorScheme: 'light',
      ...options,
    });
    await context.addInitScript((token) => {
      if (!location.search.includes('signed-out')) sessionStorage.setItem('varsetd.token', token);
    }, ADMIN_TOKEN);
    const page = await context.newPage();
    await page.goto(`${ui.url}${url}`);
    await ready(page);
    await page.screenshot({ path: path.join(OUT, `${name}.png`) });
    await context.close();
    console.log(`docs/screenshots/${name}.png`);
  };
  await shoot('sign-in', '/?signed-out', (page) => page.getByLabel('API token').waitFor(), {
    viewport: { width: 800, height: 420 },
  });
  await shoot('sets', `/organizations/${scenario.org}/varsets`, (page) =>
    page.getByRole('link', { name: 'New variable set' }).waitFor(),
  );
  await shoot(
    'sets-table',
    `/organizations/${scenario.org}/varsets?view=table&sort=name`,
    (page) => page.getByRole('table', { name: 'Variable sets' }).waitFor(),
    {
      viewport: { width: 1100, height: 520 },
    },
  );
  await shoot('set', `/varsets/${web.id}`, async (page) => {
    await page.getByText('Sensitive: write-only, never shown').waitFor();
    await page.getByRole('link', { name: 'Edit set' }).waitFor();
  });
  await shoot(
    'history',
    `/varsets/${web.id}/history`,
    async (page) => {
      await page.getByRole('listitem', { name: 'Version 1', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Restore this version' }).first().waitFor();
    },
    { viewport: { width: 1100, height: 1000 } },
  );
  await shoot(
    'history-restore',
    `/varsets/${web.id}/history`,
    async (page) => {
      await page
        .getByRole('listitem', { name: 'Version 3', exact: true })
        .getByRole('button', { name: 'Restore this version' })
        .click();
      await page.getByRole('list', { name: 'What restoring changes' }).waitFor();
    },
    { viewport: { width: 1100, height: 620 } },
  );
  await shoot(
    'save-preview',
    `/varsets/${scenario.globalsSetId}`,
    async (page) => {
      await page.getByRole('button', { name: 'Edit owner' }).click();
      const edit = page.getByRole('form', { name: 'Edit variable owner' });
      await edit.getByLabel('Value', { exact: true }).fill('infra');
      await edit.getByRole('button', { name: 'Save variable' }).click();
      await page.getByRole('list', { name: 'Affected workspaces' }).waitFor();
    },
    { viewport: { width: 1100, height: 620 } },
  );
  // The workspace's own variables: one a priority set overrides, one long value.
  for (const [key, value] of [
    ['encrypt_volumes', 'false'],
    ['allowed_cidrs', JSON.stringify(['10.0.0.0/16', '10.1.0.0/16', '10.2.0.0/16', '10.3.0.0/16', '10.4.0.0/16'])],
  ]) {
    expectStatus(
      await ui.admin.post(`/api/v2/workspaces/${scenario.webWorkspaceId}/vars`, {
        data: { type: 'vars', attributes: { key, value, category: 'terraform', hcl: true } },
      }),
      201,
    );
  }
  await shoot(
    'workspace',
    `/workspaces/${scenario.webWorkspaceId}`,
    async (page) => {
      await page.getByRole('table', { name: /^What a run gets/ }).waitFor();
      await page.getByRole('button', { name: 'Why region (terraform)' }).click();
      await page.getByText(/overrides region from set 'defaults', applied to project 'core'/).waitFor();
      await page.getByText('Overwritten', { exact: true }).waitFor();
    },
    { viewport: { width: 1100, height: 1250 } },
  );
  await shoot(
    'run',
    `/runs/${runId}`,
    async (page) => {
      await page.getByText('Region moved to eu').waitFor();
      await page
        .getByText(/applied to project 'core'/)
        .first()
        .waitFor();
    },
    { colorScheme: 'dark' },
  );
  await shoot(
    'audit-trail',
    `/organizations/${scenario.org}/audit-trail`,
    (page) => page.getByRole('table', { name: 'Audit events' }).waitFor(),
    {
      viewport: { width: 1100, height: 900 },
    },
  );
  await shoot(
    'key-search',
    `/organizations/${scenario.org}/varsets?key=region`,
    (page) => page.getByRole('link', { name: 'defaults' }).waitFor(),
    { viewport: { width: 1100, height: 560 } },
  );
  await shoot(
    'undo',
    `/varsets/${scenario.defaultsSetId}`,
    async (page) => {
      await page.getByRole('button', { name: 'Delete instance_type' }).click();
      await page
        .getByRole('dialog', { name: 'Delete variable instance_type?' })
        .getByRole('button', { name: 'Delete variable' })
        .click();
      await page.getByRole('button', { name: 'Undo' }).waitFor();
    },
    { viewport: { width: 1100, height: 620 } },
  );
  const retired = await createVarset(ui.admin, scenario.org, {
    attributes: { name: 'legacy-network', description: 'Replaced by network-v2' },
    workspaces: [scenario.webWorkspaceId],
    vars: [{ key: 'vpc_cidr', value: '10.9.0.0/16' }],
  });
  expectStatus(await ui.admin.delete(`/api/v2/varsets/${retired.id}`), 204);
  await shoot(
    'deleted-sets',
    `/organizations/${scenario.org}/deleted-varsets`,
    (page) => page.getByRole('table', { name: 'Deleted sets' }).getByRole('link', { name: 'legacy-network' }).waitFor(),
    { viewport: { width: 1100, height: 480 } },
  );
  await shoot(
    'import-export',
    `/organizations/${scenario.org}/import-export`,
    (page) => page.getByRole('button', { name: 'Dry run' }).waitFor(),
    { viewport: { width: 1100, height: 900 } },
  );
  await shoot(
    'sets-narrow-dark',
    `/organizations/${scenario.org}/varsets`,
    (page) => page.getByRole('link', { name: 'New variable set' }).waitFor(),
    {
      viewport: { width: 390, height: 760 },
      colorScheme: 'dark',
    },
  );
} finally {
  await browser.close();
  await ui.stop();
}
