import { spawn, execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestStore } from './store.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The environment of a varsetd process on `store`: nothing of varsetd's own settings leaks in from the test's. */
export function varsetdEnv(
  store: Pick<TestStore, 'dataDir' | 'databaseUrl'>,
  settings: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(VARSETD_|DATABASE_URL$|HOST$|PORT$|LOG_LEVEL$)/.test(name)),
  );
  // One process unless a test asks for workers: the suite already runs two test files at a time.
  // SIGTERM drains at once unless a test asks for the delay a load balancer needs (test/drain.test.ts).
  return {
    ...env,
    VARSETD_DATA_DIR: store.dataDir,
    VARSETD_WORKERS: '1',
    VARSETD_DRAIN_DELAY: '0',
    ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}),
    ...settings,
  };
}

/** Runs `varsetd ARGS` to its end; rejects only when it cannot be started. */
export async function runVarsetd(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src/main.ts', ...args],
      { cwd: ROOT, env },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

export interface ServerProcess {
  url: string;
  /** The started process: with several workers, their primary. */
  pid: number;
  /** The start-up summary, as logged in JSON when stdout is not a terminal. */
  summary: Record<string, any>;
  /** Everything it printed so far. */
  output(): string;
  sendSignal(signal: NodeJS.Signals): void;
  /** Whether it has not exited yet. */
  isRunning(): boolean;
  /** How it ended: its exit code, or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<void>;
}

/**
 * `varsetd serve` as its own process, on 127.0.0.1 and a port the system picks (or `port`);
 * resolves once it has logged its start-up summary. `whileStarting` runs as soon as the process
 * is spawned, given its pid and its output so far; should it fail, so does the start.
 */
export async function startServerProcess(
  env: NodeJS.ProcessEnv,
  {
    port = 0,
    whileStarting,
  }: { port?: number; whileStarting?: (pid: number, output: () => string) => Promise<void> } = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
    cwd: ROOT,
    env: { ...env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const isRunning = () => child.exitCode === null && child.signalCode === null;
  const stop = async () => {
    process.removeListener('exit', kill);
    if (!isRunning()) return;
    child.kill('SIGTERM');
    const timer = setTimeout(kill, 5_000);
    await exited;
    clearTimeout(timer);
  };
  const summary = await new Promise<Record<string, any>>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`varsetd logged no start-up summary within 60 s:\n${output}`)),
      60_000,
    );
    child.stderr.on('data', (chunk) => (output += String(chunk)));
    // Each line is read once, and none after the summary: a server may log every request.
    let summaryFound = false;
    let lineBeingWritten = '';
    child.stdout.on('data', (chunk) => {
      output += String(chunk);
      if (summaryFound) return;
      const lines = (lineBeingWritten + String(chunk)).split('\n');
      lineBeingWritten = lines.pop()!;
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line);
        if (/^varsetd \S+ started$/.test(entry.msg)) {
          summaryFound = true;
          clearTimeout(timer);
          resolve(entry);
          return;
        }
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`varsetd exited with ${code}:\n${output}`));
    });
    whileStarting?.(child.pid!, () => output).catch((error: unknown) => {
      clearTimeout(timer);
      reject(error instanceof Error ? error : new Error(String(error)));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return {
    url: summary.url,
    pid: child.pid!,
    summary,
    output: () => output,
    sendSignal: (signal) => child.kill(signal),
    isRunning,
    exited,
    stop,
  };
}

/** Tries `attempt` every `everyMs` (100 ms) until it answers something other than undefined; fails after 60 s, showing `output`. */
export async function eventually<T>(
  what: string,
  attempt: () => Promise<T | undefined>,
  output: () => string,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      const value = await attempt();
      if (value !== undefined) return value;
    } catch {
      // Not there yet.
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`${what} within 60 s:\n${output()}`);
}

/** The processes that logged a JSON line with this message (read by its text: stderr may be interleaved with the lines). */
export function logPids(output: string, message: string): Set<number> {
  const pids = new Set<number>();
  const logged = `"msg":${JSON.stringify(message)}`;
  for (const line of output.split('\n')) {
    const pid = line.includes(logged) ? /"pid":(\d+)/.exec(line)?.[1] : undefined;
    if (pid) pids.add(Number(pid));
  }
  return pids;
}

/** A port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The worker processes of a primary, from /proc. */
export function workerPids(server: ServerProcess): number[] {
  return workerPidsOf(server.pid);
}

/**
 * The workers of a primary: the children cluster forked (NODE_UNIQUE_ID in their environment),
 * not the other children it may have (tsx's esbuild service, compiling on a cold cache).
 */
export function workerPidsOf(pid: number): number[] {
  return childPids(pid).filter((child) => {
    try {
      return fs
        .readFileSync(`/proc/${child}/environ`, 'latin1')
        .split('\0')
        .some((entry) => entry.startsWith('NODE_UNIQUE_ID='));
    } catch {
      return false;
    }
  });
}

/** The child processes of a process, from /proc. */
export function childPids(pid: number): number[] {
  const text = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return text === '' ? [] : text.split(/\s+/).map(Number);
}

/**
 * A request on a connection of its own, so that a primary's workers take turns answering
 * (round-robin by connection). A JSON body is sent as the API's media type; with no answer
 * within `timeoutMs` it fails with code NO_ANSWER.
 */
export function requestOnOwnConnection(
  url: string,
  method: string,
  path: string,
  {
    headers = {},
    body,
    timeoutMs = 10_000,
  }: { headers?: Record<string, string>; body?: unknown; timeoutMs?: number } = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(`${url}${path}`, {
      method,
      agent: false,
      headers: {
        ...headers,
        ...(text
          ? { 'content-type': 'application/vnd.api+json', 'content-length': String(Buffer.byteLength(text)) }
          : {}),
      },
    });
    req.on('response', (res) => {
      let data = '';
      res.on('data', (chunk) => (data += String(chunk)));
      res.on('end', () => resolve({ status: res.statusCode!, text: data }));
    });
    req.on('error', reject);
    req.setTimeout(timeoutMs, () =>
      req.destroy(Object.assign(new Error(`no answer within ${timeoutMs / 1000} s`), { code: 'NO_ANSWER' })),
    );
    req.end(text);
  });
}
