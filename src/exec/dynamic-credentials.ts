import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectedVariable } from './api.js';
import { configurationsOf, type Target } from '../common/dynamic-credentials.js';
import {
  awsRoleOf,
  azureClientIdOf,
  DynamicCredentialsError,
  envOf,
  gcpCredentialsOf,
  gcpFederationOf,
  vaultLoginOf,
  type Configuration,
  type Env,
  type GcpFederation,
  type Phase,
  type VaultLogin,
} from './credential-variables.js';
import type { Requester } from './http.js';
import { hclString } from './tfvars.js';

/**
 * HCP Terraform's dynamic provider credentials, as `varsetd exec` gives them to COMMAND: for
 * each configuration the run's env variables turn on (a target's default one, and one per
 * alias), a workload identity token of the run and what that target's SDKs and Terraform
 * providers read; and for each target, the `tfc_<target>_dynamic_credentials` input variable
 * naming each configuration's files. Files are written with mode 0600 in a folder only this
 * user reads, removed when COMMAND ends.
 */

export { DynamicCredentialsError, type Phase } from './credential-variables.js';
export type Mint = (target: Target, alias: string | null) => Promise<string>;

/** What one configuration gets, decided before anything is minted or written. */
type Plan =
  | { target: 'aws'; role: string }
  | { target: 'vault'; login: VaultLogin }
  | { target: 'gcp'; federation: GcpFederation }
  | { target: 'azure'; clientId: string };

function planOf(env: Env, configuration: Configuration, phase: Phase): Plan {
  switch (configuration.target) {
    case 'aws': {
      const role = awsRoleOf(env, configuration, phase);
      if (/[\0-\x1f\x7f]/.test(role))
        throw new DynamicCredentialsError(`the role of AWS ${describe(configuration)} is not one line of text`);
      return { target: 'aws', role };
    }
    case 'vault':
      return { target: 'vault', login: vaultLoginOf(env, configuration, phase) };
    case 'gcp':
      return { target: 'gcp', federation: gcpFederationOf(env, configuration, phase) };
    case 'azure':
      return { target: 'azure', clientId: azureClientIdOf(env, configuration, phase) };
  }
}

const describe = ({ alias }: Configuration) => (alias === null ? 'default configuration' : `alias ${alias}`);

/** The attributes of each target's input variable, as HCP Terraform documents them. */
const INPUT_ATTRIBUTES: Record<Target, readonly string[]> = {
  aws: ['shared_config_file'],
  azure: ['client_id_file_path', 'oidc_token_file_path'],
  gcp: ['credentials'],
  vault: ['token_filename', 'address', 'namespace', 'ca_cert_file'],
};
export const inputVariableName = (target: Target) => `tfc_${target}_dynamic_credentials`;

const TARGET_WORDS: Record<Target, string> = { aws: 'AWS', vault: 'Vault', gcp: 'Google Cloud', azure: 'Azure' };
/** The order --dry-run tells the clouds in. */
const TOLD_IN = Object.keys(TARGET_WORDS);
const inToldOrder = (configurations: Configuration[]) =>
  [...configurations].sort((a, b) => TOLD_IN.indexOf(a.target) - TOLD_IN.indexOf(b.target));

