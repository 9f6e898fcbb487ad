import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../src/db/connect.js';
import { replaceSealedValue, SEALED_COLUMNS } from '../src/secrets/store.js';
import { runVarsetd, startServerProcess, varsetdEnv, type ServerProcess } from './support/processes.js';
import { ADMIN_TOKEN, expectStatus, httpClient, type Client } from './support/requests.js';
import { createOrganization, createWorkspace } from './support/factories/organizations.js';
import { createVarset, listVersions } from './support/factories/varsets.js';
import { createTestStore, storeKind, type TestStore } from './support/store.js';
import { TestApp } from './support/app.js';

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

  it('comes back with a rollback to before the value, which goes again with a rollback to after it', async () => {
    const versions = async () => new Map((await listVersions(c, varsetId)).map((v) => [v.attributes.number, v]));
    const rollback = async (number: number) =>
      expectStatus(
        await c.post(`/api/v2/varsets/${varsetId}/actions/rollback`, {
          data: { type: 'varset-versions', id: (await versions()).get(number)!.id },
        }),
        200,
      );
    const needed = async () => {
      const variable = await c.get(`/api/v2/varsets/${varsetId}/relationships/vars/${variableId}`);
      expectStatus(variable, 200);
      const effective = await c.get(`/api/v2/workspaces/${workspaceId}/effective-variables`);
      expectStatus(effective, 200);
      const token = (effective.body.data as { attributes: Record<string, unknown> }[]).find(
        (v) => v.attributes.key === 'TOKEN',
      )!.attributes;
      assert.equal(variable.body.data.attributes['value-needed'] === true, token['value-needed'] === true);
      return token['value-needed'] === true;
    };
    // Version 1 created the set; version 2 wrote the value, which ended the need.
    const filled = (await versions()).get(2)!;
    assert.deepEqual(
      (filled.attributes.changes as { field?: string; before: unknown; after: unknown }[])
        .filter((change) => change.field === 'value-needed')
        .map(({ before, after }) => [before, after]),
      [[true, false]],
    );
    await rollback(1);
    assert.equal(await needed(), true, 'the rollback restores the need, not an empty secret');
    const refused = await exec('--', 'node', '-e', 'process.exit(0)');
    assert.equal(refused.code, 1, refused.stderr);
    await rollback(2);
    assert.equal(await needed(), false);
    const ran = await exec('--', 'node', '-e', 'process.exit(process.env.TOKEN === "s3cr3t-filled" ? 0 : 3)');
    assert.equal(ran.code, 0, ran.stderr);
  });
});

/**
 * Migration 0020 is expand: servers of 0.3.0 write beside it, knowing nothing of the flag. Their
 * update of a variable is the statement below (every column but the flag, a new version_id,
 * the value stored again: sealed anew when given, as it was otherwise); the trigger clears the
 * flag when such an update writes a new value, and only then. Key rotation re-seals a value
 * under the same version_id: the flag stays. scripts/rolling-upgrade.sh does this with 0.3.0 itself.
 */
