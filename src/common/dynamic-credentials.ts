/**
 * HCP Terraform's dynamic provider credentials as a run's env variables configure them, read
 * by their documented names: which configurations are turned on (a target's default one,
 * `TFC_AWS_PROVIDER_AUTH`, and one per tag, `TFC_AWS_PROVIDER_AUTH_<TAG>`), the value each
 * reads (its own tagged variable, else the shared `TFC_DEFAULT_…` one), the audience of its
 * workload identity tokens, and the phases it has all it needs for. One place for these rules:
 * the issuer, the explain view of effective variables and `varsetd exec` all read them here
 * (exec's one exception to sharing nothing with the server but the API prefix).
 */

type Env = ReadonlyMap<string, string>;
export type Phase = 'plan' | 'apply';
export const PHASES: readonly Phase[] = ['plan', 'apply'];

/**
 * The targets, with the part of their variables' names (`TFC_<NAME>_…`), HCP Terraform's
 * default audience of their tokens (Google Cloud's is the workload identity pool provider's
 * resource name, so without TFC_GCP_WORKLOAD_PROVIDER_NAME there is none), the variable
 * chosen by phase (`TFC_AWS_PLAN_ROLE_ARN`, else `TFC_AWS_RUN_ROLE_ARN`), and the others a
 * configuration needs.
 */
export const TARGETS = {
  aws: { name: 'AWS', defaultAudience: fixed('aws.workload.identity'), byPhase: 'ROLE_ARN', needs: [] },
  azure: { name: 'AZURE', defaultAudience: fixed('api://AzureADTokenExchange'), byPhase: 'CLIENT_ID', needs: [] },
  gcp: {
    name: 'GCP',
    defaultAudience: gcpAudienceOf,
    byPhase: 'SERVICE_ACCOUNT_EMAIL',
    needs: ['WORKLOAD_PROVIDER_NAME'],
  },
  vault: { name: 'VAULT', defaultAudience: fixed('vault.workload.identity'), byPhase: 'ROLE', needs: ['ADDR'] },
} as const satisfies Record<
  string,
  {
    name: string;
    defaultAudience: (env: Env, configuration: Configuration) => string | undefined;
    byPhase: string;
    needs: readonly string[];
  }
>;
export type Target = keyof typeof TARGETS;
export const TARGET_NAMES = Object.keys(TARGETS) as Target[];

/** One configuration of a target: its default one (alias null), or the one of a tag. */
export interface Configuration {
  target: Target;
  alias: string | null;
}

/**
 * A tag: letters, digits and underscores. `TYPE` is reserved by HCP Terraform (its
 * `TFC_VAULT_BACKED_…_AUTH_TYPE` variables), so `TFC_AWS_PROVIDER_AUTH_TYPE` names no alias.
 */
export const ALIAS_PATTERN = /^[A-Za-z0-9_]+$/;
const isAlias = (tag: string) => ALIAS_PATTERN.test(tag) && tag !== 'TYPE';

function fixed(audience: string) {
  return () => audience;
}

/** `TFC_<TARGET>_<what>`, followed by `_<TAG>` for an alias's configuration. */
export function nameOf({ target, alias }: Configuration, what: string): string {
  return `TFC_${TARGETS[target].name}_${what}${alias === null ? '' : `_${alias}`}`;
}

/** The variable every configuration of the target falls back on: `TFC_DEFAULT_<TARGET>_<what>`. */
export const sharedNameOf = (target: Target, what: string) => `TFC_DEFAULT_${TARGETS[target].name}_${what}`;

const read = (env: Env, name: string) => env.get(name)?.trim() || undefined;

/** What a configuration reads for `what`: its own variable, else the shared default; undefined when neither is set. */
export function valueOf(env: Env, configuration: Configuration, what: string): string | undefined {
  return read(env, nameOf(configuration, what)) ?? read(env, sharedNameOf(configuration.target, what));
}

/**
 * The names a configuration's per-phase value is read from, first found wins: its own for the
 * phase, the shared one for the phase, its own for every run, the shared one for every run.
 */
export function phasedNamesOf(configuration: Configuration, what: string, phase: Phase): string[] {
  const { target } = configuration;
  const phased = `${phase.toUpperCase()}_${what}`;
  return [
    nameOf(configuration, phased),
    sharedNameOf(target, phased),
    nameOf(configuration, `RUN_${what}`),
    sharedNameOf(target, `RUN_${what}`),
  ];
}

