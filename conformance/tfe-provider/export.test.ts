import { after, before, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createVarset } from '../../test/support/factories/varsets.js';
import { ROOT, runVarsetd, startServerProcess, varsetdEnv, type ServerProcess } from '../../test/support/processes.js';
import { ADMIN_TOKEN, httpsClient } from '../../test/support/requests.js';
import { SECRET, seedOrganization } from '../../test/support/set-fixture.js';
import { createTestStore, storeKind, type TestStore } from '../../test/support/store.js';
import {
  cliConfiguration,
  describeChanges,
  keepOutput,
  plannedChanges,
  prepareTools,
  requestLines,
  runTerraform,
  type PlanJson,
  type TerraformResult,
  type Tools,
  terraformEnvironment,
} from './terraform.js';

/**
 * `varsetd export --format tf` adopted by Terraform: an organization with sets of every kind
 * (global, priority, owned by a project, applied to workspaces and to projects, terraform, env
 * and HCL variables, sensitive ones) is exported as configuration for the tfe provider; with the
 * sensitive values supplied as the configuration asks, `terraform plan` imports everything and
 * changes nothing but those values (which no API gives out, so the provider cannot know them),
 * the apply writes only them, and the next plan has no changes.
 */

const ORGANIZATION = 'acme';
const COMMAND_TIMEOUT_MS = 180_000;
/** The second sensitive value this test adds to the fixture's. */
const DEPLOY_KEY = '{ id = "deploy-key-93b1", scopes = ["read", "write"] }';

