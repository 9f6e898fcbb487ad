import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../test/support/processes.js';

/** Terraform and a filesystem mirror holding the tfe provider, as scripts/tfe-provider.sh prints them (building them once). */
export interface Tools {
  terraform: string;
  mirror: string;
  providerVersion: string;
}

export function prepareTools(): Tools {
  return JSON.parse(
    execFileSync('bash', [path.join(ROOT, 'scripts/tfe-provider.sh')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
}

/** A CLI configuration that takes the tfe provider from the mirror only: the registry is never asked. */
export function cliConfiguration(tools: Tools): string {
  const provider = JSON.stringify('registry.terraform.io/hashicorp/tfe');
  return `provider_installation {
  filesystem_mirror {
    path    = ${JSON.stringify(tools.mirror)}
    include = [${provider}]
  }
  direct {
    exclude = [${provider}]
  }
}
`;
}

export interface TerraformResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * What Terraform runs with in a work area (its home, the CLI configuration of the mirror, the
 * authority varsetd's test certificate is signed by): debug logs to `logPath`, and each of
 * `variables` as `TF_VAR_<name>`.
 */
export function terraformEnvironment(
  work: string,
  logPath: string,
  variables: Record<string, string>,
  extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    HOME: path.join(work, 'home'),
    TF_CLI_CONFIG_FILE: path.join(work, 'terraform.tfrc'),
    TF_IN_AUTOMATION: '1',
    CHECKPOINT_DISABLE: '1',
    TF_LOG: 'DEBUG',
    TF_LOG_PATH: logPath,
    // Go's TLS reads the authorities to trust from here in place of the system's.
    SSL_CERT_FILE: path.join(work, 'tls/ca.pem'),
    ...extra,
  };
  for (const [variable, value] of Object.entries(variables)) env[`TF_VAR_${variable}`] = value;
  return env;
}

/** Runs `terraform ARGS -no-color` in `cwd`, with nothing of the caller's environment but PATH; stops it after `timeoutMs`. */
export function runTerraform(
  tools: Tools,
  cwd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<TerraformResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(tools.terraform, [...args, '-no-color'], {
      cwd,
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** What a plan would change: the part of its output between its header and its summary. */
export function planText(result: TerraformResult): string {
  return (
    /^Terraform will perform the following actions:\n([\s\S]*?^Plan: .*$)/m.exec(result.stdout)?.[1]?.trimEnd() ?? ''
  );
}

/** The part of `terraform show -json PLAN` read here. */
export interface PlanJson {
  resource_changes?: {
    address: string;
    type: string;
    mode: string;
    change: {
      actions: string[];
      before: Record<string, unknown> | null;
      after: Record<string, unknown> | null;
      after_unknown?: Record<string, unknown>;
    };
  }[];
}

export interface PlannedChange {
  address: string;
  type: string;
  actions: string;
  attributes: { name: string; before: string; after: string }[];
}

/** The managed resources a plan changes, each with the top-level attributes it changes. */
export function plannedChanges(plan: PlanJson): PlannedChange[] {
  const changes: PlannedChange[] = [];
  for (const { address, type, mode, change } of plan.resource_changes ?? []) {
    if (mode !== 'managed' || change.actions.every((action) => action === 'no-op')) continue;
    const before = change.before ?? {};
    const after = change.after ?? {};
    const unknown = change.after_unknown ?? {};
    const names = [...new Set([...Object.keys(before), ...Object.keys(after), ...Object.keys(unknown)])].sort();
    const attributes = names
      .map((name) => ({
        name,
        before: JSON.stringify(before[name] ?? null),
        after: unknown[name] === true ? '(known after apply)' : JSON.stringify(after[name] ?? null),
      }))
      .filter((attribute) => attribute.before !== attribute.after);
    changes.push({ address, type, actions: change.actions.join(', '), attributes });
  }
  return changes;
}

export function describeChanges(changes: PlannedChange[]): string {
  return changes
    .flatMap((change) => [
      `${change.address}: ${change.actions}`,
      ...change.attributes.map((a) => `    ${a.name}: ${a.before} -> ${a.after}`),
    ])
    .join('\n');
}

/** varsetd's JSON log as one line per request ("POST /api/v2/teams 422", with its status last), and any other line as is. */
export function requestLines(log: string): string[] {
  const lines: string[] = [];
  const started = new Map<string, string>();
  for (const line of log.split('\n')) {
    if (!line.startsWith('{')) {
      if (line.trim()) lines.push(line);
      continue;
    }
    const entry = JSON.parse(line);
    if (entry.msg === 'incoming request')
      started.set(entry.reqId, `${entry.req.method} ${decodeURIComponent(entry.req.url)}`);
    else if (entry.msg === 'request completed')
      lines.push(`${started.get(entry.reqId) ?? entry.reqId} ${entry.res.statusCode}`);
    else lines.push(line);
  }
  return lines;
}

/** Writes a command's output beside its debug log. */
export function keepOutput(file: string, args: string[], result: TerraformResult): void {
  fs.writeFileSync(file, `$ terraform ${args.join(' ')}\n${result.stdout}\n--- stderr ---\n${result.stderr}`);
}
