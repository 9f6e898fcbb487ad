import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ApiCallError, VarsetdApi, type InjectedVariable, type SetUsed } from './api.js';
import { packDirectory } from './archive.js';
import { exitCodeOfSignal, startChild, type ChildResult, type RunningChild } from './child.js';
import { CredentialsError, discoverServer } from './credentials.js';
import {
  describeDynamicCredentials,
  DynamicCredentialsError,
  prepareDynamicCredentials,
  type DynamicCredentials,
  type Phase,
} from './dynamic-credentials.js';
import { createRequester } from './http.js';
import { isIdentifier, renderTfvars } from './tfvars.js';

export const EXEC_USAGE = `usage: varsetd exec --workspace ORG/WORKSPACE [--message TEXT] [--dir DIR] [--phase plan|apply] [--dry-run] -- COMMAND [ARGS...]

  Uploads DIR (default: the current directory) as a configuration version of the workspace,
  creates a run on it, and runs COMMAND in DIR with the run's env variables in its environment
  and its Terraform variables in a *.auto.tfvars file, removed when COMMAND ends. The run
  becomes planning, then planned (exit code 0) or errored, and gets a comment. --dry-run
  prints what would be injected, sensitive values masked, and creates nothing. Where the
  variables turn on dynamic credentials (TFC_AWS_PROVIDER_AUTH=true), COMMAND gets a workload
  identity token of the run for --phase (plan unless given) as AWS's web identity; with
  TFC_VAULT_PROVIDER_AUTH=true, a Vault token from a JWT login with it; with
  TFC_GCP_PROVIDER_AUTH=true, Google external account credentials; with
  TFC_AZURE_PROVIDER_AUTH=true, the token as Azure's federated token file. Each alias
  (TFC_AWS_PROVIDER_AUTH_<TAG>=true, ...) gets its own token and files, named in the
  TF_VAR_tfc_<cloud>_dynamic_credentials input variable.
Server and token: VARSETD_ADDRESS; VARSETD_TOKEN, else TF_TOKEN_<host>, else
~/.terraform.d/credentials.tfrc.json. Exits with COMMAND's exit code.`;

export class UsageError extends Error {}

interface ExecOptions {
  organization: string;
  workspace: string;
  message: string | undefined;
  dir: string;
  dryRun: boolean;
  phase: Phase;
  command: string;
  args: string[];
}

const EXEC_OPTIONS = {
  workspace: { type: 'string' },
  message: { type: 'string' },
  dir: { type: 'string' },
  phase: { type: 'string' },
  'dry-run': { type: 'boolean' },
} as const;

export function parseExecArguments(argv: readonly string[], cwd: string): ExecOptions {
  const separator = argv.indexOf('--');
  const flags = separator === -1 ? [...argv] : argv.slice(0, separator);
  const [command, ...args] = separator === -1 ? [] : argv.slice(separator + 1);
  let target: string | undefined;
  let message: string | undefined;
  let dir = cwd;
  let dryRun = false;
  let phase: Phase = 'plan';
  // Not strict: parseArgs's own errors would name options differently; these are varsetd's.
  const { tokens } = parseArgs({
    args: flags,
    options: EXEC_OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const token of tokens) {
    const written = flags[token.index]!;
    if (token.kind !== 'option' || !Object.hasOwn(EXEC_OPTIONS, token.name) || token.rawName !== `--${token.name}`)
      throw new UsageError(`unknown option ${written}`);
    if (token.name === 'dry-run') {
      if (token.value !== undefined) throw new UsageError(`unknown option ${written}`);
      dryRun = true;
      continue;
    }
    if (token.value === undefined) throw new UsageError(`${token.rawName} needs a value`);
    if (token.name === 'workspace') target = token.value;
    else if (token.name === 'message') message = token.value;
    else if (token.name === 'phase') {
      if (token.value !== 'plan' && token.value !== 'apply')
        throw new UsageError(`--phase is plan or apply, got ${token.value}`);
      phase = token.value;
    } else dir = path.resolve(cwd, token.value);
  }
  const [organization, workspace, ...extra] = target?.split('/') ?? [];
  if (!organization || !workspace || extra.length) throw new UsageError('--workspace ORG/WORKSPACE is required');
  if (!command) throw new UsageError('COMMAND is missing: give it after --');
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError(`--dir ${dir} is not a directory`);
  return { organization, workspace, message, dir, dryRun, phase, command, args };
}

/** `varsetd exec`; resolves to the exit code. */
export async function runExec(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const separator = argv.indexOf('--');
  if ((separator === -1 ? argv : argv.slice(0, separator)).includes('--help')) {
    process.stdout.write(`${EXEC_USAGE}\n`);
    return 0;
  }
  let options: ExecOptions;
  let api: VarsetdApi;
  try {
    options = parseExecArguments(argv, invokedFrom(env));
    api = new VarsetdApi(discoverServer(env), createRequester(env));
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof CredentialsError)) throw error;
    process.stderr.write(`varsetd exec: ${error.message}\n\n${EXEC_USAGE}\n`);
    return 2;
  }
  try {
    return await execute(api, options, env);
  } catch (error) {
    // The server refused something, or the tfvars file could not be written.
    if (!(error instanceof ApiCallError) && typeof (error as NodeJS.ErrnoException).syscall !== 'string') throw error;
    process.stderr.write(`varsetd exec: ${(error as Error).message}\n`);
    return 1;
  }
}