describe(`varsetd export --format tf, planned and applied by Terraform with the tfe provider (${storeKind})`, () => {
  let tools: Tools;
  let store: TestStore;
  let server: ServerProcess;
  let work: string;
  let configuration: string;
  let exportedJson: string;
  const steps: string[] = [];
  const passed = new Set<string>();
  /** The sensitive values, by the name of the Terraform variable the configuration declares for each. */
  let sensitiveInputs: Record<string, string> = {};

  before(async () => {
    tools = prepareTools();
    work = fs.mkdtempSync(path.join(os.tmpdir(), `varsetd-tfe-export-${storeKind}-`));
    for (const folder of ['logs', 'home', 'configuration']) fs.mkdirSync(path.join(work, folder));
    execFileSync('bash', [path.join(ROOT, 'scripts/make-test-certificate.sh'), path.join(work, 'tls')], {
      stdio: 'pipe',
    });
    fs.writeFileSync(path.join(work, 'terraform.tfrc'), cliConfiguration(tools));
    store = await createTestStore();
    server = await startServerProcess(
      varsetdEnv(store, {
        VARSETD_TLS_CERT: path.join(work, 'tls/cert.pem'),
        VARSETD_TLS_KEY: path.join(work, 'tls/key.pem'),
        VARSETD_ADMIN_TOKEN: ADMIN_TOKEN,
      }),
    );
    const client = httpsClient(server.url, fs.readFileSync(path.join(work, 'tls/ca.pem'), 'utf8'));
    const { apps, db } = await seedOrganization(client, ORGANIZATION);
    await createVarset(client, ORGANIZATION, {
      attributes: { name: 'deploy keys', description: 'for the pipelines' },
      projects: [apps],
      workspaces: [db],
      vars: [
        { key: 'deploy_key', value: DEPLOY_KEY, hcl: true, sensitive: true, description: 'an HCL object' },
        { key: 'TF_LOG', value: 'INFO', category: 'env' },
      ],
    });
  });

  after(async () => {
    await (server as ServerProcess | undefined)?.stop();
    await (store as TestStore | undefined)?.dispose();
    if (passed.size === steps.length) fs.rmSync(work, { recursive: true, force: true });
    else if (work) console.log(`Terraform's folder, outputs and debug logs are kept in ${work}`);
  });

  const varsetd = (...args: string[]) => runVarsetd(args, varsetdEnv(store));

  let commandCount = 0;
  async function terraform(args: string[]): Promise<TerraformResult> {
    commandCount += 1;
    const name = path.join(work, 'logs', `${String(commandCount).padStart(2, '0')}-${args[0]}`);
    // The exported configuration has no provider block: the provider reads where and as whom from these.
    const env = terraformEnvironment(work, `${name}.log`, sensitiveInputs, {
      TFE_HOSTNAME: new URL(server.url).host,
      TFE_TOKEN: ADMIN_TOKEN,
    });
    const result = await runTerraform(tools, configuration, args, env, COMMAND_TIMEOUT_MS);
    keepOutput(`${name}.out`, args, result);
    return result;
  }

  function failWith(message: string, result?: TerraformResult): never {
    const sections = [message];
    if (result) sections.push(`terraform exited with ${result.code}`, result.stdout.trim(), result.stderr.trim());
    const refused = requestLines(server.output()).filter((line) => / [45]\d\d$/.test(line));
    sections.push(`--- requests varsetd refused (${refused.length}) ---\n${refused.join('\n')}`);
    sections.push(`(output and debug log of every Terraform command: ${path.join(work, 'logs')})`);
    assert.fail(sections.filter((section) => section !== '').join('\n\n'));
  }

  async function expectCode(args: string[], codes: number[]): Promise<TerraformResult> {
    const result = await terraform(args);
    if (!codes.includes(result.code ?? -1)) failWith(`terraform ${args.join(' ')} failed`, result);
    return result;
  }

  function step(name: string, title: string, needs: string[], body: (t: TestContext) => Promise<void>): void {
    steps.push(name);
    it(title, async (t) => {
      const missing = needs.find((need) => !passed.has(need));
      if (missing !== undefined) return t.skip(`it needs step "${missing}", which did not pass`);
      await body(t);
      passed.add(name);
    });
  }

  step('export', 'exports the organization as configuration that declares each sensitive value', [], async () => {
    configuration = path.join(work, 'configuration');
    const tf = await varsetd('export', '--organization', ORGANIZATION, '--format', 'tf', '--out', configuration);
    assert.equal(tf.code, 0, tf.stderr);
    const text = fs.readFileSync(path.join(configuration, 'varsets.tf'), 'utf8');
    assert.doesNotMatch(text, new RegExp(SECRET));
    assert.ok(!text.includes('deploy-key-93b1'), 'a sensitive value is in the configuration');
    const inputs = [...text.matchAll(/^variable "([a-z0-9_]+)" \{$/gm)].map((match) => match[1]!).sort();
    assert.deepEqual(inputs, ['sensitive_deploy_keys_deploy_key', 'sensitive_shared_aws_secret_access_key']);
    sensitiveInputs = { sensitive_deploy_keys_deploy_key: DEPLOY_KEY, sensitive_shared_aws_secret_access_key: SECRET };
    const json = await varsetd('export', '--organization', ORGANIZATION);
    assert.equal(json.code, 0, json.stderr);
    exportedJson = json.stdout;
  });

  step('init', 'init takes the provider from the filesystem mirror', ['export'], async () => {
    await expectCode(['init', '-input=false'], [0]);
  });

  let importCount = 0;
  step(
    'plan',
    'plans only imports, but for writing each sensitive value supplied: nothing to add or destroy',
    ['init'],
    async () => {
      const text = fs.readFileSync(path.join(configuration, 'varsets.tf'), 'utf8');
      importCount = [...text.matchAll(/^import \{$/gm)].length;
      // 4 sets, 7 variables, 3 workspace and 2 project assignments.
      assert.equal(importCount, 16);
      const planFile = path.join(configuration, 'imports.tfplan');
      const result = await expectCode(['plan', '-input=false', '-detailed-exitcode', `-out=${planFile}`], [2]);
      const plan: PlanJson = JSON.parse((await expectCode(['show', '-json', planFile], [0])).stdout);
      // The API never gives a sensitive value out, so the provider imports it as unknown (null)
      // and plans to write the one supplied; everything else it reads back as configured.
      const changes = plannedChanges(plan);
      const expected = [
        'tfe_variable.v_deploy_keys_terraform_deploy_key: update\n    value: null -> (supplied)',
        'tfe_variable.v_shared_env_aws_secret_access_key: update\n    value: null -> (supplied)',
      ];
      const supplied = new Set(Object.values(sensitiveInputs).map((value) => JSON.stringify(value)));
      const described = describeChanges(
        changes.map((change) => ({
          ...change,
          attributes: change.attributes.map((a) => ({ ...a, after: supplied.has(a.after) ? '(supplied)' : a.after })),
        })),
      );
      if (described !== expected.join('\n')) failWith(`the plan changes more than it should\n${described}`, result);
      const importing = (plan.resource_changes ?? []).filter((change: any) => change.change.importing !== undefined);
      assert.equal(importing.length, importCount);
      const summary = `Plan: ${importCount} to import, 0 to add, 2 to change, 0 to destroy.`;
      if (!result.stdout.includes(summary)) failWith(`the plan does not say "${summary}"`, result);
    },
  );

  step(
    'apply',
    'applies the imports, writing only the sensitive values, and plans no changes after them',
    ['plan'],
    async () => {
      const logged = server.output().length;
      const result = await expectCode(['apply', '-input=false', path.join(configuration, 'imports.tfplan')], [0]);
      const summary = `Apply complete! Resources: ${importCount} imported, 0 added, 2 changed, 0 destroyed.`;
      if (!result.stdout.includes(summary)) failWith(`the apply does not say "${summary}"`, result);
      // Its only writes: the two sensitive values.
      const writes = requestLines(server.output().slice(logged))
        .filter((line) => !/^(GET|HEAD) /.test(line))
        .map((line) => line.replace(/varset-\w+/, 'SET').replace(/var-\w+/, 'VAR'));
      assert.deepEqual(writes, [
        'PATCH /api/v2/varsets/SET/relationships/vars/VAR 200',
        'PATCH /api/v2/varsets/SET/relationships/vars/VAR 200',
      ]);
      const json = await varsetd('export', '--organization', ORGANIZATION);
      assert.equal(json.stdout, exportedJson, 'the sets differ after the apply');

      const plan = await terraform(['plan', '-input=false', '-detailed-exitcode']);
      if (plan.code !== 0) failWith('the plan after the imports is not empty', plan);
      assert.match(plan.stdout, /No changes\./);
    },
  );
});
