import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SETTINGS } from '../src/config.js';
import { VERSION } from '../src/version.js';
import { freePort, ROOT, runVarsetd, startServerProcess, varsetdEnv } from './support/processes.js';
import { createTestStore, storeKind } from './support/store.js';

const CONFIGURATION = fs.readFileSync(path.join(ROOT, 'docs', 'configuration.md'), 'utf8');

const CONFIGURED = 'configured-admin-token-0123456789abcdef';

describe('the varsetd command', () => {
  const noStore = { dataDir: '/nonexistent/varsetd-data', databaseUrl: undefined };

  it('lists every setting in --help, as the table of docs/configuration.md does', async () => {
    const { code, stdout } = await runVarsetd(['--help'], varsetdEnv(noStore));
    assert.equal(code, 0);
    const documentedRows = [...CONFIGURATION.matchAll(/^\| `([A-Z_]+)` \| `(--[a-z-]+)` \|/gm)].map(
      ([, env, flag]) => `${env} ${flag}`,
    );
    assert.deepEqual(
      documentedRows,
      SETTINGS.map((s) => `${s.env} ${s.flag}`),
    );
    for (const s of SETTINGS) assert.match(stdout, new RegExp(`^  ${s.flag} ${s.value} +\\[${s.env}\\] `, 'm'), s.flag);
    for (const command of ['serve', 'migrate', 'rotate-key', 'exec', '--version'])
      assert.ok(stdout.includes(command), command);
    // Each command has a line of its own under "commands:", saying what it does.
    const commandsSection = /\ncommands:\n([\s\S]*?)\n\n/.exec(stdout)?.[1];
    assert.ok(commandsSection, stdout);
    for (const command of ['serve', 'migrate', 'rotate-key', 'keys', 'exec'])
      assert.match(commandsSection, new RegExp(`^  ${command}( \\S+)* {2,}\\S`, 'm'), command);
  });

  it('prints its version', async () => {
    assert.deepEqual(await runVarsetd(['--version'], varsetdEnv(noStore)), {
      code: 0,
      stdout: `varsetd ${VERSION}\n`,
      stderr: '',
    });
  });

  it('refuses a wrong setting before it touches anything', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-cli-'));
    const dataDir = path.join(parent, 'data');
    try {
      const wrongs: [string[], NodeJS.ProcessEnv, RegExp][] = [
        [['--log-level', 'verbose'], {}, /LOG_LEVEL must be one of/],
        [[], { VARSETD_ADMIN_TOKEN: 'x' }, /VARSETD_ADMIN_TOKEN must be at least 32/],
        [['migrate', '--port', 'eighty'], {}, /PORT must be/],
        [['serve', '--no-such-option', '1'], {}, /unknown option --no-such-option/],
      ];
      for (const [args, settings, message] of wrongs) {
        const { code, stdout, stderr } = await runVarsetd(
          args,
          varsetdEnv({ dataDir, databaseUrl: undefined }, settings),
        );
        assert.equal(code, 2, args.join(' '));
        assert.match(stderr, message);
        assert.equal(stdout, '');
        assert.ok(!fs.existsSync(dataDir), 'the data folder was created');
      }
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe('varsetd failing to start', () => {
  it('reports a port in use before it touches the store', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-cli-'));
    const dataDir = path.join(parent, 'data');
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as net.AddressInfo;
    try {
      for (const workers of ['1', '2']) {
        const { code, stdout, stderr } = await runVarsetd(
          ['serve'],
          varsetdEnv(
            { dataDir, databaseUrl: undefined },
            { HOST: '127.0.0.1', PORT: String(port), VARSETD_WORKERS: workers },
          ),
        );
        assert.equal(code, 1, stdout + stderr);
        assert.equal(stdout, '');
        assert.equal(
          stderr,
          `varsetd: failed to start: listen EADDRINUSE: address already in use 127.0.0.1:${port} (another program listens there: choose another port with PORT or --port)\n`,
        );
        assert.ok(!fs.existsSync(dataDir), `the data folder was created (${workers} worker(s))`);
      }
    } finally {
      taken.close();
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });

  it('migrate names the PostgreSQL it cannot reach, as serve does, never its password', async () => {
    const closedPort = await freePort();
    const dataDir = path.join(os.tmpdir(), 'varsetd-cli-never-made');
    const { code, stdout, stderr } = await runVarsetd(
      ['migrate'],
      varsetdEnv({ dataDir, databaseUrl: `postgres://varsetd:s3cret@127.0.0.1:${closedPort}/varsetd` }),
    );
    assert.equal(code, 1, stdout + stderr);
    assert.equal(stdout, '');
    assert.match(
      stderr,
      new RegExp(
        `^varsetd: failed to start: cannot open PostgreSQL at 127\\.0\\.0\\.1:${closedPort}/varsetd \\(DATABASE_URL\\): connect ECONNREFUSED 127\\.0\\.0\\.1:${closedPort}\n$`,
      ),
    );
    assert.doesNotMatch(stderr, /s3cret/);
  });
});

describe(`varsetd serve's start-up summary (${storeKind})`, () => {
  it('tells what the first start generated, without the token, and what a configured token revoked', async () => {
    const store = await createTestStore();
    try {
      const first = await startServerProcess(varsetdEnv(store));
      const generated = fs.readFileSync(path.join(store.dataDir, 'admin-token'), 'utf8').trim();
      try {
        const { summary } = first;
        assert.match(first.url, /^http:\/\/127\.0\.0\.1:\d+$/);
        assert.equal(summary.version, VERSION);
        assert.equal(summary.dataDir, store.dataDir);
        if (store.databaseUrl) {
          const url = new URL(store.databaseUrl);
          assert.deepEqual(summary.store, {
            type: 'postgres',
            host: `${url.hostname}:${url.port || 5432}`,
            database: url.pathname.slice(1),
          });
        } else {
          assert.deepEqual(summary.store, { type: 'sqlite', file: path.join(store.dataDir, 'varsetd.sqlite') });
        }
        assert.ok(summary.appliedMigrations.length > 0);
        assert.deepEqual(summary.encryptionKey, {
          source: 'file',
          file: path.join(store.dataDir, 'encryption-key'),
          generated: true,
        });
        assert.deepEqual(summary.adminToken, { source: 'generated', file: path.join(store.dataDir, 'admin-token') });
        assert.ok(!first.output().includes(generated), 'the generated token was printed');
        assert.equal(
          (await fetch(`${first.url}/api/v2/organizations`, { headers: { authorization: `Bearer ${generated}` } }))
            .status,
          200,
        );
      } finally {
        await first.stop();
      }

      const second = await startServerProcess(varsetdEnv(store, { VARSETD_ADMIN_TOKEN: CONFIGURED }));
      try {
        assert.deepEqual(second.summary.appliedMigrations, []);
        assert.deepEqual(second.summary.adminToken, {
          source: 'configured',
          revokedGenerated: true,
          removedFile: path.join(store.dataDir, 'admin-token'),
        });
        assert.equal(second.summary.encryptionKey.generated, false);
        assert.ok(!second.output().includes(CONFIGURED), 'the configured token was printed');
        const status = async (token: string) =>
          (await fetch(`${second.url}/api/v2/organizations`, { headers: { authorization: `Bearer ${token}` } })).status;
        assert.equal(await status(generated), 401);
        assert.equal(await status(CONFIGURED), 200);
      } finally {
        await second.stop();
      }
    } finally {
      await store.dispose();
    }
  });
});

describe(`varsetd serve's data folder (${storeKind})`, () => {
  it('is created for its user alone (0700), its files too (0600), whichever the store', async () => {
    const store = await createTestStore();
    // A folder not there yet, two levels down: every level varsetd makes is private.
    const dataDir = path.join(store.dataDir, 'var', 'varsetd');
    try {
      const server = await startServerProcess(varsetdEnv({ dataDir, databaseUrl: store.databaseUrl }));
      await server.stop();
      for (const folder of [dataDir, path.dirname(dataDir)])
        assert.equal((fs.statSync(folder).mode & 0o777).toString(8), '700', folder);
      const files = fs.readdirSync(dataDir);
      assert.ok(files.includes('admin-token') && files.includes('encryption-key'), files.join(', '));
      for (const file of files)
        assert.equal((fs.statSync(path.join(dataDir, file)).mode & 0o777).toString(8), '600', file);
    } finally {
      await store.dispose();
    }
  });
});

/** script(1) runs a command on a pseudo-terminal, as a person's shell would (util-linux, on every Debian and Ubuntu system). */
const hasScript = spawnSync('script', ['--version']).status === 0;

describe(`varsetd serve on a terminal (${storeKind})`, () => {
  it(
    'prints the summary as text and the log as readable lines',
    { skip: !hasScript && 'script(1) is not installed' },
    async () => {
      const store = await createTestStore();
      const command = `${process.execPath} --import tsx src/main.ts serve`;
      const child = spawn('script', ['-qec', command, '/dev/null'], {
        cwd: ROOT,
        env: varsetdEnv(store, { HOST: '127.0.0.1', PORT: '0' }),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let output = '';
      try {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no summary within 60 s:\n${output}`)), 60_000);
          child.stdout.on('data', (chunk) => {
            output += String(chunk);
            if (/^ {2}admin token [^\n]*\n/m.test(output)) {
              clearTimeout(timer);
              resolve();
            }
          });
          child.once('exit', () => reject(new Error(`script exited:\n${output}`)));
        });
      } finally {
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGTERM');
          await exited;
        }
        await store.dispose();
      }
      const lines = output.replaceAll('\r', '').split('\n');
      assert.ok(
        lines.some((line) => /^varsetd \S+ is listening on http:\/\/127\.0\.0\.1:\d+$/.test(line)),
        output,
      );
      assert.ok(lines.includes(`  data folder     ${store.dataDir}`), output);
      assert.ok(
        lines.includes(
          `  admin token     generated, in ${path.join(store.dataDir, 'admin-token')} (not printed: read it from there)`,
        ),
        output,
      );
      assert.ok(
        lines.some((line) => /^\[\d\d:\d\d:\d\d\.\d{3}\] .*INFO.*: .*Server listening at/.test(line)),
        output,
      );
      assert.ok(!lines.some((line) => line.startsWith('{')), output);
    },
  );
});
