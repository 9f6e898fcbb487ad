import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from '../src/config.js';
import { createKeyring, keyringKey } from '../src/secrets/keyring.js';
import { generateKey } from '../src/secrets/sealer.js';
import { startSummary } from '../src/cli/summary.js';
import { unsupportedNode, VERSION } from '../src/version.js';
import { buildInfoFromGit, versionOf } from '../src/build-info.js';
import { TestApp } from './support/app.js';
import { ROOT, runVarsetd, varsetdEnv } from './support/processes.js';

const PACKAGE_VERSION: string = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
const CHANGELOG = fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8');
/** The released versions of CHANGELOG.md, newest first (`## [0.2.0] - 2026-11-25`). */
const RELEASES = [...CHANGELOG.matchAll(/^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$/gm)].map(
  ([, version, date]) => ({ version: version!, date: date! }),
);

/**
 * What this tree's version must be, asked of git without src/build-info.ts: package.json's version
 * alone when HEAD is the commit that changed it and nothing tracked has changed since, otherwise
 * with twelve hex digits of HEAD (and `.dirty` for a changed tree).
 */
function versionOfThisTree(): string {
  const git = (...args: string[]) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  const head = git('rev-parse', 'HEAD');
  if (!/^[0-9a-f]{40}$/.test(head)) return `${PACKAGE_VERSION}+unknown`;
  const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
  const setsVersion = /^[-+]\s*"version":/m.test(git('show', '--format=', 'HEAD', '--', 'package.json'));
  if (setsVersion && !dirty) return PACKAGE_VERSION;
  return `${PACKAGE_VERSION}+${head.slice(0, 12)}${dirty ? '.dirty' : ''}`;
}

describe("varsetd's version", () => {
  it('is the same in package.json, CHANGELOG.md, --version, the start-up summary, the OpenAPI document and /metrics', async () => {
    assert.equal(RELEASES[0]?.version, PACKAGE_VERSION, "CHANGELOG.md's newest release");
    assert.equal(VERSION, versionOfThisTree(), 'this tree, as git describes it');
    const printed = await runVarsetd(
      ['--version'],
      varsetdEnv({ dataDir: '/nonexistent/varsetd-data', databaseUrl: undefined }),
    );
    assert.equal(printed.stdout, `varsetd ${VERSION}\n`);
    const key = generateKey();
    const summary = startSummary(
      loadConfig({ VARSETD_DATA_DIR: '/srv/varsetd' }, []),
      {
        appliedMigrations: [],
        adminToken: { source: 'existing', file: undefined },
        key: {
          keyring: createKeyring([keyringKey(key)]),
          source: 'file',
          file: '/srv/varsetd/encryption-key',
          generated: false,
        },
      },
      { address: '127.0.0.1', family: 'IPv4', port: 8080 },
    );
    assert.equal(summary.version, VERSION);
    const t = await TestApp.start();
    try {
      const document = await t.request('GET', '/api/v2/openapi.json', { token: null });
      assert.equal(document.body.info.version, VERSION);
      const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
      assert.match(
        metrics.body,
        new RegExp(`^varsetd_build_info\\{[^}]*version="${VERSION.replace(/[.+]/g, '\\$&')}"[^}]*\\} 1$`, 'm'),
      );
    } finally {
      await t.close();
    }
  });

  it("is the release on the commit that set package.json's version, unchanged, and names the commit on any other", () => {
    const commit = '0123456789abcdef0123456789abcdef01234567';
    assert.equal(versionOf('0.3.0', { commit, dirty: false, release: true }), '0.3.0');
    assert.equal(versionOf('0.3.0', { commit, dirty: false, release: false }), '0.3.0+0123456789ab');
    assert.equal(versionOf('0.3.0', { commit, dirty: true, release: false }), '0.3.0+0123456789ab.dirty');
    assert.equal(versionOf('0.3.0', { commit: undefined, dirty: false, release: false }), '0.3.0+unknown');

    // A clone: the commit that set the version is a release until a commit follows it or a file changes.
    const clone = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-release-'));
    try {
      const git = (...args: string[]) =>
        spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: clone, encoding: 'utf8' });
      git('init', '-q');
      fs.writeFileSync(path.join(clone, 'package.json'), '{\n  "version": "0.3.0"\n}\n');
      git('add', '.');
      git('commit', '-q', '-m', 'release');
      assert.deepEqual(buildInfoFromGit(clone), {
        commit: git('rev-parse', 'HEAD').stdout.trim(),
        dirty: false,
        release: true,
      });
      fs.writeFileSync(path.join(clone, 'package.json'), '{\n  "version": "0.3.0"\n}\n\n');
      assert.equal(buildInfoFromGit(clone).release, false, 'a changed tree');
      git('commit', '-q', '-am', 'after the release');
      assert.deepEqual(buildInfoFromGit(clone), {
        commit: git('rev-parse', 'HEAD').stdout.trim(),
        dirty: false,
        release: false,
      });
    } finally {
      fs.rmSync(clone, { recursive: true, force: true });
    }
    assert.deepEqual(buildInfoFromGit(os.tmpdir()), { commit: undefined, dirty: false, release: false });
  });

  it("CHANGELOG.md's releases go from newest to oldest, each with a section of its own", () => {
    assert.ok(RELEASES.length >= 2, 'releases found');
    const numbers = RELEASES.map(({ version }) => version.split('.').map(Number));
    for (let i = 1; i < numbers.length; i++) {
      const [newer, older] = [numbers[i - 1]!, numbers[i]!];
      const order = newer.findIndex((part, at) => part !== older[at]);
      assert.ok(
        order >= 0 && newer[order]! > older[order]!,
        `${RELEASES[i - 1]!.version} comes before ${RELEASES[i]!.version}`,
      );
      assert.ok(
        RELEASES[i - 1]!.date >= RELEASES[i]!.date,
        `${RELEASES[i - 1]!.version} is not dated before ${RELEASES[i]!.version}`,
      );
    }
  });
});

