import type { InjectedVariable } from './api.js';

/**
 * What a run's env variables say about each target of HCP Terraform's dynamic provider
 * credentials, read by their documented names: undefined when the target is not turned on,
 * a DynamicCredentialsError when it is but a variable it needs is missing.
 */

export type Phase = 'plan' | 'apply';
export type Env = ReadonlyMap<string, string>;

export class DynamicCredentialsError extends Error {}

const isOn = (env: Env, name: string) => env.get(name)?.trim().toLowerCase() === 'true';
const value = (env: Env, name: string) => env.get(name)?.trim() || undefined;
export const envOf = (variables: readonly InjectedVariable[]): Env =>
  new Map(variables.filter((v) => v.category === 'env').map((v) => [v.key, v.value ?? '']));

/** TFC_<TARGET>_<PHASE>_<WHAT>, else TFC_<TARGET>_RUN_<WHAT>; throws when neither is set. */
function byPhase(env: Env, target: string, what: string, phase: Phase): string {
  const phased = `TFC_${target}_${phase.toUpperCase()}_${what}`;
  const found = value(env, phased) ?? value(env, `TFC_${target}_RUN_${what}`);
  if (!found)
    throw new DynamicCredentialsError(
      `TFC_${target}_PROVIDER_AUTH is true, but neither ${phased} nor TFC_${target}_RUN_${what} is set`,
    );
  return found;
}

/** The AWS role a run's phase assumes. */
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

/** Where and as which role a run's phase logs in to Vault. */
export function vaultLoginOf(env: Env, phase: Phase): VaultLogin | undefined {
  if (!isOn(env, 'TFC_VAULT_PROVIDER_AUTH')) return undefined;
  const address = value(env, 'TFC_VAULT_ADDR');
  if (!address || !/^https?:\/\//.test(address))
    throw new DynamicCredentialsError('TFC_VAULT_PROVIDER_AUTH is true, but TFC_VAULT_ADDR is not an http(s) URL');
  const encoded = value(env, 'TFC_VAULT_ENCODED_CACERT');
  return {
    address: address.replace(/\/+$/, ''),
    role: byPhase(env, 'VAULT', 'ROLE', phase),
    namespace: value(env, 'TFC_VAULT_NAMESPACE'),
    authPath: (value(env, 'TFC_VAULT_AUTH_PATH') ?? 'jwt').replace(/^\/+|\/+$/g, ''),
    caCertificate: encoded === undefined ? undefined : Buffer.from(encoded, 'base64').toString('utf8'),
  };
}

export interface GcpFederation {
  /** The workload identity pool provider's full resource name, projects/…/providers/…. */
  provider: string;
  serviceAccount: string;
}

/** The pool provider a run's phase exchanges its token at, and the service account it impersonates. */
export function gcpFederationOf(env: Env, phase: Phase): GcpFederation | undefined {
  if (!isOn(env, 'TFC_GCP_PROVIDER_AUTH')) return undefined;
  const provider = value(env, 'TFC_GCP_WORKLOAD_PROVIDER_NAME')?.replace(/^\/+/, '');
  if (!provider)
    throw new DynamicCredentialsError('TFC_GCP_PROVIDER_AUTH is true, but TFC_GCP_WORKLOAD_PROVIDER_NAME is not set');
  return { provider, serviceAccount: byPhase(env, 'GCP', 'SERVICE_ACCOUNT_EMAIL', phase) };
}

/** The application (client) ID a run's phase signs in to Microsoft Entra ID as. */
export function azureClientIdOf(env: Env, phase: Phase): string | undefined {
  return isOn(env, 'TFC_AZURE_PROVIDER_AUTH') ? byPhase(env, 'AZURE', 'CLIENT_ID', phase) : undefined;
}

/**
 * Google's external account credentials: its SDKs and the google provider exchange the token in
 * `tokenFile` at the security token service, then impersonate the service account with it.
 */
export function gcpCredentialsOf(federation: GcpFederation, tokenFile: string): object {
  return {
    type: 'external_account',
    audience: `//iam.googleapis.com/${federation.provider}`,
    subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
    token_url: 'https://sts.googleapis.com/v1/token',
    credential_source: { file: tokenFile, format: { type: 'text' } },
    service_account_impersonation_url: `https://iamcredentials.googleapis.com/v1/projects/-/serviceAccounts/${federation.serviceAccount}:generateAccessToken`,
  };
}
