import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sleep } from './servers.js';

/**
 * HAProxy in front of the three hosts, configured as docs/deployment.md's sample: round robin,
 * a health check of GET /readyz every second (a host is out after 2 failures, a check answered
 * in more than 1 s being one, and back after 1 success), and the hosts' VARSETD_DRAIN_DELAY set
 * to match (2 × 1 s + 1 s). Retries are HAProxy's default, on a failed connection only, which
 * never sent the request; `option redispatch 1` makes each such retry go to another host.
 */
export function haproxyConfig(frontPort: number, statsPort: number, hosts: { name: string; port: number }[]): string {
  return `global
  maxconn 2000

defaults
  mode http
  timeout connect 2s
  timeout client 75s
  timeout server 75s
  timeout http-request 10s
  timeout http-keep-alive 10s
  timeout check 1s
  retries 3
  option redispatch 1

frontend varsetd
  bind 127.0.0.1:${frontPort}
  default_backend varsetd

backend varsetd
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
  default-server inter 1s fall 2 rise 1
${hosts.map((host) => `  server ${host.name} 127.0.0.1:${host.port} check`).join('\n')}

frontend stats
  bind 127.0.0.1:${statsPort}
  stats enable
  stats uri /stats
`;
}

export interface Haproxy {
  child: ChildProcess;
  statsUrl: string;
  exited: Promise<unknown>;
}

/** Checks the configuration (`haproxy -c`), then runs HAProxy in the foreground (`-db`). */
export function startHaproxy(binary: string, dir: string, config: string, statsPort: number): Haproxy {
  const file = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(file, config);
  const check = spawnSync(binary, ['-c', '-q', '-f', file], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`haproxy -c refused the configuration:\n${check.stdout}${check.stderr}`);
  const out = fs.openSync(path.join(dir, 'haproxy.log'), 'a');
  const child = spawn(binary, ['-db', '-f', file], { stdio: ['ignore', out, out] });
  fs.closeSync(out);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return { child, statsUrl: `http://127.0.0.1:${statsPort}/stats;csv`, exited };
}

export interface ServerStats {
  /** UP, DOWN, MAINT, or a transition such as "DOWN 1/2". */
  status: string;
  /** Connections HAProxy tried again (`wretr`) and sent to another server on a retry (`wredis`). */
  retries: number;
  redispatches: number;
  /** Responses HAProxy made itself for errors of this server (`eresp`, `econ`). */
  responseErrors: number;
  connectionErrors: number;
}

/** The backend's servers as HAProxy's CSV statistics give them. */
export async function serverStats(haproxy: Haproxy): Promise<Map<string, ServerStats>> {
  const response = await fetch(haproxy.statsUrl, { signal: AbortSignal.timeout(2_000) });
  const lines = (await response.text()).trim().split('\n');
  const header = lines[0]!.replace(/^# /, '').split(',');
  const column = (row: string[], name: string) => row[header.indexOf(name)] ?? '';
  const servers = new Map<string, ServerStats>();
  for (const line of lines.slice(1)) {
    const row = line.split(',');
    if (column(row, 'pxname') !== 'varsetd' || ['FRONTEND', 'BACKEND'].includes(column(row, 'svname'))) continue;
    servers.set(column(row, 'svname'), {
      status: column(row, 'status'),
      retries: Number(column(row, 'wretr') || 0),
      redispatches: Number(column(row, 'wredis') || 0),
      responseErrors: Number(column(row, 'eresp') || 0),
      connectionErrors: Number(column(row, 'econ') || 0),
    });
  }
  return servers;
}

/** Waits until HAProxy counts `name` as `status` (UP or DOWN), asking every 100 ms. */
export async function waitForServerStatus(
  haproxy: Haproxy,
  name: string,
  status: 'UP' | 'DOWN',
  limitMs: number,
): Promise<void> {
  const until = Date.now() + limitMs;
  for (;;) {
    // Until HAProxy listens, its statistics cannot be read.
    const stats = await serverStats(haproxy).catch(() => undefined);
    if (stats?.get(name)?.status === status) return;
    if (Date.now() > until) throw new Error(`HAProxy did not count ${name} ${status} within ${limitMs} ms`);
    await sleep(100);
  }
}

/**
 * Watches the servers' states every 200 ms, remembering every time one that was not being
 * stopped went out of rotation (`expectedDown` names the one being stopped or started).
 */
export class RotationWatch {
  expectedDown: string | undefined;
  readonly unexpected: string[] = [];
  private stopped = false;
  private readonly done: Promise<void>;

  constructor(private readonly haproxy: Haproxy) {
    this.done = this.watch();
  }

  private async watch(): Promise<void> {
    while (!this.stopped) {
      try {
        for (const [name, stats] of await serverStats(this.haproxy)) {
          if (name !== this.expectedDown && !stats.status.startsWith('UP'))
            this.unexpected.push(`${new Date().toISOString()} ${name} ${stats.status}`);
        }
      } catch (error) {
        this.unexpected.push(`HAProxy's statistics could not be read: ${String(error)}`);
      }
      await sleep(200);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.done;
  }
}
