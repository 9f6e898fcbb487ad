import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nodeNeedsNewerModule, sqliteModule } from '../src/db/sqlite-module.js';

test('better-sqlite3 13 is used where Node-API 10 is (Node.js 22.14 and later), 12 elsewhere', () => {
  assert.equal(nodeNeedsNewerModule('9'), false); // Node.js 20 and 22.13
  assert.equal(nodeNeedsNewerModule('10'), true); // Node.js 22.14 and later, 24
});

test('the module for this Node.js is installed, loads, and runs a statement', () => {
  const { Database, description } = sqliteModule();
  const expectedMajor = nodeNeedsNewerModule() ? '13' : '12';
  assert.match(description, new RegExp(`^better-sqlite3 ${expectedMajor}\\.`));
  const db = new Database(':memory:');
  try {
    assert.deepEqual(db.prepare('select 1 + 1 as two').get(), { two: 2 });
  } finally {
    db.close();
  }
});
