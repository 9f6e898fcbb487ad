import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TestApp } from './support/app.js';
import { grantWorkspace, teamWithToken } from './support/factories/access.js';
import { createVarset } from './support/factories/varsets.js';
import { ROOT } from './support/processes.js';
import { storeKind } from './support/store.js';
import { execWithIssuer, publishedClaims, resultLine, startIssuer } from './support/workload-identity.js';

/**
 * Several configurations of one cloud through aliases (TFC_<CLOUD>_PROVIDER_AUTH_<TAG>), as
 * `varsetd exec` gives them: a real server, a command that prints the
 * tfc_<cloud>_dynamic_credentials input variables and every file they name, and real Terraform
 * reading those variables as the types HCP Terraform documents.
 */

const PROVIDER = 'projects/123456/locations/global/workloadIdentityPools/tfc/providers/varsetd';
const DATA_PROVIDER = 'projects/123456/locations/global/workloadIdentityPools/tfc/providers/data';
const INPUTS = ['aws', 'gcp', 'azure', 'vault'].map((cloud) => `TF_VAR_tfc_${cloud}_dynamic_credentials`);

/** What the command sees: the input variables, and each file they name with its mode and content. */
const SHOW = `const fs = require('node:fs');
const inputs = {};
for (const name of ${JSON.stringify(INPUTS)}) if (name in process.env) inputs[name] = JSON.parse(process.env[name]);
const files = {};
const walk = (value) => {
  if (typeof value === 'string' && value.startsWith('/')) files[value] = { mode: fs.statSync(value).mode & 0o777, content: fs.readFileSync(value, 'utf8') };
  else if (value && typeof value === 'object') Object.values(value).forEach(walk);
};
walk(inputs);
for (const [file, { content }] of Object.entries(files)) {
  if (file.endsWith('.json')) walk(JSON.parse(content).credential_source.file);
  else if (file.endsWith('.config')) walk(/^web_identity_token_file = (.+)$/m.exec(content)[1]);
}
console.log('RESULT ' + JSON.stringify({ inputs, files, aws: process.env.AWS_ROLE_ARN ?? null, gcp: process.env.GOOGLE_APPLICATION_CREDENTIALS ?? null }));`;

/** A configuration declaring the input variables as HCP Terraform documents them, and showing them. */
const MAIN_TF = `
variable "tfc_aws_dynamic_credentials" {
  type = object({
    default = object({ shared_config_file = string })
    aliases = map(object({ shared_config_file = string }))
  })
}
variable "tfc_gcp_dynamic_credentials" {
  type = object({
    default = object({ credentials = string })
    aliases = map(object({ credentials = string }))
  })
}
variable "tfc_azure_dynamic_credentials" {
  type = object({
    default = object({ client_id_file_path = string, oidc_token_file_path = string })
    aliases = map(object({ client_id_file_path = string, oidc_token_file_path = string }))
  })
}
output "staging_config" { value = file(var.tfc_aws_dynamic_credentials.aliases["STAGING"].shared_config_file) }
output "data_credentials" { value = jsondecode(file(var.tfc_gcp_dynamic_credentials.aliases["DATA"].credentials)).audience }
output "azure_default" { value = var.tfc_azure_dynamic_credentials.default }
output "azure_client" { value = file(var.tfc_azure_dynamic_credentials.aliases["EU"].client_id_file_path) }
`;

