import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { sqliteModule } from '../src/db/sqlite-module.js';
import { ROOT } from './support/processes.js';

const PACKAGE = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

test('the SQLite module is the major package.json asks for, loads on this Node.js, and runs a statement', () => {
  const { Database, description } = sqliteModule();
  const major = /^\^(\d+)\./.exec(PACKAGE.dependencies['better-sqlite3'])?.[1];
  assert.ok(major, 'better-sqlite3 is a caret range in dependencies');
  assert.match(description, new RegExp(`^better-sqlite3 ${major}\\.`));
  const db = new Database(':memory:');
  try {
    assert.deepEqual(db.prepare('select 1 + 1 as two').get(), { two: 2 });
  } finally {
    db.close();
  }
});

// better-sqlite3 12 compiled against Node.js 24.19 or later aborted the process here.
test('statements collected as garbage leave the process running', () => {
  const program = `
    const Database = require(${JSON.stringify(sqliteModule().path)});
    const db = new Database(':memory:');
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 2000; i++) db.prepare('select ? + 1 as n').get(i);
      globalThis.gc();
    }
    db.close();
    console.log('done');
  `;
  const child = spawnSync(process.execPath, ['--expose-gc', '-e', program], { encoding: 'utf8' });
  assert.deepEqual(
    { status: child.status, signal: child.signal, stdout: child.stdout },
    { status: 0, signal: null, stdout: 'done\n' },
    child.stderr,
  );
});
