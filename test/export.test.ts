import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runVarsetd, startServerProcess, varsetdEnv, type ServerProcess } from './support/processes.js';
import { ADMIN_TOKEN, httpClient } from './support/requests.js';
import { createVarset, varResource, varsPath } from './support/factories/varsets.js';
import { SECRET, seedOrganization } from './support/set-fixture.js';
import { createTestStore, storeKind, type TestStore } from './support/store.js';

describe(`varsetd export (${storeKind})`, () => {
  let store: TestStore;
  let server: ServerProcess;
  let out: string;
  const varsetd = (...args: string[]) => runVarsetd(args, varsetdEnv(store));

  before(async () => {
    store = await createTestStore();
    server = await startServerProcess(varsetdEnv(store, { VARSETD_ADMIN_TOKEN: ADMIN_TOKEN }));
    await seedOrganization(httpClient(server.url), 'acme');
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-export-'));
  });
  after(async () => {
    try {
      await server.stop();
    } finally {
      await store.dispose();
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('writes one document per set, members in a fixed order, without sensitive values', async () => {
    fs.writeFileSync(path.join(out, 'gone.varset.json'), '{}');
    fs.writeFileSync(path.join(out, 'README.md'), 'kept');
    const { code, stderr } = await varsetd('export', '--organization', 'acme', '--out', out);
    assert.equal(code, 0, stderr);
    assert.deepEqual(fs.readdirSync(out).sort(), [
      'README.md',
      'apps%2Fweb%3A%20%22tuning%22.varset.json',
      'infra%20overrides.varset.json',
      'shared.varset.json',
    ]);
    const shared = fs.readFileSync(path.join(out, 'shared.varset.json'), 'utf8');
    assert.equal(
      shared,
      `${JSON.stringify(
        {
          name: 'shared',
          description: 'everywhere',
          global: true,
          priority: false,
          project: null,
          workspaces: [],
          projects: [],
          variables: [
            { key: 'region', category: 'terraform', hcl: false, sensitive: false, description: '', value: 'eu-west-1' },
            { key: 'AWS_SECRET_ACCESS_KEY', category: 'env', hcl: false, sensitive: true, description: 'the key' },
          ],
        },
        null,
        2,
      )}\n`,
    );
    const infra = JSON.parse(fs.readFileSync(path.join(out, 'infra%20overrides.varset.json'), 'utf8'));
    assert.equal(infra.project, 'infra');
    assert.deepEqual(infra.projects, ['infra']);
    assert.equal(infra.priority, true);
    const tuning = JSON.parse(fs.readFileSync(path.join(out, 'apps%2Fweb%3A%20%22tuning%22.varset.json'), 'utf8'));
    assert.deepEqual(tuning.workspaces, ['batch', 'web']);

    // A second export writes the same bytes.
    const before = fs.readdirSync(out).map((f) => fs.readFileSync(path.join(out, f), 'utf8'));
    assert.equal((await varsetd('export', '--organization', 'acme', '--out', out)).code, 0);
    assert.deepEqual(
      fs.readdirSync(out).map((f) => fs.readFileSync(path.join(out, f), 'utf8')),
      before,
    );
    for (const file of fs.readdirSync(out))
      assert.doesNotMatch(fs.readFileSync(path.join(out, file), 'utf8'), new RegExp(SECRET));
  });

  it('prints the documents, or tfe configuration with import blocks', async () => {
    const json = await varsetd('export', '--organization', 'acme');
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(
      JSON.parse(json.stdout).map((d: { name: string }) => d.name),
      ['apps/web: "tuning"', 'infra overrides', 'shared'],
    );
    const tf = await varsetd('export', '--organization', 'acme', '--format', 'tf');
    assert.equal(tf.code, 0, tf.stderr);
    assert.doesNotMatch(tf.stdout + tf.stderr + json.stdout + json.stderr, new RegExp(SECRET));
    assert.match(tf.stdout, /resource "tfe_variable_set" "s_shared" \{\n {2}name {9}= "shared"\n/);
    assert.match(tf.stdout, /import \{\n {2}to = tfe_variable_set\.s_shared\n {2}id = "varset-/);
    assert.match(
      tf.stdout,
      /variable "sensitive_shared_aws_secret_access_key" \{\n {2}type {6}= string\n {2}sensitive = true\n/,
    );
    assert.match(tf.stdout, /value {11}= var\.sensitive_shared_aws_secret_access_key\n/);
    assert.match(
      tf.stdout,
      /value {11}= "\{ team = \\"infra\\" \}"\n {2}category {8}= "terraform"\n {2}description {5}= ""\n {2}hcl {13}= true\n/,
    );
    assert.match(tf.stdout, /parent_project_id = data\.tfe_project\.p_infra\.id/);
    assert.match(tf.stdout, /id = "acme\/web\/apps\/web: \\"tuning\\""/);
    assert.match(tf.stdout, /id = "acme\/prj-[A-Za-z0-9]+\/infra overrides"/);
    assert.match(tf.stdout, /id = "acme\/varset-[A-Za-z0-9]+\/var-[A-Za-z0-9]+"/);
  });

  it('prints all of a long export to a pipe before it exits', async () => {
    // Four values of 240 KiB: about 1 MiB of JSON, sixteen times what a pipe holds.
    const set = await createVarset(httpClient(server.url), 'acme', { attributes: { name: 'large values' } });
    for (const key of ['a', 'b', 'c', 'd']) {
      const res = await httpClient(server.url).post(varsPath(set.id), {
        data: varResource({ key, value: key.repeat(240 * 1024), category: 'terraform' }),
      });
      assert.equal(res.status, 200, `adding ${key}`);
    }
    const { code, stdout, stderr } = await varsetd('export', '--organization', 'acme');
    assert.equal(code, 0, stderr);
    const large = JSON.parse(stdout).find((d: { name: string }) => d.name === 'large values');
    assert.deepEqual(
      large.variables.map((v: { key: string; value: string }) => [v.key, v.value.length]),
      ['a', 'b', 'c', 'd'].map((key) => [key, 240 * 1024]),
    );
  });

  it('refuses an unknown organization or format, writing nothing', async () => {
    const missing = await varsetd('export', '--organization', 'nope', '--out', path.join(out, 'none'));
    assert.deepEqual([missing.code, missing.stderr], [2, 'varsetd export: organization nope not found\n']);
    assert.equal(fs.existsSync(path.join(out, 'none')), false);
    const format = await varsetd('export', '--organization', 'acme', '--format', 'yaml');
    assert.deepEqual([format.code, format.stderr], [2, 'varsetd export: unknown format yaml: json or tf\n']);
  });
});