describe(`a variable that needs a value, written by a server of 0.3.0 (${storeKind})`, () => {
  let t: TestApp;
  const ids = { set: '', workspace: '' };
  /** Two flagged variables in each table: one gets a value, the other a new description. */
  const flagged = { varset: { value: '', description: '' }, workspace: { value: '', description: '' } };
  const TABLE = { varset: 'varset_variables', workspace: 'workspace_variables' } as const;
  const variablePath = (kind: 'varset' | 'workspace', id: string) =>
    kind === 'varset'
      ? `/api/v2/varsets/${ids.set}/relationships/vars/${id}`
      : `/api/v2/workspaces/${ids.workspace}/vars/${id}`;

  /** What 0.3.0's updateVariable sends: its Variable minus id, owner and created_at, which has no value_needed. */
  async function olderUpdate(
    kind: 'varset' | 'workspace',
    id: string,
    change: { value?: string; description?: string },
  ) {
    const row = await t.store.db.selectFrom(TABLE[kind]).selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    await t.store.db
      .updateTable(TABLE[kind])
      .set({
        key: row.key,
        value: change.value === undefined ? row.value : t.app.sealer.seal(change.value),
        description: change.description ?? row.description,
        category: row.category,
        hcl: row.hcl,
        sensitive: row.sensitive,
        version_id: `ver-older-${Math.random().toString(36).slice(2)}`,
      })
      .where('id', '=', id)
      .execute();
  }
  const needed = async (kind: 'varset' | 'workspace', id: string) => {
    const response = await t.get(variablePath(kind, id));
    expectStatus(response, 200);
    return response.body.data.attributes['value-needed'] === true;
  };

  before(async () => {
    t = await TestApp.start();
    await createOrganization(t, 'acme');
    ids.workspace = await createWorkspace(t, 'acme', { name: 'web' });
    const set = await createVarset(t, 'acme', {
      attributes: { name: 'cloud' },
      vars: [
        { key: 'A', category: 'env', sensitive: true },
        { key: 'B', category: 'env', sensitive: true },
      ],
    });
    ids.set = set.id;
    const setVars = (await t.get(`/api/v2/varsets/${ids.set}/relationships/vars`)).body.data as {
      id: string;
      attributes: { key: string };
    }[];
    flagged.varset.value = setVars.find((v) => v.attributes.key === 'A')!.id;
    flagged.varset.description = setVars.find((v) => v.attributes.key === 'B')!.id;
    for (const key of ['A', 'B']) {
      const made = await t.post(`/api/v2/workspaces/${ids.workspace}/vars`, {
        data: { type: 'vars', attributes: { key, category: 'env', sensitive: true } },
      });
      expectStatus(made, 201);
      flagged.workspace[key === 'A' ? 'value' : 'description'] = made.body.data.id;
    }
    for (const kind of ['varset', 'workspace'] as const) {
      await t.store.db
        .updateTable(TABLE[kind])
        .set({ value_needed: true })
        .where('id', 'in', [flagged[kind].value, flagged[kind].description])
        .execute();
    }
  });
  after(() => t.close());

  for (const kind of ['varset', 'workspace'] as const) {
    it(`clears the flag of a ${kind} variable when it writes a value, and keeps it when it writes the description`, async () => {
      assert.equal(await needed(kind, flagged[kind].value), true);
      await olderUpdate(kind, flagged[kind].value, { value: 'filled-by-0.3.0' });
      assert.equal(await needed(kind, flagged[kind].value), false);
      const stored = await t.store.db
        .selectFrom(TABLE[kind])
        .select('value')
        .where('id', '=', flagged[kind].value)
        .executeTakeFirstOrThrow();
      assert.equal(t.app.sealer.open(stored.value), 'filled-by-0.3.0');

      await olderUpdate(kind, flagged[kind].description, { description: 'described by 0.3.0' });
      assert.equal(await needed(kind, flagged[kind].description), true, 'no value was written');
    });
  }

  it('keeps the flag when key rotation re-seals the value', async () => {
    for (const kind of ['varset', 'workspace'] as const) {
      const id = flagged[kind].description;
      const column = SEALED_COLUMNS.find((c) => c.table === TABLE[kind])!;
      const { value } = await t.store.db
        .selectFrom(TABLE[kind])
        .select('value')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const resealed = t.app.sealer.seal(t.app.sealer.open(value));
      assert.notEqual(resealed, value);
      assert.equal(
        await t.store.db.transaction().execute((trx) => replaceSealedValue(trx, column, id, value, resealed)),
        true,
      );
      assert.equal(await needed(kind, id), true);
    }
  });

  it('is cleared by this build writing a value, as before', async () => {
    const written = await t.patch(variablePath('workspace', flagged.workspace.description), {
      data: { type: 'vars', attributes: { value: 'filled' } },
    });
    expectStatus(written, 200);
    assert.equal('value-needed' in written.body.data.attributes, false);
  });
});
