import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectedVariable } from './api.js';
import type { Requester } from './http.js';

/**
 * HCP Terraform's dynamic provider credentials, as `varsetd exec` gives them to COMMAND: for
 * each target the run's env variables turn on, a workload identity token of the run, and what
 * that target's SDKs and Terraform providers read. Files are written with mode 0600 in a folder
 * only this user reads, removed when COMMAND ends.
 */

export type Phase = 'plan' | 'apply';
export type Mint = (target: 'aws' | 'vault') => Promise<string>;

export class DynamicCredentialsError extends Error {}

/** The targets the variables may turn on that `varsetd exec` does not give credentials for yet. */
export const NOT_YET_GIVEN = ['TFC_GCP_PROVIDER_AUTH', 'TFC_AZURE_PROVIDER_AUTH'];

type Env = ReadonlyMap<string, string>;
const isOn = (env: Env, name: string) => env.get(name)?.trim().toLowerCase() === 'true';
const envOf = (variables: readonly InjectedVariable[]): Env => new Map(variables.filter((v) => v.category === 'env').map((v) => [v.key, v.value ?? '']));
const value = (env: Env, name: string) => env.get(name)?.trim() || undefined;

/** TFC_<TARGET>_<PHASE>_<WHAT>, else TFC_<TARGET>_RUN_<WHAT>; throws when neither is set. */
function byPhase(env: Env, target: string, what: string, phase: Phase): string {
  const phased = `TFC_${target}_${phase.toUpperCase()}_${what}`;
  const found = value(env, phased) ?? value(env, `TFC_${target}_RUN_${what}`);
  if (!found) throw new DynamicCredentialsError(`TFC_${target}_PROVIDER_AUTH is true, but neither ${phased} nor TFC_${target}_RUN_${what} is set`);
  return found;
}

/** The AWS role a run's phase assumes; undefined when AWS is not turned on. */
export function awsRoleOf(env: Env, phase: Phase): string | undefined {
  return isOn(env, 'TFC_AWS_PROVIDER_AUTH') ? byPhase(env, 'AWS', 'ROLE_ARN', phase) : undefined;
}

export interface VaultLogin {
  address: string;
  role: string;
  namespace: string | undefined;
  authPath: string;
  caCertificate: string | undefined;
}

/** Where and as which role a run's phase logs in to Vault; undefined when Vault is not turned on. */
export function vaultLoginOf(env: Env, phase: Phase): VaultLogin | undefined {
  if (!isOn(env, 'TFC_VAULT_PROVIDER_AUTH')) return undefined;
  const address = value(env, 'TFC_VAULT_ADDR');
  if (!address || !/^https?:\/\//.test(address)) throw new DynamicCredentialsError('TFC_VAULT_PROVIDER_AUTH is true, but TFC_VAULT_ADDR is not an http(s) URL');
  const encoded = value(env, 'TFC_VAULT_ENCODED_CACERT');
  return {
    address: address.replace(/\/+$/, ''),
    role: byPhase(env, 'VAULT', 'ROLE', phase),
    namespace: value(env, 'TFC_VAULT_NAMESPACE'),
    authPath: (value(env, 'TFC_VAULT_AUTH_PATH') ?? 'jwt').replace(/^\/+|\/+$/g, ''),
    caCertificate: encoded === undefined ? undefined : Buffer.from(encoded, 'base64').toString('utf8'),
  };
}

/** What a run with these variables would get, in words (for --dry-run); a problem is told, not thrown. */
export function describeDynamicCredentials(variables: readonly InjectedVariable[], phase: Phase): string[] {
  const env = envOf(variables);
  const lines: string[] = [];
  const tell = (describe: () => string | undefined) => {
    try {
      const line = describe();
      if (line !== undefined) lines.push(line);
    } catch (error) {
      if (!(error instanceof DynamicCredentialsError)) throw error;
      lines.push(error.message);
    }
  };
  tell(() => {
    const role = awsRoleOf(env, phase);
    return role && `AWS: the run's ${phase} token as AWS_WEB_IDENTITY_TOKEN_FILE, AWS_ROLE_ARN=${role}`;
  });
  tell(() => {
    const login = vaultLoginOf(env, phase);
    return login && `Vault: a JWT login with the run's ${phase} token at ${login.address}/v1/auth/${login.authPath}/login as role ${login.role}, as VAULT_ADDR and VAULT_TOKEN`;
  });
  return [...lines, ...skippedOf(env)];
}

const skippedOf = (env: Env) => NOT_YET_GIVEN.filter((name) => isOn(env, name)).map((name) => `${name} is true, but varsetd exec does not give these credentials yet`);

export interface DynamicCredentials {
  /** What COMMAND's environment gets, over the run's variables. */
  env: Record<string, string>;
  /** What turned-on targets get nothing, in words. */
  skipped: string[];
  /** Removes the files; safe to call more than once. */
  remove(): void;
}

export async function prepareDynamicCredentials(
  variables: readonly InjectedVariable[],
  runId: string,
  phase: Phase,
  mint: Mint,
  requester: (extraCa: string[]) => Requester,
): Promise<DynamicCredentials> {
  const env = envOf(variables);
  const role = awsRoleOf(env, phase);
  const vault = vaultLoginOf(env, phase);
  if (role === undefined && vault === undefined) return { env: {}, skipped: skippedOf(env), remove: () => {} };

  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-identity-'));
  const remove = () => fs.rmSync(folder, { recursive: true, force: true });
  const write = (name: string, content: string) => {
    const file = path.join(folder, name);
    fs.writeFileSync(file, content, { mode: 0o600, flag: 'wx' });
    return file;
  };
  try {
    const given: Record<string, string> = {};
    if (role !== undefined) Object.assign(given, { AWS_WEB_IDENTITY_TOKEN_FILE: write('aws.jwt', await mint('aws')), AWS_ROLE_ARN: role, AWS_ROLE_SESSION_NAME: runId });
    if (vault !== undefined) {
      const token = await vaultLogin(vault, await mint('vault'), requester(vault.caCertificate === undefined ? [] : [vault.caCertificate]));
      Object.assign(given, { VAULT_ADDR: vault.address, VAULT_TOKEN: token });
      if (vault.namespace !== undefined) given.VAULT_NAMESPACE = vault.namespace;
      if (vault.caCertificate !== undefined) given.VAULT_CACERT = write('vault-ca.pem', vault.caCertificate);
    }
    return { env: given, skipped: skippedOf(env), remove };
  } catch (error) {
    remove();
    throw error;
  }
}

/** Vault's JWT login: the run's token for a Vault token of the role. */
async function vaultLogin(login: VaultLogin, jwt: string, request: Requester): Promise<string> {
  const url = `${login.address}/v1/auth/${login.authPath}/login`;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(login.namespace === undefined ? {} : { 'x-vault-namespace': login.namespace }) };
  let response;
  try {
    response = await request('POST', url, headers, Buffer.from(JSON.stringify({ role: login.role, jwt })));
  } catch (error) {
    throw new DynamicCredentialsError(`the Vault login at ${url} failed: ${(error as Error).message}`);
  }
  let token: unknown;
  try {
    token = response.status === 200 ? (JSON.parse(response.body) as { auth?: { client_token?: unknown } }).auth?.client_token : undefined;
  } catch {
    token = undefined;
  }
  if (typeof token !== 'string' || token === '') throw new DynamicCredentialsError(`Vault refused the login at ${url} as role ${login.role} (${response.status})`);
  return token;
}
