import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseExecArguments } from '../src/exec/command.js';
import { CredentialsError, discoverServer, environmentName } from '../src/exec/credentials.js';
import { describeDynamicCredentials, renderInputVariable } from '../src/exec/dynamic-credentials.js';
import { isIgnored, parseIgnoreFile, DEFAULT_IGNORE } from '../src/exec/ignore.js';
import { hclString, isIdentifier, renderTfvars } from '../src/exec/tfvars.js';

describe('varsetd exec: credentials', () => {
  const noHome = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-nohome-'));

  it("prefers VARSETD_TOKEN, then TF_TOKEN_<host> with Terraform's name mangling", () => {
    assert.equal(
      discoverServer(
        { VARSETD_ADDRESS: 'https://vars.example.com/', VARSETD_TOKEN: 'a', TF_TOKEN_vars_example_com: 'b' },
        noHome,
      ).token,
      'a',
    );
    assert.equal(
      discoverServer({ VARSETD_ADDRESS: 'https://vars.example.com', TF_TOKEN_vars_example_com: 'b' }, noHome).token,
      'b',
    );
    assert.equal(
      discoverServer({ VARSETD_ADDRESS: 'https://my-vars.example.com', TF_TOKEN_my__vars_example_com: 'c' }, noHome)
        .token,
      'c',
    );
    assert.equal(
      discoverServer({ VARSETD_ADDRESS: 'https://VARS.Example.com', TF_TOKEN_vars_EXAMPLE_com: 'd' }, noHome).token,
      'd',
    );
    assert.equal(
      discoverServer({ VARSETD_ADDRESS: 'https://bücher.example', TF_TOKEN_xn____bcher__kva_example: 'e' }, noHome)
        .token,
      'e',
    );
    assert.equal(environmentName('my-vars.example.com'), 'TF_TOKEN_my__vars_example_com');
    assert.equal(environmentName('café.fr'), 'TF_TOKEN_xn____caf__dma_fr');
    assert.equal(
      discoverServer({ VARSETD_ADDRESS: 'https://vars.example.com/', VARSETD_TOKEN: 't' }, noHome).address,
      'https://vars.example.com',
    );
  });

  it("reads the host's token from credentials.tfrc.json, and refuses without one", () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-home-'));
    fs.mkdirSync(path.join(home, '.terraform.d'));
    fs.writeFileSync(
      path.join(home, '.terraform.d', 'credentials.tfrc.json'),
      JSON.stringify({ credentials: { 'Vars.Example.com:8443': { token: 'f' } } }),
    );
    assert.equal(discoverServer({ VARSETD_ADDRESS: 'https://vars.example.com:8443' }, home).token, 'f');
    assert.throws(() => discoverServer({ VARSETD_ADDRESS: 'https://other.example.com' }, home), CredentialsError);
    assert.throws(() => discoverServer({}, home), /VARSETD_ADDRESS is not set/);
    assert.throws(() => discoverServer({ VARSETD_ADDRESS: 'ftp://x', VARSETD_TOKEN: 't' }, home), /http\(s\)/);
    fs.rmSync(home, { recursive: true });
  });
});

describe('varsetd exec: tfvars', () => {
  it('escapes strings exactly', () => {
    assert.equal(hclString('a"b\\c'), '"a\\"b\\\\c"');
    assert.equal(hclString('${x} %{y} $${z} $ %'), '"$${x} %%{y} $$${z} $ %"');
    assert.equal(hclString('l1\nl2\r\t\u0001é😀'), '"l1\\nl2\\r\\t\\u0001é😀"');
    assert.equal(
      renderTfvars([
        { key: 'n', value: '[1, 2]', hcl: true },
        { key: 's', value: 'v', hcl: false },
      ]),
      'n = [1, 2]\ns = "v"\n',
    );
  });

  it('knows a Terraform variable name', () => {
    assert.ok(isIdentifier('region_1-a'));
    for (const key of ['1a', 'a b', 'a.b', '']) assert.ok(!isIdentifier(key), key);
  });
});

