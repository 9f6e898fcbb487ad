import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/**
 * COMMAND, started with the given environment, its stdout copied through (and read for
 * Terraform's plan summary), stdin and stderr inherited. The result is its exit code, 128 +
 * the signal's number when a signal ended it (as shells report it).
 */
export interface ChildResult {
  exitCode: number;
  /** Terraform's "Plan: N to add, …" or "No changes." line, if COMMAND printed one. */
  planSummary: string | null;
}

export interface RunningChild {
  kill(signal: NodeJS.Signals): void;
  result: Promise<ChildResult>;
}

const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;
const PLAN_SUMMARY = /^(Plan: \d+ to add, \d+ to change, \d+ to destroy\.|No changes\..*)$/;

export const exitCodeOfSignal = (signal: NodeJS.Signals) => 128 + constants.signals[signal];

export function startChild(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  stdout: NodeJS.WritableStream,
): RunningChild {
  const child = spawn(command, args, { cwd, env, stdio: ['inherit', 'pipe', 'inherit'] });
  let planSummary: string | null = null;
  let partial = '';
  const readLines = (text: string) => {
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const clean = line.replace(ANSI, '').trim();
      if (PLAN_SUMMARY.test(clean)) planSummary = clean;
    }
  };
  child.stdout.on('data', (chunk: Buffer) => {
    stdout.write(chunk);
    readLines(chunk.toString('utf8'));
  });
  const result = new Promise<ChildResult>((resolve) => {
    let finished = false;
    const done = (exitCode: number) => {
      if (finished) return;
      finished = true;
      readLines('\n');
      resolve({ exitCode, planSummary });
    };
    child.on('error', (error: NodeJS.ErrnoException) => {
      process.stderr.write(
        `varsetd exec: cannot run ${command}: ${error.code === 'ENOENT' ? 'command not found' : error.message}\n`,
      );
      done(error.code === 'ENOENT' ? 127 : 126);
    });
    child.on('close', (code, signal) => done(code ?? (signal ? exitCodeOfSignal(signal) : 1)));
  });
  return { kill: (signal) => child.exitCode === null && child.signalCode === null && child.kill(signal), result };
}
