import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';

const DEPCRUISE = path.resolve('node_modules/.bin/depcruise');
const FIXTURE = 'test/fixtures/folder-cycle/src';

/** dependency-cruiser's JSON of `args`, then scripts/check-layers.mjs over it, as `npm run check:layers` runs them. */
function cruise(args: string[], cwd?: string) {
  const cruised = spawnSync(DEPCRUISE, [...args, '--output-type', 'json'], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  assert.ok(cruised.stdout.startsWith('{'), cruised.stderr);
  return cruised.stdout;
}
const check = (json: string, root?: string, cwd?: string) =>
  spawnSync(process.execPath, [path.resolve('scripts/check-layers.mjs'), ...(root ? [root] : [])], {
    input: json,
    cwd,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });

describe('the layer check', () => {
  it('refuses two folders that import each other through different files, with no cycle of files', () => {
    const json = cruise([FIXTURE, '--no-config']);
    const modules = (JSON.parse(json) as { modules: { dependencies: { circular: boolean }[] }[] }).modules;
    assert.equal(modules.length, 4);
    assert.ok(
      modules.every((m) => m.dependencies.every((d) => !d.circular)),
      'the fixture has no cycle of files',
    );
    const result = check(json, FIXTURE);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /no-folder-cycle: accounts, billing import each other/);
    assert.match(result.stderr, /accounts → billing: .*accounts\/service\.js → .*billing\/invoice\.js/);
    assert.match(result.stderr, /billing → accounts: .*billing\/letter\.js → .*accounts\/model\.js/);
  });

  it('counts a folder as a whole with its route files: a route that reaches back through a file of the root closes a cycle', () => {
    const root = 'test/fixtures/route-folder-cycle/src';
    const result = check(cruise([root, '--no-config']), root);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /no-folder-cycle: accounts, billing, includes\.js import each other/);
    assert.match(result.stderr, /accounts → includes\.js: .*accounts\/routes\.js → /);
  });

  it('refuses a folder and a folder inside it that import each other', () => {
    const root = 'test/fixtures/nested-folder-cycle/src';
    const result = check(cruise([root, '--no-config']), root);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /no-folder-cycle: accounts, accounts\/history import each other/);
    assert.match(
      result.stderr,
      /accounts → accounts\/history: .*accounts\/service\.js → .*accounts\/history\/entries\.js/,
    );
    assert.match(
      result.stderr,
      /accounts\/history → accounts: .*accounts\/history\/summary\.js → .*accounts\/model\.js/,
    );
  });

  it('passes the tree as it is: no broken rule, no cycle of folders', () => {
    const result = check(cruise(['src', 'ui', '--config', '.dependency-cruiser.cjs']));
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /no dependency violations, no folder cycles/);
  });
});

/**
 * A tree laid out as src/ is, with the project's rules and TypeScript settings, in a folder of
 * its own: `files` maps each path to its text.
 */
function plantedTree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-layers-'));
  fs.copyFileSync('.dependency-cruiser.cjs', path.join(dir, '.dependency-cruiser.cjs'));
  fs.copyFileSync('tsconfig.json', path.join(dir, 'tsconfig.json'));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

