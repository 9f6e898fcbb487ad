import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';

const DEPCRUISE = 'node_modules/.bin/depcruise';
const FIXTURE = 'test/fixtures/folder-cycle/src';

/** dependency-cruiser's JSON of `args`, then scripts/check-layers.mjs over it, as `npm run check:layers` runs them. */
function cruise(args: string[]) {
  const cruised = spawnSync(DEPCRUISE, [...args, '--output-type', 'json'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  assert.ok(cruised.stdout.startsWith('{'), cruised.stderr);
  return cruised.stdout;
}
const check = (json: string, root?: string) =>
  spawnSync(process.execPath, ['scripts/check-layers.mjs', ...(root ? [root] : [])], {
    input: json,
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
