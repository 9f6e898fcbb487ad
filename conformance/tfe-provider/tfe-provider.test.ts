import { after, before, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { ROOT, startServerProcess, varsetdEnv, type ServerProcess } from '../../test/support/processes.js';
import { ADMIN_TOKEN } from '../../test/support/requests.js';
import { createTestStore, storeKind, type TestStore } from '../../test/support/store.js';
import {
  cliConfiguration,
  describeChanges,
  keepOutput,
  plannedChanges,
  prepareTools,
  requestLines,
  runTerraform,
  planText,
  type PlanJson,
  type PlannedChange,
  type TerraformResult,
  type Tools,
  terraformEnvironment,
} from './terraform.js';

/**
 * HashiCorp's Terraform `tfe` provider, built from source (scripts/tfe-provider.sh), against a
 * varsetd process serving HTTPS with its own certificate, on this run's store: one apply of
 * configuration/main.tf, a plan with nothing to do, a change and again nothing to do, an import
 * of every importable resource into a fresh state with nothing to do, and a destroy after which
 * the API finds nothing. Each Terraform command leaves its output and debug log (with the
 * provider's view of each request) in a folder that is kept when a step fails.
 */

const CONFIGURATION = path.join(ROOT, 'conformance/tfe-provider/configuration/main.tf');
const ORGANIZATION = 'acme-platform';
const COMMAND_TIMEOUT_MS = 180_000;
/** What the change step sets; the configuration's defaults before it. */
const CHANGED = { shared_set_name: 'shared defaults (renamed)', network_auto_apply: 'false' };

/** The configuration's `created` output: what the resources wrote, as their state has it. */
interface Created {
  default_project_id: string;
  project_id: string;
  network_id: string;
  tools_id: string;
  tools_project_id: string;
  billing_id: string;
  deployers_id: string;
  auditors_id: string;
  shared_set_id: string;
  platform_set_id: string;
  platform_secret_id: string;
  team_token: string;
  organization_token: string;
}

describe(`the Terraform tfe provider against varsetd over HTTPS (${storeKind})`, () => {
  let tools: Tools;
  let store: TestStore;
  let server: ServerProcess;
  let work: string;
  let logs: string;
  let ca: string;
  /** Every step, and those that passed: a step runs only when those it stands on did. */
  const steps: string[] = [];
  const passed = new Set<string>();
  let created: Created | undefined;
  let variablesInForce: Record<string, string> = {};

  before(async () => {
    tools = prepareTools();
    work = fs.mkdtempSync(path.join(os.tmpdir(), `varsetd-tfe-provider-${storeKind}-`));
    logs = path.join(work, 'logs');
    fs.mkdirSync(logs);
    fs.mkdirSync(path.join(work, 'home'));
    execFileSync('bash', [path.join(ROOT, 'scripts/make-test-certificate.sh'), path.join(work, 'tls')], {
      stdio: 'pipe',
    });
    ca = fs.readFileSync(path.join(work, 'tls/ca.pem'), 'utf8');
    fs.writeFileSync(path.join(work, 'terraform.tfrc'), cliConfiguration(tools));
    for (const folder of ['main', 'imported']) {
      fs.mkdirSync(path.join(work, folder));
      fs.copyFileSync(CONFIGURATION, path.join(work, folder, 'main.tf'));
    }
    store = await createTestStore();
    server = await startServerProcess(
      varsetdEnv(store, {
        VARSETD_TLS_CERT: path.join(work, 'tls/cert.pem'),
        VARSETD_TLS_KEY: path.join(work, 'tls/key.pem'),
        VARSETD_ADMIN_TOKEN: ADMIN_TOKEN,
      }),
    );
    assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
  });

  after(async () => {
    await (server as ServerProcess | undefined)?.stop();
    await (store as TestStore | undefined)?.dispose();
    if (passed.size === steps.length) fs.rmSync(work, { recursive: true, force: true });
    else if (work) console.log(`Terraform's folders, outputs and debug logs are kept in ${work}`);
  });

  let commandCount = 0;
  /** Terraform in `folder` of the work area, talking to varsetd, whose authority it trusts, through the provider from the mirror. */
  async function terraform(
    folder: string,
    args: string[],
    variables: Record<string, string> = variablesInForce,
  ): Promise<TerraformResult> {
    commandCount += 1;
    const name = path.join(logs, `${String(commandCount).padStart(2, '0')}-${folder}-${args[0]}`);
    const env = terraformEnvironment(work, `${name}.log`, {
      hostname: new URL(server.url).host,
      token: ADMIN_TOKEN,
      organization: ORGANIZATION,
      ...variables,
    });
    const result = await runTerraform(tools, path.join(work, folder), args, env, COMMAND_TIMEOUT_MS);
    keepOutput(`${name}.out`, args, result);
    return result;
  }

  /** Fails with what Terraform said (its plan too with `withPlan`), every request varsetd refused, and its last requests. */
  function failWith(message: string, result?: TerraformResult, withPlan = false): never {
    const sections = [message];
    if (result)
      sections.push(
        `terraform exited with ${result.code}`,
        ...(withPlan ? [planText(result)] : []),
        result.stderr.trim(),
      );
    const requests = requestLines(server.output());
    const refused = requests.filter((line) => / [45]\d\d$/.test(line));
    sections.push(`--- requests varsetd refused (${refused.length}) ---\n${refused.join('\n')}`);
    sections.push(
      `--- varsetd's last requests ---\n${requests.slice(-20).join('\n')}`,
      `(output and debug log of every Terraform command: ${logs})`,
    );
    assert.fail(sections.filter((section) => section !== '').join('\n\n'));
  }

  async function expectSuccess(
    folder: string,
    args: string[],
    variables?: Record<string, string>,
  ): Promise<TerraformResult> {
    const result = await terraform(folder, args, variables);
    if (result.code !== 0) failWith(`terraform ${args.join(' ')} failed`, result);
    return result;
  }

  /**
   * `plan -detailed-exitcode` exits 0 only when the real objects match the configuration and the
   * state. `tolerated` names, by resource type, attributes a plan may still change: those the
   * provider never reads back, which an import therefore cannot know.
   */
  async function expectNoChanges(
    folder: string,
    options: { extraArgs?: string[]; tolerated?: Record<string, string[]> } = {},
  ): Promise<void> {
    const planFile = path.join(work, folder, 'check.tfplan');
    const result = await terraform(folder, [
      'plan',
      '-detailed-exitcode',
      '-input=false',
      `-out=${planFile}`,
      ...(options.extraArgs ?? []),
    ]);
    if (result.code === 0) return;
    if (result.code !== 2) failWith('terraform plan failed', result);
    const plan: PlanJson = JSON.parse((await expectSuccess(folder, ['show', '-json', planFile])).stdout);
    const isTolerated = (change: PlannedChange) =>
      change.actions === 'update' &&
      change.attributes.length > 0 &&
      change.attributes.every((attribute) => options.tolerated?.[change.type]?.includes(attribute.name));
    const changes = plannedChanges(plan).filter((change) => !isTolerated(change));
    if (changes.length > 0 || !options.tolerated) {
      failWith(
        `the plan has changes: the provider reads back something other than what it wrote\n${describeChanges(changes) || '(outputs only)'}`,
        result,
      );
    }
  }

  /** Runs a step only when the steps it stands on passed, and records whether it did. */
  function step(name: string, title: string, needs: string[], body: (t: TestContext) => Promise<void>): void {
    steps.push(name);
    it(title, async (t) => {
      const missing = needs.find((need) => !passed.has(need));
      if (missing !== undefined) return t.skip(`it needs step "${missing}", which did not pass`);
      await body(t);
      passed.add(name);
    });
  }

  function api(method: string, urlPath: string, token = ADMIN_TOKEN): Promise<{ status: number; body: any }> {
    return new Promise((resolve, reject) => {
      const request = https.request(
        `${server.url}${urlPath}`,
        { method, ca, agent: false, headers: { authorization: `Bearer ${token}` } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: response.statusCode ?? 0, body: text === '' ? undefined : JSON.parse(text) });
          });
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end();
    });
  }

  async function read(urlPath: string): Promise<any> {
    const res = await api('GET', urlPath);
    assert.equal(res.status, 200, `GET ${urlPath}: ${JSON.stringify(res.body)}`);
    return res.body.data;
  }

  step('init', 'init takes the provider from the filesystem mirror', [], async () => {
    const result = await expectSuccess('main', ['init', '-input=false']);
    assert.match(result.stdout, new RegExp(`Installed hashicorp/tfe v${tools.providerVersion.replaceAll('.', '\\.')}`));
    await expectSuccess('imported', ['init', '-input=false']);
  });

  step(
    'apply',
    'applies the whole configuration at once, and the API and the data sources show what it wrote',
    ['init'],
    async () => {
      const result = await expectSuccess('main', ['apply', '-auto-approve', '-input=false']);
      assert.match(result.stdout, /Apply complete! Resources: \d+ added, 0 changed, 0 destroyed\./);
      const outputs = JSON.parse((await expectSuccess('main', ['output', '-json'])).stdout);
      created = outputs.created.value as Created;
      try {
        await checkWhatWasWritten(created, outputs.read_back.value);
      } catch (error) {
        failWith(`after the apply: ${(error as Error).message}`);
      }
    },
  );

  step('plan', 'plans no changes right after the apply', ['apply'], async () => {
    await expectNoChanges('main');
  });

  step(
    'change',
    'applies a renamed set and a flipped auto-apply as two in-place updates, then plans no changes again',
    ['plan'],
    async () => {
      const result = await expectSuccess('main', ['apply', '-auto-approve', '-input=false'], CHANGED);
      variablesInForce = CHANGED;
      if (!/Apply complete! Resources: 0 added, 2 changed, 0 destroyed\./.test(result.stdout))
        failWith('the change was not exactly two in-place updates', result, true);
      assert.equal((await read(`/api/v2/varsets/${created!.shared_set_id}`)).attributes.name, CHANGED.shared_set_name);
      assert.equal((await read(`/api/v2/workspaces/${created!.network_id}`)).attributes['auto-apply'], false);
      await expectNoChanges('main');
    },
  );

  step(
    'import',
    'imports one resource of each importable kind into a fresh state, and plans no changes for them',
    ['apply'],
    async () => {
      const c = created!;
      const state = JSON.parse(fs.readFileSync(path.join(work, 'main/terraform.tfstate'), 'utf8'));
      const idOf = (address: string): string => {
        const resource = state.resources.find((r: any) => r.mode === 'managed' && `${r.type}.${r.name}` === address);
        assert.ok(resource, `${address} is not in the state`);
        return resource.instances[0].attributes.id;
      };
      // Sensitive variables are left out: their values cannot be read back, so an import cannot know them.
      const imports: Record<string, string> = {
        'tfe_organization.org': ORGANIZATION,
        'tfe_project.platform': c.project_id,
        'tfe_workspace.network': c.network_id,
        'tfe_workspace.tools': `${ORGANIZATION}/tools`,
        'tfe_workspace.billing': c.billing_id,
        'tfe_workspace_settings.billing': c.billing_id,
        // By id, then by name: the provider tells them apart by the id's form.
        'tfe_team.deployers': `${ORGANIZATION}/${c.deployers_id}`,
        'tfe_team.auditors': `${ORGANIZATION}/auditors`,
        'tfe_team_access.auditors_network': `${ORGANIZATION}/network-prod/${idOf('tfe_team_access.auditors_network')}`,
        'tfe_team_access.deployers_network': `${ORGANIZATION}/network-prod/${idOf('tfe_team_access.deployers_network')}`,
        'tfe_team_project_access.deployers_platform': idOf('tfe_team_project_access.deployers_platform'),
        'tfe_team_project_access.auditors_platform': idOf('tfe_team_project_access.auditors_platform'),
        'tfe_variable_set.shared': c.shared_set_id,
        'tfe_variable_set.platform': c.platform_set_id,
        'tfe_variable.shared_region': `${ORGANIZATION}/${c.shared_set_id}/${idOf('tfe_variable.shared_region')}`,
        'tfe_variable.shared_tags': `${ORGANIZATION}/${c.shared_set_id}/${idOf('tfe_variable.shared_tags')}`,
        'tfe_variable.network_cidr': `${ORGANIZATION}/network-prod/${idOf('tfe_variable.network_cidr')}`,
        'tfe_workspace_variable_set.platform_network': `${ORGANIZATION}/network-prod/platform credentials`,
        'tfe_project_variable_set.platform_platform': `${ORGANIZATION}/${c.project_id}/platform credentials`,
      };
      for (const [address, id] of Object.entries(imports))
        await expectSuccess('imported', ['import', '-input=false', address, id]);
      // The provider never reads a workspace's force_delete back: an imported workspace always plans it.
      await expectNoChanges('imported', {
        extraArgs: Object.keys(imports).map((address) => `-target=${address}`),
        tolerated: { tfe_workspace: ['force_delete'] },
      });
    },
  );

  // After init alone: whatever an apply left, a destroy removes.
  step(
    'destroy',
    'destroys everything, after which the API finds none of it and its tokens are refused',
    ['init'],
    async () => {
      const result = await expectSuccess('main', ['destroy', '-auto-approve', '-input=false']);
      assert.match(result.stdout, /Destroy complete! Resources: \d+ destroyed\./);
      const c = created;
      const gone = [`/api/v2/organizations/${ORGANIZATION}`];
      if (c) {
        gone.push(
          `/api/v2/projects/${c.project_id}`,
          `/api/v2/teams/${c.deployers_id}`,
          `/api/v2/teams/${c.auditors_id}`,
        );
        gone.push(...[c.network_id, c.tools_id, c.billing_id].map((id) => `/api/v2/workspaces/${id}`));
        gone.push(...[c.shared_set_id, c.platform_set_id].map((id) => `/api/v2/varsets/${id}`));
      }
      for (const urlPath of gone) {
        const res = await api('GET', urlPath);
        if (res.status !== 404)
          failWith(`GET ${urlPath} answers ${res.status} after the destroy: ${JSON.stringify(res.body)}`);
      }
      assert.deepEqual(
        (await read('/api/v2/organizations')).map((org: any) => org.id),
        [],
        'organizations left after the destroy',
      );
      for (const token of c ? [c.team_token, c.organization_token] : []) {
        assert.equal(
          (await api('GET', '/api/v2/organizations', token)).status,
          401,
          'a token the destroy revoked is still accepted',
        );
      }
    },
  );

  /** What the first apply should have written, read through the API and through the data sources (`read_back`). */
  async function checkWhatWasWritten(c: Created, readBack: Record<string, any>): Promise<void> {
    const org = await read(`/api/v2/organizations/${ORGANIZATION}`);
    assert.equal(org.attributes.email, 'platform@example.com');
    assert.equal(org.attributes['session-timeout'], 120);
    assert.equal(org.attributes['session-remember'], 1440);
    assert.equal(org.attributes['allow-force-delete-workspaces'], true);
    assert.equal(org.attributes['default-execution-mode'], 'remote');
    assert.equal(org.relationships['default-project'].data.id, c.default_project_id);

    const network = await read(`/api/v2/workspaces/${c.network_id}`);
    assert.equal(network.attributes.name, 'network-prod');
    assert.equal(network.attributes.description, 'VPCs, subnets and peering');
    assert.equal(network.attributes['auto-apply'], true);
    assert.equal(network.attributes['execution-mode'], 'remote');
    assert.equal(network.attributes['working-directory'], 'infra/network');
    assert.equal(network.attributes['terraform-version'], '1.9.8');
    assert.deepEqual([...network.attributes['tag-names']].sort(), ['network', 'prod']);
    assert.equal(network.relationships.project.data.id, c.project_id);
    assert.equal((await read(`/api/v2/workspaces/${c.tools_id}`)).attributes['execution-mode'], 'local');
    assert.equal(c.tools_project_id, c.default_project_id);
    assert.equal((await read(`/api/v2/workspaces/${c.billing_id}`)).attributes['execution-mode'], 'local');

    assert.equal((await read(`/api/v2/teams/${c.deployers_id}`)).attributes.name, 'Platform Deployers');
    const access = await read(`/api/v2/team-workspaces?filter%5Bworkspace%5D%5Bid%5D=${c.network_id}`);
    const byTeam = new Map<string, any>(
      access.map((entry: any) => [entry.relationships.team.data.id, entry.attributes]),
    );
    assert.equal(byTeam.get(c.auditors_id)?.access, 'read');
    assert.deepEqual(byTeam.get(c.deployers_id), {
      access: 'custom',
      runs: 'apply',
      variables: 'write',
      'state-versions': 'read-outputs',
      'sentinel-mocks': 'none',
      'workspace-locking': true,
      'run-tasks': false,
      'policy-overrides': true,
    });

    const platformSet = await read(`/api/v2/varsets/${c.platform_set_id}`);
    assert.equal(platformSet.attributes.priority, true);
    assert.equal(platformSet.attributes.global, false);
    assert.deepEqual(
      platformSet.relationships.workspaces.data.map((w: any) => w.id),
      [c.network_id],
    );
    assert.deepEqual(
      platformSet.relationships.projects.data.map((p: any) => p.id),
      [c.project_id],
    );
    assert.equal((await read(`/api/v2/varsets/${c.shared_set_id}`)).attributes.global, true);

    // The tokens the provider created work.
    assert.equal((await api('GET', `/api/v2/organizations/${ORGANIZATION}`, c.organization_token)).status, 200);
    assert.equal((await api('GET', `/api/v2/teams/${c.deployers_id}`, c.team_token)).status, 200);

    assert.deepEqual(readBack, {
      organization_email: 'platform@example.com',
      default_project_id: c.default_project_id,
      project_id: c.project_id,
      project_workspace_ids: [c.billing_id, c.network_id].sort(),
      network_id: c.network_id,
      network_project_id: c.project_id,
      network_auto_apply: true,
      network_execution_mode: 'remote',
      network_working_dir: 'infra/network',
      network_tf_version: '1.9.8',
      network_tag_names: ['network', 'prod'],
      platform_set_id: c.platform_set_id,
      platform_set_priority: true,
      platform_set_workspaces: [c.network_id],
      platform_set_projects: [c.project_id],
      platform_set_variables: [c.platform_secret_id],
      network_variables: {
        cidr_blocks: { category: 'terraform', hcl: true, sensitive: false, value: '["10.0.0.0/16", "10.1.0.0/16"]' },
        DEPLOY_TOKEN: { category: 'env', hcl: false, sensitive: true, value: '' },
      },
      shared_variables: {
        region: { category: 'terraform', hcl: false, sensitive: false, value: 'eu-west-1' },
        default_tags: {
          category: 'terraform',
          hcl: true,
          sensitive: false,
          value: '{ team = "platform", cost_center = 42 }',
        },
      },
      workspace_ids: { billing: c.billing_id, 'network-prod': c.network_id, tools: c.tools_id },
    });
  }
});
