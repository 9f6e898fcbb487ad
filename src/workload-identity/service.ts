import { randomUUID } from 'node:crypto';
import type { Context } from '../auth/context.js';
import { recordAuditEvent } from '../audit/service.js';
import { Conflict, NotFound, Unprocessable } from '../common/errors.js';
import { transaction, type Store } from '../db/transaction.js';
import { openRunVariables } from '../effective/service.js';
import { projectsOfOrganization } from '../projects/service.js';
import { getOwnUnfinishedRun } from '../runs/service.js';
import type { Sealer } from '../secrets/sealer.js';
import { getWorkspace } from '../workspaces/service.js';
import { generateSigningKey, signJwt } from './jwt.js';
import {
  audienceOf,
  claimsOf,
  expiryOf,
  isTurnedOn,
  nameOf,
  publishedKeys,
  signingKeyAt,
  type Configuration,
  type JsonWebKeyPublic,
  type RunPhase,
  type SigningKey,
} from './model.js';
import * as store from './store.js';

export interface IssuerOptions {
  /** The issuer's URL (`iss`), where relying parties find `/.well-known/openid-configuration`. */
  issuer: string;
  /** The longest a token is valid. */
  tokenTtlMs: number;
  /** A run's tokens expire at the latest this long after the run was created. */
  runLifetimeMs: number;
}

/** The OpenID Connect discovery document of the issuer. */
export function discoveryDocument(issuer: string) {
  return {
    issuer,
    jwks_uri: `${issuer}/.well-known/jwks`,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    claims_supported: [
      'sub',
      'aud',
      'exp',
      'iat',
      'iss',
      'jti',
      'nbf',
      'terraform_organization_name',
      'terraform_project_name',
      'terraform_workspace_name',
      'terraform_workspace_id',
      'terraform_full_workspace',
      'terraform_run_id',
      'terraform_run_phase',
    ],
  };
}

/** The public keys relying parties verify tokens with: the signing key, the next one, and every retired key an unexpired token may name. */
export async function publishedJwks(db: Store['db']): Promise<{ keys: JsonWebKeyPublic[] }> {
  const at = new Date().toISOString();
  return { keys: publishedKeys(await store.listLiveKeys(db, at), at).map((k) => k.publicJwk) };
}

/** The published keys, oldest first (for `varsetd identity-keys list`). */
export async function listSigningKeys(db: Store['db']): Promise<SigningKey[]> {
  const at = new Date().toISOString();
  return publishedKeys(await store.listLiveKeys(db, at), at);
}

export interface MintedToken {
  token: string;
  jti: string;
  audience: string;
  expiresAt: string;
}

/**
 * A workload identity token of a run for a configuration of a target (its default one, or an
 * alias's) and `phase`, for the run's own token only while the run has not finished; its
 * audience is the configuration's as the run's env variables say, and they must turn it on.
 * Recorded in the audit trail (never the token).
 */
