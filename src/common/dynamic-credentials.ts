/**
 * HCP Terraform's dynamic provider credentials as a run's env variables turn them on: each
 * target's switch, and the audience of its workload identity tokens (HCP Terraform's default
 * unless `TFC_<TARGET>_WORKLOAD_IDENTITY_AUDIENCE` says otherwise). Shared by the issuer and
 * the explain view of effective variables.
 */

/** The targets whose credentials a run's variables can turn on, with HCP Terraform's default audience of each. */
export const TARGETS = {
  aws: { auth: 'TFC_AWS_PROVIDER_AUTH', audience: 'TFC_AWS_WORKLOAD_IDENTITY_AUDIENCE', defaultAudience: 'aws.workload.identity' },
  azure: { auth: 'TFC_AZURE_PROVIDER_AUTH', audience: 'TFC_AZURE_WORKLOAD_IDENTITY_AUDIENCE', defaultAudience: 'api://AzureADTokenExchange' },
  vault: { auth: 'TFC_VAULT_PROVIDER_AUTH', audience: 'TFC_VAULT_WORKLOAD_IDENTITY_AUDIENCE', defaultAudience: 'vault.workload.identity' },
} as const;
export type Target = keyof typeof TARGETS;
export const TARGET_NAMES = Object.keys(TARGETS) as Target[];

/** The audience of a target's tokens for a run with these env variables; undefined when they do not turn the target on. */
export function audienceOf(target: Target, env: ReadonlyMap<string, string>): string | undefined {
  const { auth, audience, defaultAudience } = TARGETS[target];
  if (env.get(auth)?.trim().toLowerCase() !== 'true') return undefined;
  const chosen = env.get(audience)?.trim();
  return chosen ? chosen : defaultAudience;
}

/** The targets these env variables turn on, each with its audience. */
export function dynamicCredentialsOf(env: ReadonlyMap<string, string>): { target: Target; audience: string }[] {
  return TARGET_NAMES.flatMap((target) => {
    const audience = audienceOf(target, env);
    return audience === undefined ? [] : [{ target, audience }];
  });
}
