import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { withoutParameterPropagation } from '../src/db/connect.js';
import { sqliteModule } from '../src/db/sqlite-module.js';

/** `= +?` in SQLite's statements: the same rows, the same index, no new plan at every bind. */
describe('SQLite parameters compared for equality', () => {
  const { Database } = sqliteModule();
  const db = new Database(':memory:');
  db.exec(`create table parents (id text primary key, name text);
    create table children (id text primary key, parent_id text references parents (id), size integer);
    create index children_parent on children (parent_id);
    insert into parents values ('p1', 'one'), ('p2', 'two');
    insert into children values ('c1', 'p1', 1), ('c2', 'p1', 2), ('c3', 'p2', null);`);
  const JOINED =
    'select parents.name, children.id, children.size from children join parents on parents.id = children.parent_id where children.parent_id = ? and children.size = ? order by children.id';

  it('rewrites every equality with a parameter, and nothing else', () => {
    assert.equal(withoutParameterPropagation(JOINED), JOINED.replaceAll(' = ?', ' = +?'));
    assert.equal(
      withoutParameterPropagation('select 1 where a in (?, ?) and b < ? and c = ?'),
      'select 1 where a in (?, ?) and b < ? and c = +?',
    );
  });

  it('answers the same rows for text, numbers and null', () => {
    for (const args of [
      ['p1', 2],
      ['p1', 1],
      ['p2', null],
      ['p3', 1],
    ] as const) {
      assert.deepEqual(db.prepare(withoutParameterPropagation(JOINED)).all(...args), db.prepare(JOINED).all(...args));
    }
    assert.deepEqual(db.prepare(withoutParameterPropagation(JOINED)).all('p1', 2), [
      { name: 'one', id: 'c2', size: 2 },
    ]);
  });

  it('still finds the rows through the index', () => {
    const plan = db.prepare(`explain query plan ${withoutParameterPropagation(JOINED)}`).all('p1', 2) as {
      detail: string;
    }[];
    assert.ok(
      plan.some((step) => /SEARCH children USING INDEX children_parent \(parent_id=\?\)/.test(step.detail)),
      JSON.stringify(plan),
    );
  });
});
