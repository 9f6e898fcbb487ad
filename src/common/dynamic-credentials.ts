/**
 * HCP Terraform's dynamic provider credentials as a run's env variables turn them on: each
 * target's switch, and the audience of its workload identity tokens (HCP Terraform's default
 * unless `TFC_<TARGET>_WORKLOAD_IDENTITY_AUDIENCE` says otherwise). Shared by the issuer and
 * the explain view of effective variables.
 */

type Env = ReadonlyMap<string, string>;
const fixed = (audience: string) => () => audience;

/**
 * The targets whose credentials a run's variables can turn on, with HCP Terraform's default
 * audience of each: Google Cloud's is the workload identity pool provider's resource name, so
 * without TFC_GCP_WORKLOAD_PROVIDER_NAME there is none.
 */
export const TARGETS = {
  aws: {
    auth: 'TFC_AWS_PROVIDER_AUTH',
    audience: 'TFC_AWS_WORKLOAD_IDENTITY_AUDIENCE',
    defaultAudience: fixed('aws.workload.identity'),
  },
  azure: {
    auth: 'TFC_AZURE_PROVIDER_AUTH',
    audience: 'TFC_AZURE_WORKLOAD_IDENTITY_AUDIENCE',
    defaultAudience: fixed('api://AzureADTokenExchange'),
  },
  gcp: {
    auth: 'TFC_GCP_PROVIDER_AUTH',
    audience: 'TFC_GCP_WORKLOAD_IDENTITY_AUDIENCE',
    defaultAudience: gcpAudienceOf,
  },
  vault: {
    auth: 'TFC_VAULT_PROVIDER_AUTH',
    audience: 'TFC_VAULT_WORKLOAD_IDENTITY_AUDIENCE',
    defaultAudience: fixed('vault.workload.identity'),
  },
} as const;
export type Target = keyof typeof TARGETS;
export const TARGET_NAMES = Object.keys(TARGETS) as Target[];

/** The audience Google Cloud's security token service expects: the provider's full resource name. */
export function gcpAudienceOf(env: Env): string | undefined {
  const provider = env.get('TFC_GCP_WORKLOAD_PROVIDER_NAME')?.trim().replace(/^\/+/, '');
  return provider ? `//iam.googleapis.com/${provider}` : undefined;
}

export const isTurnedOn = (target: Target, env: Env) => env.get(TARGETS[target].auth)?.trim().toLowerCase() === 'true';

/**
 * The audience of a target's tokens for a run with these env variables; undefined when they do
 * not turn the target on, or when they leave it without one (Google Cloud without a provider).
 */
export function audienceOf(target: Target, env: Env): string | undefined {
  const { audience, defaultAudience } = TARGETS[target];
  if (!isTurnedOn(target, env)) return undefined;
  const chosen = env.get(audience)?.trim();
  return chosen ? chosen : defaultAudience(env);
}

/** The targets these env variables turn on, each with its audience. */
export function dynamicCredentialsOf(env: Env): { target: Target; audience: string }[] {
  return TARGET_NAMES.flatMap((target) => {
    const audience = audienceOf(target, env);
    return audience === undefined ? [] : [{ target, audience }];
  });
}