describe(`varsetd exec: dynamic credentials through aliases (${storeKind})`, () => {
  let t: TestApp;
  let issuer: string;
  let org: string;
  let ws: string;
  let runner: { teamId: string; token: string };
  let dir: string;

  before(async () => {
    ({ t, issuer } = await startIssuer(600_000));
    org = await t.createOrganization();
    runner = await teamWithToken(t, org);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-aliases-'));
    fs.writeFileSync(path.join(dir, 'main.tf'), MAIN_TF);
    ws = await t.createWorkspace(org, { name: 'aliased' });
    await grantWorkspace(t, runner.teamId, ws, { access: 'plan' });
    const env = (key: string, value: string) => ({ key, value, category: 'env' });
    await createVarset(t, org, {
      workspaces: [ws],
      vars: [
        env('TFC_AWS_PROVIDER_AUTH', 'true'),
        env('TFC_AWS_RUN_ROLE_ARN', 'arn:aws:iam::123456789012:role/network'),
        env('TFC_AWS_PROVIDER_AUTH_STAGING', 'true'),
        env('TFC_AWS_RUN_ROLE_ARN_STAGING', 'arn:aws:iam::210987654321:role/staging'),
        env('TFC_AWS_APPLY_ROLE_ARN_STAGING', 'arn:aws:iam::210987654321:role/staging-apply'),
        env('TFC_AWS_WORKLOAD_IDENTITY_AUDIENCE_STAGING', 'staging.aws.example.com'),
        env('TFC_AWS_PROVIDER_AUTH_OFF', 'false'),
        env('TFC_AWS_RUN_ROLE_ARN_OFF', 'arn:aws:iam::111111111111:role/off'),
        env('TFC_GCP_PROVIDER_AUTH', 'true'),
        env('TFC_GCP_WORKLOAD_PROVIDER_NAME', PROVIDER),
        env('TFC_DEFAULT_GCP_RUN_SERVICE_ACCOUNT_EMAIL', 'shared@proj.iam.gserviceaccount.com'),
        env('TFC_GCP_PROVIDER_AUTH_DATA', 'true'),
        env('TFC_GCP_WORKLOAD_PROVIDER_NAME_DATA', DATA_PROVIDER),
        env('TFC_AZURE_PROVIDER_AUTH_EU', 'true'),
        env('TFC_AZURE_RUN_CLIENT_ID_EU', 'eu-client'),
        env('TFC_DEFAULT_AZURE_WORKLOAD_IDENTITY_AUDIENCE', 'azure.example.com'),
      ],
    });
  });
  after(async () => {
    await (t as TestApp | undefined)?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const exec = (extra: string[], command: string[]) =>
    execWithIssuer({ issuer, token: runner.token, cwd: dir, workspace: `${org}/aliased`, extra, command });
  const claimsOf = (token: string) => publishedClaims(issuer, token);

  it("gives each alias its own token, with the alias's audience, and files named by tfc_<cloud>_dynamic_credentials", async () => {
    for (const [phase, stagingRole] of [
      ['plan', 'arn:aws:iam::210987654321:role/staging'],
      ['apply', 'arn:aws:iam::210987654321:role/staging-apply'],
    ] as const) {
      const { code, stdout, stderr } = await exec(['--phase', phase], [process.execPath, '-e', SHOW]);
      assert.equal(code, 0, stderr + stdout);
      assert.doesNotMatch(
        stdout.replace(/^RESULT .*$/m, '') + stderr,
        /eyJ[\w-]+\.eyJ/,
        'varsetd exec prints no token',
      );
      const { inputs, files, aws, gcp } = resultLine(stdout);
      const runId = (await t.get(`/api/v2/workspaces/${ws}/runs`)).body.data[0].id;
      const subject = new RegExp(`^organization:${org}:project:[^:]+:workspace:aliased:run_phase:${phase}$`);

      assert.deepEqual(Object.keys(inputs), INPUTS.slice(0, 3), 'a variable for each cloud with a configuration on');
      const awsInput = inputs.TF_VAR_tfc_aws_dynamic_credentials;
      assert.deepEqual(Object.keys(awsInput.aliases), ['STAGING'], 'an alias turned off is left out');
      assert.equal(aws, 'arn:aws:iam::123456789012:role/network', "the default configuration's environment stays");
      for (const [config, role, audience] of [
        [awsInput.default.shared_config_file, 'arn:aws:iam::123456789012:role/network', 'aws.workload.identity'],
        [awsInput.aliases.STAGING.shared_config_file, stagingRole, 'staging.aws.example.com'],
      ]) {
        const tokenFile = /^web_identity_token_file = (.+)$/m.exec(files[config].content)![1]!;
        assert.equal(
          files[config].content,
          `[default]\nrole_arn = ${role}\nweb_identity_token_file = ${tokenFile}\nrole_session_name = ${runId}\n`,
        );
        const claims = await claimsOf(files[tokenFile].content);
        assert.equal(claims.aud, audience);
        assert.match(claims.sub, subject);
        assert.equal(claims.terraform_run_id, runId);
      }

      const gcpInput = inputs.TF_VAR_tfc_gcp_dynamic_credentials;
      assert.equal(gcpInput.default.credentials, gcp, 'the default is GOOGLE_APPLICATION_CREDENTIALS');
      for (const [credentials, provider] of [
        [gcpInput.default.credentials, PROVIDER],
        [gcpInput.aliases.DATA.credentials, DATA_PROVIDER],
      ]) {
        const google = JSON.parse(files[credentials].content);
        assert.equal(google.audience, `//iam.googleapis.com/${provider}`);
        assert.match(
          google.service_account_impersonation_url,
          /\/shared@proj\.iam\.gserviceaccount\.com:generateAccessToken$/,
        );
        const claims = await claimsOf(files[google.credential_source.file].content);
        assert.equal(claims.aud, `//iam.googleapis.com/${provider}`);
        assert.match(claims.sub, subject);
      }

      const azureInput = inputs.TF_VAR_tfc_azure_dynamic_credentials;
      assert.deepEqual(
        azureInput.default,
        { client_id_file_path: '', oidc_token_file_path: '' },
        'a cloud whose default configuration is off gets empty strings for it',
      );
      const eu = azureInput.aliases.EU;
      assert.equal(files[eu.client_id_file_path].content, 'eu-client');
      const azureClaims = await claimsOf(files[eu.oidc_token_file_path].content);
      assert.equal(azureClaims.aud, 'azure.example.com', 'the shared TFC_DEFAULT_ audience');
      assert.match(azureClaims.sub, subject);

      const names = Object.keys(files);
      assert.equal(names.length, 10, 'two for each AWS and Google Cloud configuration, two for the Azure alias');
      assert.equal(new Set(names.map((f) => path.dirname(f))).size, 1, 'one folder for every file');
      for (const [file, { mode }] of Object.entries<{ mode: number }>(files)) {
        assert.equal(mode, 0o600, file);
        assert.equal(fs.existsSync(file), false, `${file} is removed once the command ended`);
      }
      assert.equal(fs.existsSync(path.dirname(names[0]!)), false);
    }
  });

  it("stops before the command when an alias lacks a variable, naming the alias's variables", async () => {
    const broken = await t.createWorkspace(org, { name: 'broken-alias' });
    await grantWorkspace(t, runner.teamId, broken, { access: 'plan' });
    await createVarset(t, org, {
      workspaces: [broken],
      vars: [
        { key: 'TFC_AWS_PROVIDER_AUTH_STAGING', value: 'true', category: 'env' },
        { key: 'TFC_AWS_PLAN_ROLE_ARN_STAGING', value: 'arn:aws:iam::210987654321:role/plan', category: 'env' },
      ],
    });
    const marker = path.join(dir, 'ran');
    const env = { PATH: process.env.PATH, HOME: dir, VARSETD_ADDRESS: issuer, VARSETD_TOKEN: runner.token };
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          import.meta.resolve('tsx'),
          path.join(ROOT, 'src/main.ts'),
          'exec',
          '--workspace',
          `${org}/broken-alias`,
          '--phase',
          'apply',
          '--',
          process.execPath,
          '-e',
          `require('node:fs').writeFileSync(${JSON.stringify(marker)}, '')`,
        ],
        { env, cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (c) => (stderr += String(c)));
      child.on('close', (code) => resolve({ code, stderr }));
    });
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /TFC_AWS_PROVIDER_AUTH_STAGING is true, but neither TFC_AWS_APPLY_ROLE_ARN_STAGING nor TFC_AWS_RUN_ROLE_ARN_STAGING is set/,
    );
    assert.equal(fs.existsSync(marker), false, 'the command never ran');
    assert.equal((await t.get(`/api/v2/workspaces/${broken}/runs`)).body.data[0].attributes.status, 'errored');
  });

  it('--dry-run names each alias and the input variable it is given as', async () => {
    const { code, stdout, stderr } = await exec(['--dry-run'], ['terraform', 'plan']);
    assert.equal(code, 0, stderr);
    const told = stdout.slice(stdout.indexOf('dynamic credentials:'));
    assert.match(told, /^ {2}AWS: the run's plan token as AWS_WEB_IDENTITY_TOKEN_FILE/m);
    assert.match(
      told,
      /^ {2}AWS alias STAGING: the run's plan token for role arn:aws:iam::210987654321:role\/staging, as tfc_aws_dynamic_credentials\.aliases\["STAGING"\]$/m,
    );
    assert.match(
      told,
      /^ {2}Azure alias EU: the run's plan token for client eu-client, as tfc_azure_dynamic_credentials\.aliases\["EU"\]$/m,
    );
    assert.doesNotMatch(told, /OFF/);
  });

  it('Terraform reads the input variables as the object types HCP Terraform documents', async (context) => {
    if (process.platform !== 'linux' || process.arch !== 'x64')
      return context.skip('scripts/terraform.sh provides Terraform for linux-x64 only');
    const terraform = execFileSync('bash', [path.join(ROOT, 'scripts/terraform.sh')], { encoding: 'utf8' }).trim();
    const script = `set -e
${terraform} init -input=false -no-color >/dev/null
${terraform} apply -input=false -auto-approve -no-color >/dev/null
${terraform} output -json`;
    const { code, stdout, stderr } = await exec([], ['sh', '-c', script]);
    try {
      assert.equal(code, 0, stderr + stdout);
      const outputs = JSON.parse(stdout.slice(stdout.indexOf('{')));
      assert.match(outputs.staging_config.value, /^\[default\]\nrole_arn = arn:aws:iam::210987654321:role\/staging\n/);
      assert.equal(outputs.data_credentials.value, `//iam.googleapis.com/${DATA_PROVIDER}`);
      assert.deepEqual(outputs.azure_default.value, { client_id_file_path: '', oidc_token_file_path: '' });
      assert.equal(outputs.azure_client.value, 'eu-client');
    } finally {
      for (const leftover of ['.terraform', '.terraform.lock.hcl', 'terraform.tfstate', 'terraform.tfstate.backup'])
        fs.rmSync(path.join(dir, leftover), { recursive: true, force: true });
    }
  });
});