/** What a run with these variables would get, in words (for --dry-run); a problem is told, not thrown. */
export function describeDynamicCredentials(variables: readonly InjectedVariable[], phase: Phase): string[] {
  const env = envOf(variables);
  return inToldOrder(configurationsOf(env)).map((configuration) => {
    let plan: Plan;
    try {
      plan = planOf(env, configuration, phase);
    } catch (error) {
      if (!(error instanceof DynamicCredentialsError)) throw error;
      return error.message;
    }
    const token = `the run's ${phase} token`;
    if (configuration.alias !== null) {
      const input = `${inputVariableName(configuration.target)}.aliases["${configuration.alias}"]`;
      const what =
        plan.target === 'aws'
          ? `${token} for role ${plan.role}`
          : plan.target === 'vault'
            ? `a JWT login with ${token} at ${plan.login.address}/v1/auth/${plan.login.authPath}/login as role ${plan.login.role}`
            : plan.target === 'gcp'
              ? `${token} exchanged at ${plan.federation.provider} for service account ${plan.federation.serviceAccount}`
              : `${token} for client ${plan.clientId}`;
      return `${TARGET_WORDS[plan.target]} alias ${configuration.alias}: ${what}, as ${input}`;
    }
    switch (plan.target) {
      case 'aws':
        return `AWS: ${token} as AWS_WEB_IDENTITY_TOKEN_FILE, AWS_ROLE_ARN=${plan.role}`;
      case 'vault':
        return `Vault: a JWT login with ${token} at ${plan.login.address}/v1/auth/${plan.login.authPath}/login as role ${plan.login.role}, as VAULT_ADDR and VAULT_TOKEN`;
      case 'gcp':
        return `Google Cloud: ${token} exchanged at ${plan.federation.provider} for service account ${plan.federation.serviceAccount}, as GOOGLE_APPLICATION_CREDENTIALS (external account credentials)`;
      case 'azure':
        return `Azure: ${token} as ARM_OIDC_TOKEN_FILE_PATH and AZURE_FEDERATED_TOKEN_FILE, ARM_CLIENT_ID=AZURE_CLIENT_ID=${plan.clientId}, ARM_USE_OIDC=true`;
    }
  });
}

export interface DynamicCredentials {
  /** What COMMAND's environment gets, over the run's variables. */
  env: Record<string, string>;
  /** Removes the files; safe to call more than once. */
  remove(): void;
}

interface InputVariable {
  default: Record<string, string>;
  aliases: Record<string, Record<string, string>>;
}