/**
 * Where `varsetd exec` was invoked. `npm run varsetd -- exec …` runs it from the package's own
 * folder, and npm says in INIT_CWD where the user typed the command.
 */
function invokedFrom(env: NodeJS.ProcessEnv): string {
  return env.npm_lifecycle_event === 'varsetd' && env.INIT_CWD ? env.INIT_CWD : process.cwd();
}

/** The tfvars file's name sorts after a configuration's own `*.auto.tfvars`, so its values win over theirs. */
const tfvarsName = (runId: string) => `zzz_varsetd_${runId}.auto.tfvars`;
const TFVARS_PATTERN = /^zzz_varsetd_.*\.auto\.tfvars$/;

async function execute(api: VarsetdApi, options: ExecOptions, env: NodeJS.ProcessEnv): Promise<number> {
  const workspaceId = await api.workspaceId(options.organization, options.workspace);
  const effective = await api.workspaceVariables(workspaceId);
  if (options.dryRun) {
    printDryRun(effective.variables, effective.sets, options);
    return 0;
  }
  // A run with a value missing would give COMMAND an empty secret: nothing is created.
  const needed = effective.variables.filter((v) => v.valueNeeded);
  if (needed.length) {
    process.stderr.write(
      `varsetd exec: these variables need a value before a run can use them: ${needed.map((v) => `${v.category} ${v.key}`).join(', ')}\n`,
    );
    return 1;
  }
  const archive = packDirectory(options.dir, (relative) => TFVARS_PATTERN.test(relative));
  const cvId = await api.uploadConfiguration(workspaceId, archive);
  const runId = await api.createRun(workspaceId, cvId, options.message);
  process.stderr.write(`varsetd exec: run ${runId}\n`);

  let variables: InjectedVariable[];
  let sets: SetUsed[];
  try {
    variables = await api.openedVariables(runId);
    sets = await api.runSets(runId);
  } catch (error) {
    await abandon(api, runId);
    throw error;
  }
  const invalid = variables.filter((v) => v.category === 'terraform' && !isIdentifier(v.key)).map((v) => v.key);
  if (invalid.length) {
    process.stderr.write(`varsetd exec: not valid Terraform variable names: ${invalid.join(', ')}\n`);
    await abandon(api, runId);
    return 1;
  }
  if (sets.length) process.stderr.write(`varsetd exec: values from ${describeSets(sets)}\n`);
  let credentials: DynamicCredentials;
  try {
    credentials = await prepareDynamicCredentials(
      variables,
      runId,
      options.phase,
      (target, alias) => api.workloadIdentityToken(runId, options.phase, target, alias),
      (extraCa) => createRequester(env, extraCa),
    );
  } catch (error) {
    await abandon(api, runId);
    if (!(error instanceof DynamicCredentialsError)) throw error;
    process.stderr.write(`varsetd exec: ${error.message}\n`);
    return 1;
  }
  process.on('exit', credentials.remove);
  try {
    return await runCommand(api, runId, options, env, variables, sets, credentials.env);
  } finally {
    credentials.remove();
    process.off('exit', credentials.remove);
  }
}

async function runCommand(
  api: VarsetdApi,
  runId: string,
  options: ExecOptions,
  env: NodeJS.ProcessEnv,
  variables: InjectedVariable[],
  sets: SetUsed[],
  credentialEnv: Record<string, string>,
): Promise<number> {
  await api.startRun(runId);
  const started = Date.now();
  let result: ChildResult;
  try {
    result = await withTfvarsFile(path.join(options.dir, tfvarsName(runId)), variables, (signals) => {
      if (signals.received) return Promise.resolve({ exitCode: exitCodeOfSignal(signals.received), planSummary: null });
      const child = startChild(
        options.command,
        options.args,
        options.dir,
        { ...childEnvironment(env, variables), ...credentialEnv },
        process.stdout,
      );
      signals.forwardTo(child);
      return child.result;
    });
  } catch (error) {
    // COMMAND never ran (the variables file could not be written): the run must not stay planning, its variables open.
    await abandon(api, runId);
    throw error;
  }
  const sensitiveValues = variables.flatMap((v) => (v.sensitive && v.value !== null ? [v.value] : []));
  await report(api, runId, options, result, Date.now() - started, sets, sensitiveValues);
  return result.exitCode;
}

interface SignalRelay {
  /** A signal that arrived before COMMAND started. */
  received: NodeJS.Signals | null;
  forwardTo(child: RunningChild): void;
}

