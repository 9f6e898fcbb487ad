import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nodeNeedsNewerModule, sqliteModule } from '../src/db/sqlite-module.js';

test('each Node.js major gets the better-sqlite3 major that works on it', () => {
  assert.equal(nodeNeedsNewerModule('20.20.2'), false);
  assert.equal(nodeNeedsNewerModule('22.13.0'), true);
  assert.equal(nodeNeedsNewerModule('24.21.0'), true);
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