export function phasedValueOf(env: Env, configuration: Configuration, what: string, phase: Phase): string | undefined {
  for (const name of phasedNamesOf(configuration, what, phase)) {
    const found = read(env, name);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A configuration is on when its own switch, `TFC_<TARGET>_PROVIDER_AUTH[_<TAG>]`, is `true` (and its tag is one). */
export const isTurnedOn = (env: Env, configuration: Configuration) =>
  (configuration.alias === null || isAlias(configuration.alias)) &&
  env.get(nameOf(configuration, 'PROVIDER_AUTH'))?.trim().toLowerCase() === 'true';

/** The configurations these env variables turn on: by target, each default one first, then its aliases by name. */
export function configurationsOf(env: Env): Configuration[] {
  return TARGET_NAMES.flatMap((target) => {
    const prefix = `${nameOf({ target, alias: null }, 'PROVIDER_AUTH')}_`;
    const aliases = [...env.keys()]
      .filter((key) => key.startsWith(prefix) && isAlias(key.slice(prefix.length)))
      .map((key) => key.slice(prefix.length))
      .sort();
    return [null, ...aliases]
      .map((alias) => ({ target, alias }))
      .filter((configuration) => isTurnedOn(env, configuration));
  });
}

/** The audience Google Cloud's security token service expects: the provider's full resource name. */
export function gcpProviderOf(env: Env, configuration: Configuration): string | undefined {
  return valueOf(env, configuration, 'WORKLOAD_PROVIDER_NAME')?.replace(/^\/+/, '') || undefined;
}

function gcpAudienceOf(env: Env, configuration: Configuration): string | undefined {
  const provider = gcpProviderOf(env, configuration);
  return provider ? `//iam.googleapis.com/${provider}` : undefined;
}

/**
 * The audience of a configuration's tokens: `TFC_<TARGET>_WORKLOAD_IDENTITY_AUDIENCE[_<TAG>]`
 * (or its shared default), else HCP Terraform's default; undefined when the configuration is
 * not on, or has none (Google Cloud without a provider).
 */
export function audienceOf(env: Env, configuration: Configuration): string | undefined {
  if (!isTurnedOn(env, configuration)) return undefined;
  return (
    valueOf(env, configuration, 'WORKLOAD_IDENTITY_AUDIENCE') ??
    TARGETS[configuration.target].defaultAudience(env, configuration)
  );
}

/**
 * What a configuration lacks for a phase, each in words naming the variables that would give
 * it (`neither TFC_AWS_PLAN_ROLE_ARN nor TFC_AWS_RUN_ROLE_ARN is set`); empty when it has all.
 */
export function missingOf(env: Env, configuration: Configuration, phase: Phase): string[] {
  const { target } = configuration;
  const missing: string[] = [];
  for (const what of TARGETS[target].needs) {
    const value = valueOf(env, configuration, what);
    if (what === 'ADDR') {
      if (!/^https?:\/\//.test(value ?? '')) missing.push(`${nameOf(configuration, what)} is not an http(s) URL`);
    } else if (value === undefined) missing.push(`${nameOf(configuration, what)} is not set`);
  }
  const what = TARGETS[target].byPhase;
  if (phasedValueOf(env, configuration, what, phase) === undefined) {
    const [own, , run] = phasedNamesOf(configuration, what, phase);
    missing.push(`neither ${own} nor ${run} is set`);
  }
  return missing;
}

export interface DynamicCredentialsEntry {
  target: Target;
  /** The tag of an alias's configuration; null for the target's default one. */
  alias: string | null;
  audience: string;
  /** The phases the configuration has every variable it needs for. */
  phases: Phase[];
}

/** The configurations these env variables turn on, each with its audience and complete phases. */
export function dynamicCredentialsOf(env: Env): DynamicCredentialsEntry[] {
  return configurationsOf(env).flatMap((configuration) => {
    const audience = audienceOf(env, configuration);
    if (audience === undefined) return [];
    const phases = PHASES.filter((phase) => missingOf(env, configuration, phase).length === 0);
    return [{ ...configuration, audience, phases }];
  });
}
