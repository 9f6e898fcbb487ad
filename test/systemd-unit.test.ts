import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SETTINGS } from '../src/config.js';
import { DEFAULT_TIMEOUTS } from '../src/http/server.js';
import { usage } from '../src/cli/usage.js';
import { ROOT } from './support/processes.js';

const UNIT = path.join(ROOT, 'deploy', 'varsetd.service');
const ENV_FILE = path.join(ROOT, 'deploy', 'varsetd.env');

type Unit = Map<string, Array<[string, string]>>;

/** systemd's unit syntax, as far as a unit file uses it: sections, `Key=value` (a key may repeat), comments, backslash continuations. */
function parseUnit(text: string): Unit {
  const sections: Unit = new Map();
  let current: Array<[string, string]> | undefined;
  const lines = text.replace(/\\\n/g, ' ').split('\n');
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const section = /^\[([^\]]+)\]$/.exec(line);
    if (section) {
      assert.ok(!sections.has(section[1]!), `section [${section[1]}] appears twice`);
      current = [];
      sections.set(section[1]!, current);
      continue;
    }
    const assignment = /^([A-Za-z][A-Za-z0-9]*)\s*=\s*(.*)$/.exec(line);
    assert.ok(assignment, `line ${i + 1} is neither a section, a comment nor Key=value: ${raw}`);
    assert.ok(current, `line ${i + 1} comes before any section`);
    current.push([assignment[1]!, assignment[2]!]);
  }
  return sections;
}

/** The values of `key` in `section`, in order. */
const values = (unit: Unit, section: string, key: string) =>
  (unit.get(section) ?? []).filter(([k]) => k === key).map(([, v]) => v);
/** The one value of `key` in `section`. */
function value(unit: Unit, section: string, key: string): string | undefined {
  const found = values(unit, section, key);
  assert.ok(found.length <= 1, `${key} is set ${found.length} times in [${section}]`);
  return found[0];
}

