import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, sql, type Migration, type MigrationResultSet } from 'kysely';
import { migrateGivingWay } from '../../src/db/migration-locks.js';
import { createTestStore, storeKind } from '../support/store.js';

/**
 * An expand migration beside an older server's write, on PostgreSQL: the write holds a row of
 * `variables` and then writes `versions` (as every write of a set does); the migration alters
 * `versions`, then indexes `variables`. Each waits for the other: PostgreSQL fails one of them
 * after its deadlock_timeout. The migration must be the one that gives way, never the write.
 */
const crossing: Migration = {
  async up(db) {
    await sql`alter table versions add column cause text`.execute(db);
    await sql`create index variables_key_idx on variables (key)`.execute(db);
  },
};

async function raceAWriteWith(
  migrate: (db: Kysely<unknown>, migrator: Migrator) => Promise<MigrationResultSet>,
): Promise<{ write: unknown; migration: unknown; rows: unknown[] }> {
  const store = await createTestStore();
  // Dropping the database at the end ends any connection still open; what the test checks comes
  // from the queries' own results, so an idle connection's error event is no failure of it.
  const pool = new pg.Pool({ connectionString: store.databaseUrl, max: 2 });
  pool.on('error', () => {});
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool }),
  });
  const writer = new pg.Client({ connectionString: store.databaseUrl });
  writer.on('error', () => {});
  try {
    await sql`create table variables (id int primary key, key text)`.execute(db);
    await sql`create table versions (id int primary key)`.execute(db);
    await sql`insert into variables values (1, 'a')`.execute(db);
    await writer.connect();
    await writer.query('begin');
    await writer.query('delete from variables where id = 1');
    // On one connection, as varsetd migrates: the lock wait set on it applies to the migrations.
    const migration = db
      .connection()
      .execute((connection) =>
        migrate(
          connection,
          new Migrator({ db: connection, provider: { getMigrations: async () => ({ '0001_crossing': crossing }) } }),
        ),
      );
    await sleep(100); // the migration holds `versions` and waits for `variables`
    const write = writer.query('insert into versions values (1)').then(() => writer.query('commit'));
    const [wrote, migrated] = await Promise.allSettled([write, migration]);
    const { rows } = await sql`select (select count(*)::int from variables) as variables,
      (select count(*)::int from versions) as versions,
      (select count(*)::int from information_schema.columns where table_name = 'versions' and column_name = 'cause') as cause`.execute(
      db,
    );
    return {
      rows,
      write: wrote.status === 'rejected' ? wrote.reason : undefined,
      migration: migrated.status === 'rejected' ? migrated.reason : migrated.value.error,
    };
  } finally {
    await writer.end().catch(() => {});
    await db.destroy();
    await store.dispose();
  }
}

const code = (error: unknown) => (error as { code?: string } | undefined)?.code;

describe(
  'migrations on PostgreSQL beside older servers writing',
  { skip: storeKind !== 'postgres' && 'PostgreSQL only' },
  () => {
    it('run as Kysely runs them, one of the two waiting on the other fails as a deadlock', async () => {
      const { write, migration } = await raceAWriteWith((_, migrator) => migrator.migrateToLatest());
      assert.deepEqual([code(write), code(migration)].filter(Boolean), ['40P01']);
    });

    it('give way: the write goes through, and the migration, started again, is applied after it', async () => {
      const { write, migration } = await raceAWriteWith((db, migrator) =>
        migrateGivingWay(db, () => migrator.migrateToLatest()),
      );
      assert.equal(write, undefined, 'the older server’s write');
      assert.equal(migration, undefined, 'the migration');
    });
  },
);