/** A node on this machine that varsetd does not support (Debian's, say), if there is one, and its version. */
function unsupportedNodeOnThisMachine(): { node: string; version: string } | undefined {
  const onPath = (process.env.PATH ?? '').split(path.delimiter).map((folder) => path.join(folder, 'node'));
  for (const candidate of [...onPath, '/usr/bin/node', '/usr/local/bin/node']) {
    const version = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' });
    if (version.status === 0 && unsupportedNode(version.stdout.trim()))
      return { node: candidate, version: version.stdout.trim() };
  }
  return undefined;
}

describe('the Node.js varsetd runs on', () => {
  const oldNode = unsupportedNodeOnThisMachine();
  it(
    'refuses to run on an older one with exit code 2, a configuration error a service manager does not retry',
    { skip: !oldNode && 'no unsupported Node.js on this machine' },
    () => {
      const dataDir = path.join(ROOT, 'node_modules', '.cache', 'varsetd-never-made');
      const run = spawnSync(oldNode!.node, ['--import', 'tsx', 'src/main.ts', 'serve'], {
        cwd: ROOT,
        env: varsetdEnv({ dataDir, databaseUrl: undefined }),
        encoding: 'utf8',
      });
      assert.equal(run.status, 2, run.stderr);
      assert.equal(run.stdout, '');
      assert.equal(
        run.stderr,
        `varsetd: Node.js ${oldNode!.version} is not supported: varsetd needs Node.js 22.14 or later, 24 or 26\n`,
      );
      assert.ok(!fs.existsSync(dataDir));
    },
  );

  it('is 22.14 or later: older ones are refused with the versions it needs', () => {
    for (const old of ['20.20.2', '22.13.1', '18.20.0', '23.11.1'])
      assert.match(
        unsupportedNode(old) ?? '',
        new RegExp(`^Node\\.js ${old} is not supported: varsetd needs Node\\.js 22\\.14 or later, 24 or 26$`),
      );
    for (const supported of ['22.14.0', '22.23.3', '24.21.0', '25.2.1', '26.10.0', process.versions.node])
      assert.equal(unsupportedNode(supported), undefined, supported);
  });

  it("is what package.json's engines tell npm, which .npmrc makes refuse any other", () => {
    assert.equal(
      JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).engines.node,
      '>=22.14 <23 || >=24',
    );
    assert.match(fs.readFileSync(path.join(ROOT, '.npmrc'), 'utf8'), /^engine-strict=true$/m);
  });

  const oldNpm = oldNode && path.join(path.dirname(oldNode.node), 'npm');
  it(
    `stops npm ci and npm test within seconds on an unsupported Node.js (${oldNode?.version ?? 'none here'})`,
    { skip: oldNpm && fs.existsSync(oldNpm) ? false : 'no unsupported Node.js with npm beside it on this machine' },
    () => {
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-old-node-'));
      try {
        for (const file of [
          'package.json',
          'package-lock.json',
          '.npmrc',
          'scripts/check-node.mjs',
          'src/node-support.js',
        ]) {
          fs.mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
          fs.copyFileSync(path.join(ROOT, file), path.join(folder, file));
        }
        const env = {
          ...process.env,
          PATH: `${path.dirname(oldNode!.node)}:${process.env.PATH ?? ''}`,
          npm_config_update_notifier: 'false',
        };
        const started = Date.now();
        const install = spawnSync('npm', ['ci'], { cwd: folder, env, encoding: 'utf8', timeout: 60_000 });
        assert.notEqual(install.status, 0, install.stdout);
        assert.match(install.stderr, /EBADENGINE/);
        assert.match(install.stderr, new RegExp(`Actual: +\\{"node":"v${oldNode!.version.replace(/\./g, '\\.')}"`));
        assert.equal(fs.existsSync(path.join(folder, 'node_modules')), false, 'npm ci installed nothing');
        const test = spawnSync('npm', ['test', '--silent'], { cwd: folder, env, encoding: 'utf8', timeout: 60_000 });
        assert.notEqual(test.status, 0);
        assert.equal(test.stderr.trim().split('\n')[0], `varsetd: ${unsupportedNode(oldNode!.version)!}`);
        assert.ok(Date.now() - started < 30_000, `took ${Date.now() - started} ms`);
      } finally {
        fs.rmSync(folder, { recursive: true, force: true });
      }
    },
  );
});
