import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './processes.js';

const run = promisify(execFile);

/**
 * A throw-away PostgreSQL cluster of a test's own, which the test may stop and start again
 * (a database outage), as scripts/with-postgres.sh makes one for the whole suite. It runs as
 * the postgres user when the tests run as root (initdb refuses root).
 */
export class PostgresCluster {
  private constructor(
    private readonly bin: string,
    private readonly folder: string,
    readonly port: number,
    private readonly runAs: string[],
  ) {}

  /** The database varsetd is given: the cluster's own `postgres`. */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** Creates and starts a cluster on a free port of 127.0.0.1. */
  static async create(): Promise<PostgresCluster> {
    const bin = postgresBin();
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-pg-'));
    fs.chmodSync(folder, 0o755);
    const runAs: string[] = [];
    if (process.getuid?.() === 0) {
      await run('id', ['postgres']).catch(() => run('useradd', ['--system', '--no-create-home', 'postgres']));
      fs.chownSync(folder, Number((await run('id', ['-u', 'postgres'])).stdout.trim()), -1);
      runAs.push('runuser', '-u', 'postgres', '--');
    }
    const cluster = new PostgresCluster(bin, folder, await freePort(), runAs);
    await cluster.pg('initdb', [
      '-D',
      cluster.data,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
    ]);
    await cluster.start();
    return cluster;
  }

  private get data(): string {
    return path.join(this.folder, 'data');
  }

  /** Starts the server and waits until it accepts connections. */
  async start(): Promise<void> {
    const options = `-p ${this.port} -k ${this.folder} -c listen_addresses=127.0.0.1 -c fsync=off`;
    await this.pg('pg_ctl', [
      '-D',
      this.data,
      '-l',
      path.join(this.folder, 'server.log'),
      '-w',
      '-o',
      options,
      'start',
    ]);
  }

  /** Stops the server: `fast` ends sessions with 57P01 as an administrator's restart does; `immediate` drops them as a crash would. */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await this.pg('pg_ctl', ['-D', this.data, '-m', mode, '-w', 'stop']);
  }

  /** Stops the server if it runs and removes the cluster. */
  async dispose(): Promise<void> {
    await this.stop('immediate').catch(() => {});
    fs.rmSync(this.folder, { recursive: true, force: true });
  }

  private async pg(program: string, args: string[]): Promise<void> {
    const [command, ...rest] = [...this.runAs, path.join(this.bin, program), ...args];
    await run(command!, rest, { cwd: this.folder });
  }
}

/** The folder of PostgreSQL's server programs; fails, saying what is missing, when there is none. */
function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const bin = path.join(root, version, 'bin');
    if (fs.existsSync(path.join(bin, 'initdb')) && fs.existsSync(path.join(bin, 'pg_ctl'))) return bin;
  }
  throw new Error(
    'this test starts a PostgreSQL cluster of its own, but no initdb and pg_ctl were found under /usr/lib/postgresql/*/bin: install the PostgreSQL server (apt-get install postgresql)',
  );
}
