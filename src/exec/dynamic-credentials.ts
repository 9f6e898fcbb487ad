import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectedVariable } from './api.js';
import {
  awsRoleOf,
  azureClientIdOf,
  DynamicCredentialsError,
  envOf,
  gcpCredentialsOf,
  gcpFederationOf,
  vaultLoginOf,
  type Phase,
  type VaultLogin,
} from './credential-variables.js';
import type { Requester } from './http.js';

/**
 * HCP Terraform's dynamic provider credentials, as `varsetd exec` gives them to COMMAND: for
 * each target the run's env variables turn on, a workload identity token of the run, and what
 * that target's SDKs and Terraform providers read. Files are written with mode 0600 in a folder
 * only this user reads, removed when COMMAND ends.
 */

export { DynamicCredentialsError, type Phase } from './credential-variables.js';
export type Mint = (target: 'aws' | 'azure' | 'gcp' | 'vault') => Promise<string>;

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
    return (
      login &&
      `Vault: a JWT login with the run's ${phase} token at ${login.address}/v1/auth/${login.authPath}/login as role ${login.role}, as VAULT_ADDR and VAULT_TOKEN`
    );
  });
  tell(() => {
    const gcp = gcpFederationOf(env, phase);
    return (
      gcp &&
      `Google Cloud: the run's ${phase} token exchanged at ${gcp.provider} for service account ${gcp.serviceAccount}, as GOOGLE_APPLICATION_CREDENTIALS (external account credentials)`
    );
  });
  tell(() => {
    const clientId = azureClientIdOf(env, phase);
    return (
      clientId &&
      `Azure: the run's ${phase} token as ARM_OIDC_TOKEN_FILE_PATH and AZURE_FEDERATED_TOKEN_FILE, ARM_CLIENT_ID=AZURE_CLIENT_ID=${clientId}, ARM_USE_OIDC=true`
    );
  });
  return lines;
}

export interface DynamicCredentials {
  /** What COMMAND's environment gets, over the run's variables. */
  env: Record<string, string>;
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
  const gcp = gcpFederationOf(env, phase);
  const azureClientId = azureClientIdOf(env, phase);
  if (role === undefined && vault === undefined && gcp === undefined && azureClientId === undefined)
    return { env: {}, remove: () => {} };

  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-identity-'));
  const remove = () => fs.rmSync(folder, { recursive: true, force: true });
  const write = (name: string, content: string) => {
    const file = path.join(folder, name);
    fs.writeFileSync(file, content, { mode: 0o600, flag: 'wx' });
    return file;
  };
  try {
    const given: Record<string, string> = {};
    if (role !== undefined)
      Object.assign(given, {
        AWS_WEB_IDENTITY_TOKEN_FILE: write('aws.jwt', await mint('aws')),
        AWS_ROLE_ARN: role,
        AWS_ROLE_SESSION_NAME: runId,
      });
    if (vault !== undefined) {
      const token = await vaultLogin(
        vault,
        await mint('vault'),
        requester(vault.caCertificate === undefined ? [] : [vault.caCertificate]),
      );
      Object.assign(given, { VAULT_ADDR: vault.address, VAULT_TOKEN: token });
      if (vault.namespace !== undefined) given.VAULT_NAMESPACE = vault.namespace;
      if (vault.caCertificate !== undefined) given.VAULT_CACERT = write('vault-ca.pem', vault.caCertificate);
    }
    if (gcp !== undefined) {
      const tokenFile = write('gcp.jwt', await mint('gcp'));
      given.GOOGLE_APPLICATION_CREDENTIALS = write(
        'gcp-credentials.json',
        `${JSON.stringify(gcpCredentialsOf(gcp, tokenFile), null, 2)}\n`,
      );
    }
    if (azureClientId !== undefined) {
      const tokenFile = write('azure.jwt', await mint('azure'));
      Object.assign(given, {
        ARM_OIDC_TOKEN_FILE_PATH: tokenFile,
        ARM_CLIENT_ID: azureClientId,
        ARM_USE_OIDC: 'true',
        AZURE_FEDERATED_TOKEN_FILE: tokenFile,
        AZURE_CLIENT_ID: azureClientId,
      });
    }
    return { env: given, remove };
  } catch (error) {
    remove();
    throw error;
  }
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