export async function mintRunToken(
  ctx: Context,
  options: IssuerOptions,
  runId: string,
  phase: RunPhase,
  configuration: Configuration,
): Promise<MintedToken> {
  const { target, alias } = configuration;
  const { run, location } = await getOwnUnfinishedRun(ctx, runId);
  const { workspace, organization } = await getWorkspace(ctx, { id: run.workspace_id }, 'run:create');
  const project = (await projectsOfOrganization(ctx, organization.id, [workspace.project_id]))[0];
  if (!project) throw new NotFound();
  const env = new Map(
    (await openRunVariables(ctx.store.db, ctx.sealer, run.id))
      .filter((v) => v.category === 'env')
      .map((v) => [v.key, v.value]),
  );
  if (phase === 'apply' && run.plan_only)
    throw new Unprocessable(`run ${run.id} is a speculative plan: it has no apply phase`, 'phase');
  const field = alias === null ? 'target' : 'alias';
  if (!isTurnedOn(env, configuration))
    throw new Unprocessable(
      `the run's variables do not turn on ${target} workload identity${alias === null ? '' : ` for alias ${alias}`} (${nameOf(configuration, 'PROVIDER_AUTH')}=true)`,
      field,
    );
  const audience = audienceOf(env, configuration);
  if (audience === undefined)
    throw new Unprocessable(
      `the run's variables give ${target} tokens no audience: set ${nameOf(configuration, 'WORKLOAD_IDENTITY_AUDIENCE')} or ${nameOf(configuration, 'WORKLOAD_PROVIDER_NAME')}`,
      field,
    );

  const issuedAt = Date.now();
  const key = await currentSigningKey(ctx.store, ctx.sealer, new Date(issuedAt).toISOString(), options.tokenTtlMs);
  const expiresAt = expiryOf(issuedAt, options.tokenTtlMs, key, Date.parse(run.created_at) + options.runLifetimeMs);
  if (expiresAt <= issuedAt + 1000)
    throw new Conflict(`run ${run.id} has outlived the time its tokens may be valid for`);
  const jti = randomUUID();
  const identity = {
    organization: organization.name,
    project: project.name,
    workspace: workspace.name,
    workspaceId: workspace.id,
    runId: run.id,
    phase,
  };
  const claims = claimsOf(identity, { jti, iss: options.issuer, aud: audience, issuedAt, expiresAt });
  const token = signJwt(ctx.sealer.open(key.sealedPrivateKey), key.id, claims);
  await transaction(ctx.store, async (trx) => {
    const meta = {
      jti,
      kid: key.id,
      audience,
      phase,
      target,
      ...(alias === null ? {} : { alias }),
      subject: claims.sub,
      expires_at: new Date(claims.exp * 1000).toISOString(),
    };
    recordAuditEvent(trx, ctx, {
      organizationId: location.organizationId,
      type: 'run',
      id: run.id,
      action: 'workload-identity-token',
      meta,
    });
  });
  return { token, jti, audience, expiresAt: new Date(claims.exp * 1000).toISOString() };
}

/**
 * The key that signs now. The issuer's first key is made here, when the first token is asked
 * for; should a rotation have published a next key already, the one made here signs only until
 * that one takes over, as a rotated key would.
 */
async function currentSigningKey(db: Store, sealer: Sealer, at: string, tokenTtlMs: number): Promise<SigningKey> {
  const found = signingKeyAt(await store.listLiveKeys(db.db, at), at);
  if (found) return found;
  return transaction(db, async (trx) => {
    const keys = await store.listLiveKeys(trx, at);
    const again = signingKeyAt(keys, at);
    if (again) return again;
    const next = keys.filter((k) => k.signsFrom > at).sort((x, y) => (x.signsFrom < y.signsFrom ? -1 : 1))[0];
    const key = newKey(sealer, at, at);
    if (next)
      Object.assign(key, {
        signsUntil: next.signsFrom,
        publishedUntil: new Date(Date.parse(next.signsFrom) + tokenTtlMs).toISOString(),
      });
    await store.insertKey(trx, key);
    return key;
  });
}

function newKey(sealer: Sealer, createdAt: string, signsFrom: string): SigningKey {
  const { publicJwk, privateKey } = generateSigningKey();
  return {
    id: publicJwk.kid,
    publicJwk,
    sealedPrivateKey: sealer.seal(privateKey),
    createdAt,
    signsFrom,
    signsUntil: null,
    publishedUntil: null,
  };
}

/**
 * Rotation: a new key, published at once and signing `leadMs` from now (relying parties that
 * cache the key set see it before any token names it); the keys signing until then stop at
 * that moment and stay published `tokenTtlMs` longer, by when every token they signed has expired.
 */
export async function rotateSigningKey(
  db: Store,
  sealer: Sealer,
  leadMs: number,
  tokenTtlMs: number,
): Promise<SigningKey> {
  const now = Date.now();
  const signsFrom = new Date(now + leadMs).toISOString();
  const key = newKey(sealer, new Date(now).toISOString(), signsFrom);
  await transaction(db, async (trx) => {
    await store.closeOpenKeys(trx, signsFrom, new Date(now + leadMs + tokenTtlMs).toISOString());
    await store.insertKey(trx, key);
  });
  return key;
}
