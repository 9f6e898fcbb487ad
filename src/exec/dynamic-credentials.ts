import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectedVariable } from './api.js';

/**
 * HCP Terraform's dynamic provider credentials, as `varsetd exec` gives them to COMMAND: for
 * each target the run's env variables turn on, a workload identity token in a file of its own
 * (mode 0600, in a folder only this user reads, removed when COMMAND ends) and the environment
 * that target's SDKs and Terraform providers read it from.
 */

export type Phase = 'plan' | 'apply';
export type Mint = (target: 'aws') => Promise<string>;

export class DynamicCredentialsError extends Error {}

/** The targets the variables turn on that `varsetd exec` does not give credentials for yet. */
export const NOT_YET_GIVEN = ['TFC_GCP_PROVIDER_AUTH', 'TFC_AZURE_PROVIDER_AUTH', 'TFC_VAULT_PROVIDER_AUTH'];

const isOn = (env: ReadonlyMap<string, string>, name: string) => env.get(name)?.trim().toLowerCase() === 'true';

/** The AWS role a run's phase assumes: TFC_AWS_PLAN_ROLE_ARN or TFC_AWS_APPLY_ROLE_ARN, else TFC_AWS_RUN_ROLE_ARN; undefined when AWS is not turned on. */
export function awsRoleOf(env: ReadonlyMap<string, string>, phase: Phase): string | undefined {
  if (!isOn(env, 'TFC_AWS_PROVIDER_AUTH')) return undefined;
  const role = env.get(`TFC_AWS_${phase.toUpperCase()}_ROLE_ARN`)?.trim() || env.get('TFC_AWS_RUN_ROLE_ARN')?.trim();
  if (!role)
    throw new DynamicCredentialsError(`TFC_AWS_PROVIDER_AUTH is true, but neither TFC_AWS_${phase.toUpperCase()}_ROLE_ARN nor TFC_AWS_RUN_ROLE_ARN names the role to assume`);
  return role;
}

/** What a run with these variables would get, in words (for --dry-run); a problem is told, not thrown. */
export function describeDynamicCredentials(variables: readonly InjectedVariable[], phase: Phase): string[] {
  const env = envOf(variables);
  const lines = NOT_YET_GIVEN.filter((name) => isOn(env, name)).map((name) => `${name} is true, but varsetd exec does not give these credentials yet`);
  try {
    const role = awsRoleOf(env, phase);
    if (role !== undefined) lines.unshift(`AWS: the run's ${phase} token as AWS_WEB_IDENTITY_TOKEN_FILE, AWS_ROLE_ARN=${role}`);
  } catch (error) {
    if (!(error instanceof DynamicCredentialsError)) throw error;
    lines.unshift(error.message);
  }
  return lines;
}

const envOf = (variables: readonly InjectedVariable[]) => new Map(variables.filter((v) => v.category === 'env').map((v) => [v.key, v.value ?? '']));

export interface DynamicCredentials {
  /** What COMMAND's environment gets, over the run's variables. */
  env: Record<string, string>;
  /** What turned-on targets get nothing, in words. */
  skipped: string[];
  /** Removes the token files; safe to call more than once. */
  remove(): void;
}

export async function prepareDynamicCredentials(variables: readonly InjectedVariable[], runId: string, phase: Phase, mint: Mint): Promise<DynamicCredentials> {
  const env = envOf(variables);
  const skipped = NOT_YET_GIVEN.filter((name) => isOn(env, name)).map((name) => `${name} is true, but varsetd exec does not give these credentials yet`);
  const role = awsRoleOf(env, phase);
  if (role === undefined) return { env: {}, skipped, remove: () => {} };

  const token = await mint('aws');
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-identity-'));
  const remove = () => fs.rmSync(folder, { recursive: true, force: true });
  try {
    const file = path.join(folder, 'aws.jwt');
    fs.writeFileSync(file, token, { mode: 0o600, flag: 'wx' });
    return { env: { AWS_WEB_IDENTITY_TOKEN_FILE: file, AWS_ROLE_ARN: role, AWS_ROLE_SESSION_NAME: runId }, skipped, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