const RELAYED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Writes the tfvars file (mode 0600, never over an existing file), calls `use`, and removes
 * the file whatever happens: normal end, failure, or SIGINT, SIGTERM and SIGHUP, which are
 * passed on to COMMAND while it runs (it decides how to stop) instead of ending varsetd exec
 * before it could clean up. An exit handler removes the file even on an unexpected exit.
 */
async function withTfvarsFile(
  file: string,
  variables: InjectedVariable[],
  use: (signals: SignalRelay) => Promise<ChildResult>,
): Promise<ChildResult> {
  let child: RunningChild | undefined;
  const relay: SignalRelay = { received: null, forwardTo: (c) => (child = c) };
  const onSignal = (signal: NodeJS.Signals) => {
    if (child) child.kill(signal);
    else relay.received ??= signal;
  };
  // Only a file this process wrote is removed: one that was there already is left alone.
  let written = false;
  const removeFile = () => written && fs.rmSync(file, { force: true });
  for (const signal of RELAYED) process.on(signal, onSignal);
  process.on('exit', removeFile);
  try {
    const terraform = variables
      .filter((v) => v.category === 'terraform')
      .map((v) => ({ key: v.key, value: v.value ?? '', hcl: v.hcl }));
    fs.writeFileSync(file, renderTfvars(terraform), { mode: 0o600, flag: 'wx' });
    written = true;
    return await use(relay);
  } finally {
    removeFile();
    process.off('exit', removeFile);
    for (const signal of RELAYED) process.off(signal, onSignal);
  }
}

function childEnvironment(env: NodeJS.ProcessEnv, variables: InjectedVariable[]): NodeJS.ProcessEnv {
  const childEnv = { ...env };
  for (const v of variables) if (v.category === 'env') childEnv[v.key] = v.value ?? '';
  return childEnv;
}

/** Errors a run whose COMMAND never started, so that it does not stay pending. */
async function abandon(api: VarsetdApi, runId: string): Promise<void> {
  try {
    await api.finishRun(runId, 1);
  } catch (error) {
    if (!(error instanceof ApiCallError)) throw error;
    process.stderr.write(`varsetd exec: could not finish the run: ${error.message}\n`);
  }
}

/** Moves the run to planned or errored and comments on it; a failure here is reported but does not change the exit code. */
async function report(
  api: VarsetdApi,
  runId: string,
  options: ExecOptions,
  result: ChildResult,
  durationMs: number,
  sets: SetUsed[],
  hidden: readonly string[],
): Promise<void> {
  const lines = [
    `\`${displayCommand(options, hidden)}\` exited with ${result.exitCode} after ${(durationMs / 1000).toFixed(1)} s.`,
  ];
  if (sets.length) lines.push('', `Values from ${describeSets(sets)}.`);
  if (result.planSummary) lines.push('', result.planSummary);
  for (const [what, call] of [
    ['finish the run', () => api.finishRun(runId, result.exitCode)],
    ['comment on the run', () => api.comment(runId, lines.join('\n'))],
  ] as const) {
    try {
      await call();
    } catch (error) {
      if (!(error instanceof ApiCallError)) throw error;
      process.stderr.write(`varsetd exec: could not ${what}: ${error.message}\n`);
    }
  }
}

/**
 * The command as printed and as the run's comment keeps it: a word holding a value in `hidden`
 * (a sensitive value the run got, typed in or expanded by the shell) shows `(sensitive)` there.
 */
function displayCommand({ command, args }: ExecOptions, hidden: readonly string[] = []): string {
  const longestFirst = hidden.filter((value) => value !== '').sort((a, b) => b.length - a.length);
  const masked = (word: string) => longestFirst.reduce((shown, value) => shown.split(value).join('(sensitive)'), word);
  return [command, ...args]
    .map(masked)
    .map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`))
    .join(' ');
}

/** `variable sets prod (version 7), shared (version 3)`. */
function describeSets(sets: SetUsed[]): string {
  return `variable sets ${sets.map((s) => `${s.name} (${s.version === null ? 'no version yet' : `version ${s.version}`})`).join(', ')}`;
}

function printDryRun(variables: InjectedVariable[], sets: SetUsed[], options: ExecOptions): void {
  const shown = (v: InjectedVariable) =>
    v.valueNeeded ? '(sensitive, needs a value)' : v.sensitive ? '(sensitive)' : (v.value ?? '');
  const lines = [`would run in ${options.dir}: ${displayCommand(options)}`, 'environment:'];
  for (const v of variables.filter((v) => v.category === 'env')) lines.push(`  ${v.key}=${shown(v)}`);
  lines.push(`terraform variables (a zzz_varsetd_<run>.auto.tfvars file):`);
  for (const v of variables.filter((v) => v.category === 'terraform'))
    lines.push(`  ${v.key} = ${v.sensitive ? shown(v) : v.hcl ? v.value : JSON.stringify(v.value)}`);
  const credentials = describeDynamicCredentials(variables, options.phase);
  if (credentials.length) lines.push('dynamic credentials:', ...credentials.map((line) => `  ${line}`));
  if (sets.length) lines.push(`values from ${describeSets(sets)}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}
