import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { migrations } from '../src/db/migrations/index.js';
import { ROOT } from './support/processes.js';

/**
 * src/db/migrations/released.json: every migration a release shipped, with the release and the
 * sha256 of its source file. A store a release migrated holds these migrations' names: the same
 * name must always do the same thing, so a released migration is never edited, renamed or
 * removed; a change is a new migration. Cutting a release adds its new migrations here.
 *
 * 0001–0016 shipped in 0.2.0; Prettier reformatted eight of them after it (0001–0003, 0008,
 * 0010–0012 and 0014; line breaks only: `git diff -w` shows no other change, so no statement
 * differs) before 0.3.0 added 0017–0019. Their checksums are of the reformatted files, the ones
 * 0.3.0 ships.
 */
const FOLDER = path.join(ROOT, 'src/db/migrations');
type Manifest = Record<string, { release: string; sha256: string }>;
const MANIFEST = JSON.parse(fs.readFileSync(path.join(FOLDER, 'released.json'), 'utf8')) as Manifest;
const PACKAGE_VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** What breaks the manifest: a released migration edited, renamed or removed, or a newer one run before it. */
function problems(
  manifest: Manifest,
  names: readonly string[],
  source: (name: string) => string | undefined,
): string[] {
  const found: string[] = [];
  for (const [name, { release, sha256: expected }] of Object.entries(manifest)) {
    const text = source(name);
    if (text === undefined || !names.includes(name))
      found.push(`${name} (released in ${release}) was removed or renamed`);
    else if (sha256(text) !== expected) found.push(`${name} (released in ${release}) was edited`);
  }
  const newestReleased = Object.keys(manifest).sort().at(-1) ?? '';
  if (names.some((name) => !(name in manifest) && name < newestReleased))
    found.push('an unreleased migration sorts before a released one: it would not run on a store already past it');
  return found;
}

const readSource = (name: string) => {
  const file = path.join(FOLDER, `${name}.ts`);
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
};

describe('released migrations', () => {
  it('are all there, unchanged, each a file of its name', () => {
    assert.deepEqual(problems(MANIFEST, Object.keys(migrations), readSource), []);
  });

  it('were released by this version or an earlier one', () => {
    const newest = PACKAGE_VERSION.split('.').map(Number);
    for (const [name, { release }] of Object.entries(MANIFEST)) {
      const parts = release.split('.').map(Number);
      const order = parts.findIndex((part, i) => part !== newest[i]);
      assert.ok(order === -1 || parts[order]! < newest[order]!, `${name}: ${release} is after ${PACKAGE_VERSION}`);
    }
  });

  it('include every migration of this release when it is cut', () => {
    // package.json names the newest release (test/version.test.ts): its migrations are all released.
    assert.ok(
      Object.values(MANIFEST).some(({ release }) => release === PACKAGE_VERSION),
      `no migration is listed for ${PACKAGE_VERSION}`,
    );
  });

  it('fail the check when one is edited, removed, or an unreleased one sorts before them', () => {
    const names = Object.keys(migrations);
    const edited = (name: string) =>
      name === '0003_access' ? `${readSource(name)!}\n// a comment\n` : readSource(name);
    assert.deepEqual(problems(MANIFEST, names, edited), ['0003_access (released in 0.2.0) was edited']);
    const removed = names.filter((name) => name !== '0016_varset_counts');
    assert.deepEqual(problems(MANIFEST, removed, readSource), [
      '0016_varset_counts (released in 0.2.0) was removed or renamed',
    ]);
    assert.deepEqual(problems(MANIFEST, [...names, '0000_first'], readSource), [
      'an unreleased migration sorts before a released one: it would not run on a store already past it',
    ]);
  });
});