describe('varsetd exec: dynamic credentials input variables', () => {
  it('writes tfc_<cloud>_dynamic_credentials as an HCL object that is JSON unless a string holds a template introducer', () => {
    const plain = renderInputVariable({
      default: { shared_config_file: '/tmp/a "b"\\c' },
      aliases: { STAGING: { shared_config_file: '/tmp/é\n' } },
    });
    assert.deepEqual(JSON.parse(plain), {
      default: { shared_config_file: '/tmp/a "b"\\c' },
      aliases: { STAGING: { shared_config_file: '/tmp/é\n' } },
    });
    assert.equal(
      renderInputVariable({ default: { credentials: '/tmp/${x}/%{y}' }, aliases: {} }),
      '{"default": {"credentials": "/tmp/$${x}/%%{y}"}, "aliases": {}}',
    );
  });
});

describe('varsetd exec: .terraformignore', () => {
  it('leaves out .git and .terraform at any depth by default', () => {
    const rules = parseIgnoreFile(DEFAULT_IGNORE);
    assert.ok(isIgnored(rules, '.git', true));
    assert.ok(isIgnored(rules, 'modules/x/.terraform', true));
    assert.ok(!isIgnored(rules, '.gitignore', false));
    assert.ok(!isIgnored(rules, 'main.tf', false));
  });

  it('follows .gitignore rules: anchoring, directories only, **, negation, comments', () => {
    const rules = parseIgnoreFile('# comment\n*.tfstate\n/build\nlogs/\ndocs/**/*.png\n!keep.tfstate\n\n');
    assert.ok(isIgnored(rules, 'a/b/x.tfstate', false));
    assert.ok(!isIgnored(rules, 'keep.tfstate', false));
    assert.ok(isIgnored(rules, 'build', true));
    assert.ok(!isIgnored(rules, 'sub/build', true));
    assert.ok(isIgnored(rules, 'sub/logs', true));
    assert.ok(!isIgnored(rules, 'logs', false));
    assert.ok(isIgnored(rules, 'docs/a/b/c.png', false));
    assert.ok(isIgnored(rules, 'docs/c.png', false));
    assert.ok(!isIgnored(rules, 'c.png', false));
    assert.ok(!isIgnored(rules, '# comment', false));
  });
});

