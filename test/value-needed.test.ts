import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../src/db/connect.js';
import { runVarsetd, startServerProcess, varsetdEnv, type ServerProcess } from './support/processes.js';
import { ADMIN_TOKEN, expectStatus, httpClient, type Client } from './support/requests.js';
import { createOrganization, createWorkspace } from './support/factories/organizations.js';
import { createVarset } from './support/factories/varsets.js';
import { createTestStore, storeKind, type TestStore } from './support/store.js';

/**
 * A sensitive variable that needs a value, as an import leaves one (its flag set here in the
 * store): the API, effective variables and `varsetd exec` say so, and writing a value ends it.
 */
describe(`a variable that needs a value (${storeKind})`, () => {
  let store: TestStore;
  let server: ServerProcess;
  let c: Client;
  let workspaceId: string;
  let varsetId: string;
  let variableId: string;
  let dir: string;
  const exec = (...args: string[]) =>
    runVarsetd(['exec', '--workspace', 'acme/web', '--dir', dir, ...args], {
      ...process.env,
      VARSETD_ADDRESS: server.url,
      VARSETD_TOKEN: ADMIN_TOKEN,
    });

  before(async () => {
    store = await createTestStore();
    server = await startServerProcess(varsetdEnv(store, { VARSETD_ADMIN_TOKEN: ADMIN_TOKEN }));
    c = httpClient(server.url);
    await createOrganization(c, 'acme');
    workspaceId = await createWorkspace(c, 'acme', { name: 'web' });
    const set = await createVarset(c, 'acme', {
      attributes: { name: 'cloud', global: true },
      vars: [
        { key: 'TOKEN', category: 'env', sensitive: true },
        { key: 'region', value: 'eu' },
      ],
    });
    varsetId = set.id;
    const vars = (await c.get(`/api/v2/varsets/${varsetId}/relationships/vars`)).body.data as {
      id: string;
      attributes: { key: string };
    }[];
    variableId = vars.find((v) => v.attributes.key === 'TOKEN')!.id;
    const opened = await openStore(store);
    try {
      await opened.db
        .updateTable('varset_variables')
        .set({ value_needed: true })
        .where('id', '=', variableId)
        .execute();
    } finally {
      await opened.close();
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-needed-'));
    fs.writeFileSync(path.join(dir, 'main.tf'), '');
  });
  after(async () => {
    try {
      await server.stop();
    } finally {
      await store.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is shown by the variable, the workspace variables and effective-variables', async () => {
    const variable = await c.get(`/api/v2/varsets/${varsetId}/relationships/vars/${variableId}`);
    expectStatus(variable, 200);
    assert.equal(variable.body.data.attributes['value-needed'], true);
    assert.equal(variable.body.data.attributes.value, null);
    const effective = await c.get(`/api/v2/workspaces/${workspaceId}/effective-variables`);
    expectStatus(effective, 200);
    const byKey = new Map(
      (effective.body.data as { attributes: Record<string, unknown> }[]).map((v) => [v.attributes.key, v.attributes]),
    );
    assert.equal(byKey.get('TOKEN')!['value-needed'], true);
    assert.equal('value-needed' in byKey.get('region')!, false, 'a variable with its value says nothing');
    const all = await c.get(`/api/v2/workspaces/${workspaceId}/all-vars`);
    expectStatus(all, 200);
    assert.equal(
      (all.body.data as { attributes: Record<string, unknown> }[]).find((v) => v.attributes.key === 'TOKEN')!
        .attributes['value-needed'],
      true,
    );
  });

  it('makes varsetd exec refuse to run, naming it, and its dry run show it', async () => {
    const dry = await exec('--dry-run', '--', 'true');
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /^ {2}TOKEN=\(sensitive, needs a value\)$/m);
    const refused = await exec('--', 'node', '-e', 'process.exit(0)');
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr, 'varsetd exec: these variables need a value before a run can use them: env TOKEN\n');
    const runs = await c.get(`/api/v2/workspaces/${workspaceId}/runs`);
    assert.equal(runs.body.data.length, 0, 'no run was created');
  });

  it('ends once a value is written through the API, which exec then runs with', async () => {
    const filled = await c.patch(`/api/v2/varsets/${varsetId}/relationships/vars/${variableId}`, {
      data: { type: 'vars', attributes: { value: 's3cr3t-filled' } },
    });
    expectStatus(filled, 200);
    assert.equal('value-needed' in filled.body.data.attributes, false);
    const ran = await exec('--', 'node', '-e', 'process.exit(process.env.TOKEN === "s3cr3t-filled" ? 0 : 3)');
    assert.equal(ran.code, 0, ran.stderr);
    assert.doesNotMatch(ran.stdout + ran.stderr, /s3cr3t-filled/);
  });
});
