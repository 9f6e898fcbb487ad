import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import pg from 'pg';
import { randomAlphanumeric } from '../src/common/ids.js';

/**
 * Child processes of the benchmark and the clean-up that must run whatever happens: a
 * failed scenario, an exception, Ctrl-C. Clean-ups run newest first; a process still alive
 * when the harness exits is killed.
 */
const cleanups: Array<{ name: string; run: () => Promise<void> }> = [];
const children = new Set<ChildProcess>();

export function onCleanup(name: string, run: () => Promise<void>): () => void {
  const entry = { name, run };
  cleanups.push(entry);
  return () => {
    const i = cleanups.indexOf(entry);
    if (i >= 0) cleanups.splice(i, 1);
  };
}

export async function cleanupAll(): Promise<void> {
  while (cleanups.length > 0) {
    const entry = cleanups.pop()!;
    try {
      await entry.run();
    } catch (error) {
      console.error(`bench: clean-up "${entry.name}" failed:`, error instanceof Error ? error.message : error);
    }
  }
}

process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    console.error(`bench: ${signal}, stopping`);
    void cleanupAll().finally(() => process.exit(130));
  });
}

export { freePort } from '../test/support/processes.js';

export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  readonly url: string;
  readonly logFile: string;
  /** Peak resident set size (VmHWM) in KiB of the process and its children (summed), read from /proc; undefined where /proc is missing. */
  peakRssKiB(): number | undefined;
  /** CPU time (user + system) the process and its live children have used so far, in seconds; undefined where /proc is missing. */
  cpuSeconds(): number | undefined;
  /** How the process ended (`code 0`, `signal SIGKILL`), or undefined while it runs. */
  exitStatus(): string | undefined;
  stop(): Promise<void>;
}

export interface StartOptions {
  name: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  port: number;
  logFile: string;
  /** A request that answers once the process serves HTTP. */
  readyPath: string;
  readyStatus: number;
  timeoutMs?: number;
}

/** Starts a Node.js program, waits until it answers HTTP, and registers its stop as a clean-up. */
export async function startProcess(options: StartOptions): Promise<ManagedProcess> {
  const log = fs.openSync(options.logFile, 'a');
  const child = spawn(process.execPath, options.args, { env: options.env, stdio: ['ignore', log, log] });
  fs.closeSync(log);
  children.add(child);
  let exit: string | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = signal ? `signal ${signal}` : `code ${code}`;
      children.delete(child);
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${options.port}`;

  const stop = async () => {
    if (exit !== undefined) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const unregister = onCleanup(`stop ${options.name}`, stop);

  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (exit !== undefined)
      throw new Error(
        `${options.name} exited (${exit}) before serving; see ${options.logFile}:\n${tail(options.logFile)}`,
      );
    try {
      const res = await fetch(url + options.readyPath, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.status === options.readyStatus) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `${options.name} did not answer within ${options.timeoutMs ?? 60_000} ms; see ${options.logFile}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    name: options.name,
    pid: child.pid!,
    url,
    logFile: options.logFile,
    peakRssKiB: () => overTree(child.pid!, readPeakRss),
    cpuSeconds: () => overTree(child.pid!, readCpuSeconds),
    exitStatus: () => exit,
    stop: async () => {
      unregister();
      await stop();
    },
  };
}

/** A figure summed over a process and its children (varsetd's workers); undefined where /proc is missing. */
function overTree(pid: number, read: (pid: number) => number | undefined): number | undefined {
  const own = read(pid);
  if (own === undefined) return undefined;
  let children: number[] = [];
  try {
    children = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    // no children, or no /proc
  }
  return children.reduce((sum, child) => sum + (read(child) ?? 0), own);
}

function readPeakRss(pid: number): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

const CLOCK_TICKS = 100;

function readCpuSeconds(pid: number): number | undefined {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds of a PostgreSQL cluster so far: its postmaster's own time, the time of the
 * children it has reaped (cutime + cstime: backends that ended, autovacuum workers) and the
 * time of its live children (backends, background processes). Backends that come and go are
 * so all counted. The postmaster is the parent of the backend serving `adminUrl`'s connection.
 * Undefined where /proc is missing or the cluster runs elsewhere.
 */
export async function postgresCluster(
  adminUrl: string,
): Promise<{ pid: number; cpuSeconds: () => number | undefined } | undefined> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  let fields: string[] | undefined;
  try {
    // Read while the connection is open: its backend ends with it.
    const backend = Number((await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid);
    fields = statFields(backend);
  } finally {
    await client.end();
  }
  if (!fields) return undefined;
  const postmaster = Number(fields[1]);
  const total = (pid: number, withReaped: boolean) => {
    const f = statFields(pid);
    if (!f) return undefined;
    return (Number(f[11]) + Number(f[12]) + (withReaped ? Number(f[13]) + Number(f[14]) : 0)) / CLOCK_TICKS;
  };
  if (total(postmaster, true) === undefined) return undefined;
  return {
    pid: postmaster,
    cpuSeconds: () => {
      const own = total(postmaster, true);
      if (own === undefined) return undefined;
      let children: number[] = [];
      try {
        children = fs
          .readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8')
          .trim()
          .split(/\s+/)
          .filter(Boolean)
          .map(Number);
      } catch {
        // no children
      }
      // A child gone between the listing and the read is then in the postmaster's cutime/cstime
      // on the next reading, or lost to this one: a few ticks at most.
      return children.reduce((sum, child) => sum + (total(child, false) ?? 0), own);
    },
  };
}

/** The fields of /proc/<pid>/stat after the command name (state is [0], ppid [1], utime [11]…), or undefined. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

function tail(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '';
  }
}

/** A fresh database on the PostgreSQL server of `adminUrl` (named `<prefix>_…`), and how to drop it. */
export async function freshPostgresDatabase(
  adminUrl: string,
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomAlphanumeric(10).toLowerCase()}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}