describe('the layer check refuses the old ways for one feature to react to another', () => {
  const registry = 'export const events = { publish: async (_e: string) => {} };\n';
  const ok = 'export const x = 1;\n';

  it('refuses steps handed from the app, diagnostics channels, stray subscriptions, routes that publish, and a registry that knows a feature', () => {
    const dir = plantedTree({
      'src/events/registry.ts': `import { x } from '../db/transaction.js';\nexport const y = x;\n${registry}`,
      'src/db/transaction.ts': ok,
      'src/organization-parts.ts': ok,
      'src/subscribers.ts': `import { subscribe } from './projects/subscriptions.js';\nexport const all = [subscribe];\n`,
      'src/projects/subscriptions.ts': 'export function subscribe(): void {}\n',
      'src/projects/service.ts':
        `import channel from 'node:diagnostics_channel';\nimport { x } from '../organization-parts.js';\n` +
        `export const c = channel.channel('varsetd:x');\nexport const y = x;\n`,
      'src/teams/service.ts': `import { subscribe } from '../projects/subscriptions.js';\nexport const s = subscribe;\n`,
      'src/routes/projects.ts': `import { events } from '../events/registry.js';\nexport const e = events;\n`,
    });
    try {
      const result = check(cruise(['src', '--config', '.dependency-cruiser.cjs'], dir), undefined, dir);
      assert.equal(result.status, 1);
      const broken = (rule: string) =>
        result.stderr
          .split('\n')
          .filter((line) => line.startsWith(`error ${rule}: `))
          .map((line) => line.slice(`error ${rule}: `.length))
          .sort();
      assert.deepEqual(broken('reactions-through-the-registry'), [
        'src/projects/service.ts → diagnostics_channel',
        'src/projects/service.ts → src/organization-parts.ts',
      ]);
      assert.deepEqual(broken('subscriptions-at-start'), ['src/teams/service.ts → src/projects/subscriptions.ts']);
      assert.deepEqual(broken('routes-carry-no-events'), ['src/routes/projects.ts → src/events/registry.ts']);
      assert.deepEqual(broken('registry-knows-no-feature'), ['src/events/registry.ts → src/db/transaction.ts']);
      assert.doesNotMatch(result.stderr, /src\/subscribers\.ts →/, 'src/subscribers.ts fills the registry');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a trigger in a migration not yet released, and keeps those of released ones', () => {
    const trigger = 'export const up = `create trigger t after insert on a begin select 1; end`;\n';
    const dir = plantedTree({
      'src/db/migrations/index.ts': `import './0019_notify.js';\nimport './0022_notify_again.expand.js';\nimport './0023_plain.js';\n`,
      'src/db/migrations/released.json': JSON.stringify({ '0019_notify': { release: '0.3.0', sha256: '' } }),
      'src/db/migrations/0019_notify.ts': trigger,
      'src/db/migrations/0022_notify_again.expand.ts': trigger.replace('create trigger', 'CREATE  OR REPLACE TRIGGER'),
      'src/db/migrations/0023_plain.ts': 'export const up = `create table triggers (id text)`;\n',
    });
    try {
      const result = check(cruise(['src', '--config', '.dependency-cruiser.cjs'], dir), undefined, dir);
      assert.equal(result.status, 1);
      const refused = result.stderr.split('\n').filter((line) => line.startsWith('error no-new-triggers: '));
      assert.deepEqual(refused, [
        'error no-new-triggers: src/db/migrations/0022_notify_again.expand.ts creates a trigger; react through the registry of domain events',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the layer check keeps models apart from the database', () => {
  it("lets a model derive types from the schema's rows, and refuses any import of src/db that runs", () => {
    const schema = 'export interface ThingTable { id: string }\nexport const TABLES = 1;\n';
    const dir = plantedTree({
      'src/db/schema.ts': schema,
      'src/db/connect.ts': 'export const open = 1;\n',
      'src/projects/model.ts': `import type { ThingTable } from '../db/schema.js';\nexport type Thing = Pick<ThingTable, 'id'>;\n`,
      'src/teams/model.ts': `import { TABLES } from '../db/schema.js';\nexport const t = TABLES;\n`,
      'src/workspaces/model.ts': `import type { open } from '../db/connect.js';\nexport type O = typeof open;\n`,
    });
    try {
      const result = check(cruise(['src', '--config', '.dependency-cruiser.cjs'], dir), undefined, dir);
      assert.equal(result.status, 1);
      const broken = result.stderr
        .split('\n')
        .filter((line) => line.startsWith('error '))
        .sort();
      assert.deepEqual(broken, [
        'error models-derive-rows-by-type: src/teams/model.ts → src/db/schema.ts',
        'error models-derive-rows-only: src/workspaces/model.ts → src/db/connect.ts',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