/** Words as systemd splits a command line or an Environment= value: white space, double or single quotes. */
function words(text: string): string[] {
  return [...text.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

/** A systemd time span such as `90s`, `1min 30s` or `90`, in seconds. */
function seconds(span: string): number {
  const units: Record<string, number> = { '': 1, s: 1, sec: 1, m: 60, min: 60, h: 3600 };
  let total = 0;
  for (const [, amount, unit] of span.matchAll(/(\d+)\s*([a-z]*)/g)) {
    assert.ok(unit! in units, `unknown time unit in ${span}`);
    total += Number(amount) * units[unit!]!;
  }
  return total;
}

const settingNames = new Set(SETTINGS.map((s) => s.env));
/** The commands `varsetd --help` lists. */
const commands = new Set(
  usage()
    .split('\ncommands:\n')[1]!
    .split('\n\n')[0]!
    .split('\n')
    .map((line) => line.trim().split(/\s+/)[0]!)
    .filter(Boolean),
);

describe('deploy/varsetd.service', () => {
  const unit = parseUnit(fs.readFileSync(UNIT, 'utf8'));

  it('has the sections of a service that starts at boot', () => {
    assert.deepEqual([...unit.keys()], ['Unit', 'Service', 'Install']);
    assert.equal(value(unit, 'Install', 'WantedBy'), 'multi-user.target');
    assert.match(value(unit, 'Unit', 'After') ?? '', /network-online\.target/);
    assert.equal(value(unit, 'Service', 'Type'), 'simple');
  });

  it('starts `varsetd serve` from the built package', () => {
    const [program, ...args] = words(value(unit, 'Service', 'ExecStart')!);
    assert.ok(path.isAbsolute(program!), `ExecStart's program must be an absolute path: ${program}`);
    const bin = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).bin.varsetd as string;
    // Either node running the package's bin (dist/main.js), or an installed `varsetd`.
    const script = path.basename(program!) === 'varsetd' ? -1 : args.findIndex((arg) => arg.endsWith(`/${bin}`));
    assert.ok(
      script >= 0 || path.basename(program!) === 'varsetd',
      `ExecStart runs neither ${bin} nor varsetd: ${args.join(' ')}`,
    );
    if (script >= 0) assert.equal(path.basename(program!), 'node');
    // ProtectHome=yes hides home folders from the service: a node there (nvm's) would not be found.
    if (value(unit, 'Service', 'ProtectHome') === 'yes')
      assert.doesNotMatch(program!, /^\/(home|root|run\/user)\//, 'ExecStart runs a program ProtectHome hides');
    const [command, ...options] = args.slice(script + 1);
    assert.ok(commands.has(command!), `${command} is not one of varsetd's commands (${[...commands].join(', ')})`);
    assert.equal(command, 'serve');
    // Any option after it is one of varsetd's flags.
    const flags = new Set(SETTINGS.map((s) => s.flag));
    for (const option of options.filter((o) => o.startsWith('--')))
      assert.ok(flags.has(option.split('=')[0]!), `unknown option ${option}`);
    // The working directory is where ExecStart's package is.
    if (script >= 0)
      assert.ok(
        args[script]!.startsWith(`${value(unit, 'Service', 'WorkingDirectory')}/`),
        'WorkingDirectory is not the package that ExecStart runs',
      );
  });

  it('restarts varsetd when it fails, but not after a configuration error, and stops it with SIGTERM, giving it time to drain', () => {
    assert.equal(value(unit, 'Service', 'Restart'), 'on-failure');
    assert.ok(seconds(value(unit, 'Service', 'RestartSec')!) >= 1);
    // varsetd exits with 2 on a configuration error (src/cli/main.ts) and on an unsupported Node.js (src/main.ts): starting it again would fail the same way.
    assert.deepEqual(words(value(unit, 'Service', 'RestartPreventExitStatus')!), ['2']);
    assert.equal(value(unit, 'Unit', 'StartLimitIntervalSec'), '0');
    assert.equal(value(unit, 'Service', 'KillSignal'), 'SIGTERM');
    // SIGTERM to the primary only: it drains its workers, which must not be stopped behind its back.
    assert.equal(value(unit, 'Service', 'KillMode'), 'mixed');
    const stopSeconds = seconds(value(unit, 'Service', 'TimeoutStopSec')!);
    assert.ok(
      stopSeconds > DEFAULT_TIMEOUTS.requestMs / 1000,
      `TimeoutStopSec (${stopSeconds} s) does not cover a request sent as slowly as varsetd allows (${DEFAULT_TIMEOUTS.requestMs / 1000} s)`,
    );
    assert.equal(value(unit, 'Service', 'ExecReload'), '/bin/kill -HUP $MAINPID');
  });

  it('runs as a user of its own, confined to its data folder', () => {
    const user = value(unit, 'Service', 'User');
    assert.ok(user && user !== 'root', 'no dedicated user');
    for (const [key, expected] of [
      ['NoNewPrivileges', 'yes'],
      ['ProtectSystem', 'strict'],
      ['ProtectHome', 'yes'],
      ['PrivateTmp', 'yes'],
      ['PrivateDevices', 'yes'],
      ['CapabilityBoundingSet', ''],
    ] as const) {
      assert.equal(value(unit, 'Service', key), expected, key);
    }
    // The data folder it is given is the one it may write to.
    const environment = new Map(
      values(unit, 'Service', 'Environment')
        .flatMap(words)
        .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
    );
    const dataDir = environment.get('VARSETD_DATA_DIR');
    assert.ok(dataDir, 'VARSETD_DATA_DIR is not set');
    assert.ok(
      values(unit, 'Service', 'ReadWritePaths').flatMap(words).includes(dataDir),
      `${dataDir} is not among ReadWritePaths`,
    );
    assert.equal(`/var/lib/${value(unit, 'Service', 'StateDirectory')}`, dataDir);
    // Workers talk to the primary over Unix sockets; clients come over IPv4 and IPv6.
    assert.deepEqual(words(value(unit, 'Service', 'RestrictAddressFamilies')!).sort(), [
      'AF_INET',
      'AF_INET6',
      'AF_UNIX',
    ]);
    // V8 writes the machine code it compiles: MemoryDenyWriteExecute would kill node.
    assert.notEqual(value(unit, 'Service', 'MemoryDenyWriteExecute'), 'yes');
  });

  it('sets only settings varsetd has, in Environment= and in the environment file', () => {
    const named = values(unit, 'Service', 'Environment')
      .flatMap(words)
      .map((pair) => pair.slice(0, pair.indexOf('=')));
    assert.ok(named.length > 0);
    for (const name of named)
      assert.ok(settingNames.has(name), `Environment= sets ${name}, which is not a setting of varsetd`);

    assert.deepEqual(values(unit, 'Service', 'EnvironmentFile'), ['/etc/varsetd/varsetd.env']);
    // The example file the unit's instructions install there: its settings, whether set or commented out.
    const lines = fs.readFileSync(ENV_FILE, 'utf8').split('\n');
    const assigned = lines
      .map((line) => /^#?([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
      .filter((name): name is string => name !== undefined);
    assert.ok(assigned.length >= 10, `only ${assigned.length} settings in ${ENV_FILE}`);
    for (const name of assigned)
      assert.ok(settingNames.has(name), `${path.basename(ENV_FILE)} names ${name}, which is not a setting of varsetd`);
    // Every other line is a comment or empty: systemd would refuse anything else.
    for (const line of lines)
      assert.ok(
        line === '' || line.startsWith('#') || /^[A-Z][A-Z0-9_]*=\S*$/.test(line),
        `not a NAME=value line: ${line}`,
      );
  });

  it('passes systemd-analyze verify, where systemd is installed', (t) => {
    const which = spawnSync('sh', ['-c', 'command -v systemd-analyze'], { encoding: 'utf8' });
    if (which.status !== 0) {
      // Said, not skipped in silence: the checks above ran all the same.
      t.diagnostic('systemd-analyze is not installed here: only the checks of the parsed unit ran');
      return;
    }
    // verify checks that ExecStart's program exists: node's path on this machine stands in for /usr/bin/node.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-unit-'));
    try {
      const copy = path.join(dir, 'varsetd.service');
      fs.writeFileSync(
        copy,
        fs.readFileSync(UNIT, 'utf8').replace('ExecStart=/usr/bin/node ', `ExecStart=${process.execPath} `),
      );
      const version = execFileSync('systemd-analyze', ['--version'], { encoding: 'utf8' }).split('\n')[0];
      const result = spawnSync('systemd-analyze', ['verify', copy], { encoding: 'utf8' });
      t.diagnostic(`${version}: verify exited with ${result.status}`);
      assert.equal(result.status, 0, result.stderr);
      // It exits 0 on a key it ignores (unknown, or a value it cannot parse), saying so on stderr.
      assert.equal(result.stderr.trim(), '', result.stderr);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
