import type { InjectedVariable } from './api.js';
import {
  gcpProviderOf,
  missingOf,
  nameOf,
  phasedValueOf,
  TARGETS,
  valueOf,
  type Configuration,
  type Phase,
} from '../common/dynamic-credentials.js';

/**
 * What a run's env variables give one configuration of HCP Terraform's dynamic provider
 * credentials (the rules are src/common/dynamic-credentials.ts's, shared with the server): a
 * DynamicCredentialsError when the configuration is on but lacks a variable it needs.
 */

export type { Configuration, Phase } from '../common/dynamic-credentials.js';
export type Env = ReadonlyMap<string, string>;

export class DynamicCredentialsError extends Error {}

export const envOf = (variables: readonly InjectedVariable[]): Env =>
  new Map(variables.filter((v) => v.category === 'env').map((v) => [v.key, v.value ?? '']));

/** The configuration's value for the phase, after checking it has everything it needs. */
function complete(env: Env, configuration: Configuration, phase: Phase): string {
  const [missing] = missingOf(env, configuration, phase);
  if (missing !== undefined)
    throw new DynamicCredentialsError(`${nameOf(configuration, 'PROVIDER_AUTH')} is true, but ${missing}`);
  return phasedValueOf(env, configuration, TARGETS[configuration.target].byPhase, phase)!;
}

/** The AWS role a run's phase assumes. */
export const awsRoleOf = (env: Env, configuration: Configuration, phase: Phase): string =>
  complete(env, configuration, phase);

export interface VaultLogin {
  address: string;
  role: string;
  namespace: string | undefined;
  authPath: string;
  caCertificate: string | undefined;
}

/** Where and as which role a run's phase logs in to Vault. */
export function vaultLoginOf(env: Env, configuration: Configuration, phase: Phase): VaultLogin {
  const role = complete(env, configuration, phase);
  const encoded = valueOf(env, configuration, 'ENCODED_CACERT');
  return {
    address: valueOf(env, configuration, 'ADDR')!.replace(/\/+$/, ''),
    role,
    namespace: valueOf(env, configuration, 'NAMESPACE'),
    authPath: (valueOf(env, configuration, 'AUTH_PATH') ?? 'jwt').replace(/^\/+|\/+$/g, ''),
    caCertificate: encoded === undefined ? undefined : Buffer.from(encoded, 'base64').toString('utf8'),
  };
}

export interface GcpFederation {
  /** The workload identity pool provider's full resource name, projects/…/providers/…. */
  provider: string;
  serviceAccount: string;
}

/** The pool provider a run's phase exchanges its token at, and the service account it impersonates. */
export function gcpFederationOf(env: Env, configuration: Configuration, phase: Phase): GcpFederation {
  const serviceAccount = complete(env, configuration, phase);
  return { provider: gcpProviderOf(env, configuration)!, serviceAccount };
}

/** The application (client) ID a run's phase signs in to Microsoft Entra ID as. */
export const azureClientIdOf = (env: Env, configuration: Configuration, phase: Phase): string =>
  complete(env, configuration, phase);

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
