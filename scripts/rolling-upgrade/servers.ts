import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';

/** A build of varsetd: a folder with its `dist/main.js`, and what to call it. */
export interface Build {
  name: string;
  dir: string;
}

/** One host of the three: a fixed port, and the varsetd process serving it now. */
export interface Host {
  name: string;
  port: number;
  env: NodeJS.ProcessEnv;
  logDir: string;
  server?: RunningServer;
}

export interface RunningServer {
  build: Build;
  child: ChildProcess;
  /** The start-up summary varsetd logs (its version, the migrations it applied). */
  summary: { msg: string; appliedMigrations: string[] };
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  log: string;
}

export { freePort } from '../../test/support/processes.js';
export { sleep };

/**
 * `node dist/main.js serve` of `build` on the host's port, as a service manager would start it;
 * resolves with its start-up summary. Its output goes to a log file of the host.
 */
export async function startServer(host: Host, build: Build): Promise<RunningServer> {
  const log = path.join(host.logDir, `${host.name}-${build.name}-${Date.now()}.log`);
  const out = fs.openSync(log, 'a');
  const child = spawn(process.execPath, [path.join(build.dir, 'dist/main.js'), 'serve'], {
    cwd: build.dir,
    env: { ...host.env, HOST: '127.0.0.1', PORT: String(host.port) },
    stdio: ['ignore', 'pipe', out],
  });
  fs.closeSync(out);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const summary = await new Promise<RunningServer['summary']>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${host.name}: no start-up summary within 60 s (${log})`)), 60_000);
    let pending = '';
    let found = false;
    child.stdout!.on('data', (chunk: Buffer) => {
      fs.appendFileSync(log, chunk);
      if (found) return;
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as RunningServer['summary'];
        if (/^varsetd \S+ started$/.test(entry.msg)) {
          found = true;
          clearTimeout(timer);
          resolve(entry);
        }
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${host.name}: ${build.name} exited (${code ?? signal}) while starting; see ${log}`));
    });
  });
  return { build, child, summary, exited, log };
}

/** Waits until `url` answers 200, asking every 100 ms; rejects after `limitMs`. */
export async function waitForStatus200(url: string, limitMs: number): Promise<void> {
  const until = Date.now() + limitMs;
  for (;;) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${url} did not answer 200 within ${limitMs} ms`);
    await sleep(100);
  }
}

/** SIGTERM, as `systemctl stop` sends: resolves with how it ended and how long it took. */
export async function stopServer(
  host: Host,
  limitMs = 30_000,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
  const server = host.server!;
  const started = Date.now();
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), limitMs);
  const ended = await server.exited;
  clearTimeout(timer);
  host.server = undefined;
  return { ...ended, ms: Date.now() - started };
}

/** Stops whatever still runs, after a failure: SIGINT (the drain at once), SIGKILL after 10 s. */
export async function killServers(hosts: readonly Host[]): Promise<void> {
  await Promise.all(
    hosts.map(async (host) => {
      const server = host.server;
      if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
      server.child.kill('SIGINT');
      const timer = setTimeout(() => server.child.kill('SIGKILL'), 10_000);
      await server.exited;
      clearTimeout(timer);
    }),
  );
}
