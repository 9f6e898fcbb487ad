/**
 * Workload identity tokens, as HCP Terraform mints them for its runs' dynamic provider
 * credentials: an OpenID Connect ID token per run phase and per configuration of a target (its
 * default one, or an alias's), its audience the target's default unless the run's
 * `TFC_<TARGET>_WORKLOAD_IDENTITY_AUDIENCE[_<TAG>]` says otherwise.
 */

export {
  ALIAS_PATTERN,
  audienceOf,
  isTurnedOn,
  nameOf,
  TARGET_NAMES,
  type Configuration,
  type Target,
} from '../common/dynamic-credentials.js';

export const RUN_PHASES = ['plan', 'apply'] as const;
export type RunPhase = (typeof RUN_PHASES)[number];

export interface RunIdentity {
  organization: string;
  project: string;
  workspace: string;
  workspaceId: string;
  runId: string;
  phase: RunPhase;
}

/** The claims of a token, in HCP Terraform's shape; times in seconds since the epoch. */
export interface WorkloadIdentityClaims {
  jti: string;
  iss: string;
  aud: string;
  sub: string;
  iat: number;
  nbf: number;
  exp: number;
  terraform_organization_name: string;
  terraform_project_name: string;
  terraform_workspace_name: string;
  terraform_workspace_id: string;
  terraform_full_workspace: string;
  terraform_run_id: string;
  terraform_run_phase: RunPhase;
}

export function claimsOf(
  identity: RunIdentity,
  token: { jti: string; iss: string; aud: string; issuedAt: number; expiresAt: number },
): WorkloadIdentityClaims {
  const workspace = `organization:${identity.organization}:project:${identity.project}:workspace:${identity.workspace}`;
  const seconds = (ms: number) => Math.floor(ms / 1000);
  return {
    jti: token.jti,
    iss: token.iss,
    aud: token.aud,
    sub: `${workspace}:run_phase:${identity.phase}`,
    iat: seconds(token.issuedAt),
    nbf: seconds(token.issuedAt),
    exp: seconds(token.expiresAt),
    terraform_organization_name: identity.organization,
    terraform_project_name: identity.project,
    terraform_workspace_name: identity.workspace,
    terraform_workspace_id: identity.workspaceId,
    terraform_full_workspace: workspace,
    terraform_run_id: identity.runId,
    terraform_run_phase: identity.phase,
  };
}

/** A signing key as the store keeps it, its private key still sealed; times are ISO 8601. */
export interface SigningKey {
  id: string;
  publicJwk: JsonWebKeyPublic;
  sealedPrivateKey: string;
  createdAt: string;
  signsFrom: string;
  signsUntil: string | null;
  publishedUntil: string | null;
}

export interface JsonWebKeyPublic {
  kty: 'RSA';
  n: string;
  e: string;
  kid: string;
  alg: 'RS256';
  use: 'sig';
}

/** The key that signs at `at`: the latest whose time to sign has come and not passed. */
export function signingKeyAt(keys: readonly SigningKey[], at: string): SigningKey | undefined {
  return keys
    .filter((k) => k.signsFrom <= at && (k.signsUntil === null || at < k.signsUntil))
    .sort((a, b) => (a.signsFrom === b.signsFrom ? (a.id < b.id ? -1 : 1) : a.signsFrom < b.signsFrom ? 1 : -1))[0];
}

/** The keys published at `at`: every key not yet due to sign (the next one) and every key some unexpired token may be signed with. */
export function publishedKeys(keys: readonly SigningKey[], at: string): SigningKey[] {
  return keys
    .filter((k) => k.publishedUntil === null || at < k.publishedUntil)
    .sort((a, b) => (a.signsFrom < b.signsFrom ? -1 : a.signsFrom > b.signsFrom ? 1 : 0));
}

/**
 * When a token issued at `issuedAt` by `key` expires: `ttlMs` later, but never after its key
 * stops being published, nor after the run's deadline.
 */
export function expiryOf(issuedAt: number, ttlMs: number, key: SigningKey, runDeadline: number): number {
  const bounds = [issuedAt + ttlMs, runDeadline];
  if (key.publishedUntil !== null) bounds.push(Date.parse(key.publishedUntil));
  return Math.min(...bounds);
}