export async function prepareDynamicCredentials(
  variables: readonly InjectedVariable[],
  runId: string,
  phase: Phase,
  mint: Mint,
  requester: (extraCa: string[]) => Requester,
): Promise<DynamicCredentials> {
  const env = envOf(variables);
  // Every configuration is checked before anything is minted or written.
  const plans = configurationsOf(env).map((configuration) => ({
    configuration,
    plan: planOf(env, configuration, phase),
  }));
  if (!plans.length) return { env: {}, remove: () => {} };

  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-identity-'));
  const remove = () => fs.rmSync(folder, { recursive: true, force: true });
  try {
    const given: Record<string, string> = {};
    const inputs = new Map<Target, InputVariable>();
    for (const { configuration, plan } of plans) {
      const { alias } = configuration;
      const base = alias === null ? plan.target : `${plan.target}-${alias}`;
      const write = (suffix: string, content: string) => {
        const file = path.join(folder, base + suffix);
        fs.writeFileSync(file, content, { mode: 0o600, flag: 'wx' });
        return file;
      };
      const token = () => mint(plan.target, alias);
      const attributes = await configure(plan, write, token, runId, requester, alias === null ? given : undefined);
      let input = inputs.get(plan.target);
      if (!input) {
        const empty = Object.fromEntries(INPUT_ATTRIBUTES[plan.target].map((name) => [name, '']));
        input = { default: empty, aliases: {} };
        inputs.set(plan.target, input);
      }
      if (alias === null) input.default = attributes;
      else input.aliases[alias] = attributes;
    }
    for (const [target, input] of inputs) given[`TF_VAR_${inputVariableName(target)}`] = renderInputVariable(input);
    return { env: given, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

/**
 * One configuration's token and files: returns the attributes of its entry in the input
 * variable, and for the default configuration (`given`) adds the environment its SDKs read.
 */
async function configure(
  plan: Plan,
  write: (suffix: string, content: string) => string,
  token: () => Promise<string>,
  runId: string,
  requester: (extraCa: string[]) => Requester,
  given: Record<string, string> | undefined,
): Promise<Record<string, string>> {
  switch (plan.target) {
    case 'aws': {
      const tokenFile = write('.jwt', await token());
      const config = write(
        '.config',
        `[default]\nrole_arn = ${plan.role}\nweb_identity_token_file = ${tokenFile}\nrole_session_name = ${runId}\n`,
      );
      if (given)
        Object.assign(given, {
          AWS_WEB_IDENTITY_TOKEN_FILE: tokenFile,
          AWS_ROLE_ARN: plan.role,
          AWS_ROLE_SESSION_NAME: runId,
        });
      return { shared_config_file: config };
    }
    case 'vault': {
      const { login } = plan;
      const vaultToken = await vaultLogin(
        login,
        await token(),
        requester(login.caCertificate === undefined ? [] : [login.caCertificate]),
      );
      const caFile = login.caCertificate === undefined ? '' : write('-ca.pem', login.caCertificate);
      if (given) {
        Object.assign(given, { VAULT_ADDR: login.address, VAULT_TOKEN: vaultToken });
        if (login.namespace !== undefined) given.VAULT_NAMESPACE = login.namespace;
        if (caFile) given.VAULT_CACERT = caFile;
      }
      return {
        token_filename: write('.token', vaultToken),
        address: login.address,
        namespace: login.namespace ?? '',
        ca_cert_file: caFile,
      };
    }
    case 'gcp': {
      const tokenFile = write('.jwt', await token());
      const credentials = write(
        '-credentials.json',
        `${JSON.stringify(gcpCredentialsOf(plan.federation, tokenFile), null, 2)}\n`,
      );
      if (given) given.GOOGLE_APPLICATION_CREDENTIALS = credentials;
      return { credentials };
    }
    case 'azure': {
      const tokenFile = write('.jwt', await token());
      if (given)
        Object.assign(given, {
          ARM_OIDC_TOKEN_FILE_PATH: tokenFile,
          ARM_CLIENT_ID: plan.clientId,
          ARM_USE_OIDC: 'true',
          AZURE_FEDERATED_TOKEN_FILE: tokenFile,
          AZURE_CLIENT_ID: plan.clientId,
        });
      return { client_id_file_path: write('.client-id', plan.clientId), oidc_token_file_path: tokenFile };
    }
  }
}

/**
 * An input variable's value as Terraform reads `TF_VAR_` of an object type: an HCL object
 * expression, keys quoted and `:` between key and value, so that it is JSON as well unless a
 * string holds `${` or `%{` (which HCL needs doubled).
 */
export function renderInputVariable(input: InputVariable): string {
  const object = (entries: [string, string][]) => `{${entries.map(([k, v]) => `${hclString(k)}: ${v}`).join(', ')}}`;
  const strings = (attributes: Record<string, string>) =>
    object(Object.entries(attributes).map(([k, v]) => [k, hclString(v)]));
  return object([
    ['default', strings(input.default)],
    ['aliases', object(Object.entries(input.aliases).map(([alias, attributes]) => [alias, strings(attributes)]))],
  ]);
}

/** Vault's JWT login: the run's token for a Vault token of the role. */
async function vaultLogin(login: VaultLogin, jwt: string, request: Requester): Promise<string> {
  const url = `${login.address}/v1/auth/${login.authPath}/login`;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(login.namespace === undefined ? {} : { 'x-vault-namespace': login.namespace }),
  };
  let response;
  try {
    response = await request('POST', url, headers, Buffer.from(JSON.stringify({ role: login.role, jwt })));
  } catch (error) {
    throw new DynamicCredentialsError(`the Vault login at ${url} failed: ${(error as Error).message}`);
  }
  let token: unknown;
  try {
    token =
      response.status === 200
        ? (JSON.parse(response.body) as { auth?: { client_token?: unknown } }).auth?.client_token
        : undefined;
  } catch {
    token = undefined;
  }
  if (typeof token !== 'string' || token === '')
    throw new DynamicCredentialsError(`Vault refused the login at ${url} as role ${login.role} (${response.status})`);
  return token;
}
