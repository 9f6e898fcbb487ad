import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { CASES } from '../scripts/sql-snapshot-cases.js';
import { exportedFunctions, generate, SNAPSHOT_DIR, snapshotFiles, UPDATE_COMMAND } from '../scripts/sql-snapshots.js';
import { storeKind } from './support/store.js';

/** The lines of `expected` and `actual` that differ, in a unified-diff-like form: enough to see which statement changed. */
function lineDiff(expected: string, actual: string): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  return [
    `@@ line ${start + 1}`,
    ...a.slice(start, endA).map((line) => `- ${line}`),
    ...b.slice(start, endB).map((line) => `+ ${line}`),
  ].join('\n');
}

/** The committed SQL of every store (sql/<dialect>/) is what the stores send now: a change to a query shows in review as a change to its SQL. */
describe(`the SQL snapshots (${storeKind})`, () => {
  it('have a case for every exported function of every store and of the query helpers of src/db, and none for a function that is gone', async () => {
    assert.deepEqual(
      Object.keys(CASES).sort(),
      snapshotFiles(),
      'every src/**/*store.ts (and each of DB_HELPERS) needs an entry in scripts/sql-snapshot-cases.ts',
    );
    for (const file of snapshotFiles()) {
      const cases = (CASES as Record<string, Record<string, Record<string, unknown>>>)[file]!;
      assert.deepEqual(
        Object.keys(cases).sort(),
        await exportedFunctions(file),
        `${file}: every exported function needs a case in scripts/sql-snapshot-cases.ts`,
      );
      for (const [fn, byCase] of Object.entries(cases))
        assert.ok(Object.keys(byCase).length > 0, `${file} ${fn}: no case`);
    }
  });

  it('are the SQL the stores send now', async () => {
    const { dialect, files } = await generate();
    const dir = path.join(SNAPSHOT_DIR, dialect);
    const committed = fs.existsSync(dir)
      ? fs
          .readdirSync(dir, { recursive: true, encoding: 'utf8' })
          .filter((name) => name.endsWith('.sql'))
          .map((name) => name.split(path.sep).join('/'))
          .sort()
      : [];
    const problems: string[] = [];
    for (const name of [...new Set([...committed, ...files.keys()])].sort()) {
      const actual = files.get(name);
      const file = path.join(dir, name);
      const expected = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
      if (actual === undefined) problems.push(`sql/${dialect}/${name}: no store writes it any more`);
      else if (expected === undefined) problems.push(`sql/${dialect}/${name}: missing`);
      else if (actual !== expected) problems.push(`sql/${dialect}/${name} differs:\n${lineDiff(expected, actual)}`);
    }
    assert.equal(
      problems.length,
      0,
      `${problems.join('\n\n')}\n\nIf the change is meant, run ${UPDATE_COMMAND} and commit sql/.`,
    );
  });
});