describe('varsetd exec: arguments', () => {
  const cwd = os.tmpdir();

  it('reads the options before -- and the command after it', () => {
    assert.deepEqual(
      parseExecArguments(
        ['--workspace', 'acme/web', '--dry-run', '--message=-x', '--', 'terraform', 'plan', '--workspace', 'z'],
        cwd,
      ),
      {
        organization: 'acme',
        workspace: 'web',
        message: '-x',
        dir: cwd,
        dryRun: true,
        phase: 'plan',
        command: 'terraform',
        args: ['plan', '--workspace', 'z'],
      },
    );
  });

  it('reads --phase plan or apply, and refuses any other phase', () => {
    assert.equal(parseExecArguments(['--workspace', 'a/b', '--phase', 'apply', '--', 'x'], cwd).phase, 'apply');
    assert.throws(
      () => parseExecArguments(['--workspace', 'a/b', '--phase=destroy', '--', 'x'], cwd),
      /--phase is plan or apply, got destroy/,
    );
  });

  it('tells which dynamic credentials a run would get, by phase, and what is missing', () => {
    const env = (vars: Record<string, string>) =>
      Object.entries(vars).map(([key, value]) => ({
        key,
        value,
        category: 'env' as const,
        hcl: false,
        sensitive: false,
      }));
    const aws = { TFC_AWS_PROVIDER_AUTH: 'true', TFC_AWS_RUN_ROLE_ARN: 'arn:run', TFC_AWS_APPLY_ROLE_ARN: 'arn:apply' };
    assert.deepEqual(describeDynamicCredentials(env(aws), 'plan'), [
      "AWS: the run's plan token as AWS_WEB_IDENTITY_TOKEN_FILE, AWS_ROLE_ARN=arn:run",
    ]);
    assert.deepEqual(describeDynamicCredentials(env(aws), 'apply'), [
      "AWS: the run's apply token as AWS_WEB_IDENTITY_TOKEN_FILE, AWS_ROLE_ARN=arn:apply",
    ]);
    assert.deepEqual(
      describeDynamicCredentials(env({ TFC_AWS_PROVIDER_AUTH: 'false', TFC_AWS_RUN_ROLE_ARN: 'arn:run' }), 'plan'),
      [],
    );
    assert.deepEqual(
      describeDynamicCredentials(
        env({ TFC_AWS_PROVIDER_AUTH: 'TRUE', TFC_VAULT_PROVIDER_AUTH: 'true', TFC_AZURE_PROVIDER_AUTH: 'true' }),
        'plan',
      ),
      [
        'TFC_AWS_PROVIDER_AUTH is true, but neither TFC_AWS_PLAN_ROLE_ARN nor TFC_AWS_RUN_ROLE_ARN is set',
        'TFC_VAULT_PROVIDER_AUTH is true, but TFC_VAULT_ADDR is not an http(s) URL',
        'TFC_AZURE_PROVIDER_AUTH is true, but neither TFC_AZURE_PLAN_CLIENT_ID nor TFC_AZURE_RUN_CLIENT_ID is set',
      ],
    );
    assert.deepEqual(
      describeDynamicCredentials(
        env({ TFC_GCP_PROVIDER_AUTH: 'true', TFC_GCP_RUN_SERVICE_ACCOUNT_EMAIL: 'run@p.iam.gserviceaccount.com' }),
        'plan',
      ),
      ['TFC_GCP_PROVIDER_AUTH is true, but TFC_GCP_WORKLOAD_PROVIDER_NAME is not set'],
    );
    const gcp = {
      TFC_GCP_PROVIDER_AUTH: 'true',
      TFC_GCP_WORKLOAD_PROVIDER_NAME: 'projects/1/locations/global/workloadIdentityPools/p/providers/v',
      TFC_GCP_RUN_SERVICE_ACCOUNT_EMAIL: 'run@p.iam.gserviceaccount.com',
      TFC_GCP_APPLY_SERVICE_ACCOUNT_EMAIL: 'apply@p.iam.gserviceaccount.com',
      TFC_AZURE_PROVIDER_AUTH: 'true',
      TFC_AZURE_RUN_CLIENT_ID: 'client-run',
      TFC_AZURE_PLAN_CLIENT_ID: 'client-plan',
    };
    assert.deepEqual(describeDynamicCredentials(env(gcp), 'plan'), [
      "Google Cloud: the run's plan token exchanged at projects/1/locations/global/workloadIdentityPools/p/providers/v for service account run@p.iam.gserviceaccount.com, as GOOGLE_APPLICATION_CREDENTIALS (external account credentials)",
      "Azure: the run's plan token as ARM_OIDC_TOKEN_FILE_PATH and AZURE_FEDERATED_TOKEN_FILE, ARM_CLIENT_ID=AZURE_CLIENT_ID=client-plan, ARM_USE_OIDC=true",
    ]);
    assert.deepEqual(describeDynamicCredentials(env(gcp), 'apply'), [
      "Google Cloud: the run's apply token exchanged at projects/1/locations/global/workloadIdentityPools/p/providers/v for service account apply@p.iam.gserviceaccount.com, as GOOGLE_APPLICATION_CREDENTIALS (external account credentials)",
      "Azure: the run's apply token as ARM_OIDC_TOKEN_FILE_PATH and AZURE_FEDERATED_TOKEN_FILE, ARM_CLIENT_ID=AZURE_CLIENT_ID=client-run, ARM_USE_OIDC=true",
    ]);
    const vault = {
      TFC_VAULT_PROVIDER_AUTH: 'true',
      TFC_VAULT_ADDR: 'https://vault.example.com/',
      TFC_VAULT_RUN_ROLE: 'run',
      TFC_VAULT_APPLY_ROLE: 'deploy',
      TFC_VAULT_AUTH_PATH: '/tfc/',
    };
    assert.deepEqual(describeDynamicCredentials(env(vault), 'apply'), [
      "Vault: a JWT login with the run's apply token at https://vault.example.com/v1/auth/tfc/login as role deploy, as VAULT_ADDR and VAULT_TOKEN",
    ]);
  });

  it('refuses an unknown option, a missing value and a value given to --dry-run, each by name', () => {
    for (const [args, message] of [
      [['--workspace', 'a/b', '--force', '--', 'x'], 'unknown option --force'],
      [['--workspace', 'a/b', 'plan', '--', 'x'], 'unknown option plan'],
      [['-w', 'a/b', '--', 'x'], 'unknown option -w'],
      [['--workspace', 'a/b', '--dry-run=yes', '--', 'x'], 'unknown option --dry-run=yes'],
      [['--workspace'], '--workspace needs a value'],
      [['--dir', cwd], '--workspace ORG/WORKSPACE is required'],
      [['--workspace', 'a/b'], 'COMMAND is missing: give it after --'],
    ] as const) {
      assert.throws(
        () => parseExecArguments([...args], cwd),
        (error: unknown) => error instanceof Error && error.message === message,
        args.join(' '),
      );
    }
  });
});
