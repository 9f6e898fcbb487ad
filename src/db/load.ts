import fs from 'node:fs';
import path from 'node:path';
import { Migrator, sql, type Kysely } from 'kysely';
import { makePrivateFolder } from '../common/private-folder.js';
import { openStore, sqliteFile, type Dialect, type Store, type StoreOptions } from './connect.js';
import { migrations } from './migrations/index.js';
import { appliedMigrations, tableShapes, type StoredValue, type TableShape } from './snapshot.js';
import { sqliteModule } from './sqlite-module.js';
import type { Database } from './schema.js';

/**
 * Writes the rows of a backup into a store, all or nothing: the store is brought to the
 * backup's schema version, takes the rows exactly as read (triggers, which would count and
 * number them again, do not fire), and is then migrated to this varsetd's schema.
 * PostgreSQL: one transaction. SQLite: a new database file beside the store's, renamed over
 * it once complete.
 */
export interface RowsToLoad {
  /** The last migration applied when the rows were read. */
  migration: string;
  /** The tables, each after those it refers to, with the columns of the rows given for them. */
  tables: TableShape[];
  /** Batches of rows, table after table in the order of `tables`. */
  batches(): AsyncIterable<{ table: string; rows: StoredValue[][] }>;
}

/** What a store holds: its applied migrations and whether any of its tables has a row. */
export async function storeContents(store: Store): Promise<{ migrations: string[]; empty: boolean }> {
  const db = store.db.withoutPlugins() as Kysely<unknown>;
  const applied = await appliedMigrations(db);
  for (const table of applied.length ? await tableShapes(db, store.dialect) : []) {
    const { rows } = await sql`select 1 from ${sql.table(table.name)} limit 1`.execute(db);
    if (rows.length) return { migrations: applied, empty: false };
  }
  return { migrations: applied, empty: true };
}

/** Loads `load` into the store `options` name, replacing what it holds (the caller has checked that it may). Returns the migrations applied after loading. */
export async function loadStore(options: StoreOptions, load: RowsToLoad): Promise<string[]> {
  return options.databaseUrl ? loadPostgres(options, load) : loadSqlite(options.dataDir, load);
}

function migratorOf(db: Kysely<Database>, disableTransactions: boolean): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations }, disableTransactions });
}

async function migrated(
  result: Promise<{ error?: unknown; results?: { status: string; migrationName: string }[] }>,
): Promise<string[]> {
  const { error, results } = await result;
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The largest batch of rows one INSERT takes: SQLite and PostgreSQL both allow 32766 parameters or more. */
function rowsPerInsert(columns: number): number {
  return Math.max(1, Math.min(500, Math.floor(30_000 / columns)));
}

async function insertRows(
  db: Kysely<unknown>,
  dialect: Dialect,
  table: TableShape,
  rows: StoredValue[][],
): Promise<void> {
  const columns = sql.join(table.columns.map((column) => sql.ref(column)));
  // Numbered columns (PostgreSQL's identity columns) take the numbers the backup holds.
  const overriding = dialect === 'postgres' ? sql`overriding system value` : sql``;
  const step = rowsPerInsert(table.columns.length);
  for (let i = 0; i < rows.length; i += step) {
    const values = sql.join(rows.slice(i, i + step).map((row) => sql`(${sql.join(row)})`));
    await sql`insert into ${sql.table(table.name)} (${columns}) ${overriding} values ${values}`.execute(db);
  }
}

/**
 * Refuses rows whose tables or columns the store, at the backup's schema version, does not
 * have as the backup recorded them (which a backup of the other store kind could show).
 */
function checkShapes(store: TableShape[], load: RowsToLoad): void {
  const names = (tables: TableShape[]) =>
    tables
      .map((t) => t.name)
      .sort()
      .join(', ');
  if (names(store) !== names(load.tables))
    throw new Error(`the backup's tables (${names(load.tables)}) are not the store's (${names(store)})`);
  for (const table of load.tables) {
    const columns = store.find((t) => t.name === table.name)!.columns;
    if ([...columns].sort().join() !== [...table.columns].sort().join())
      throw new Error(`the backup's columns of ${table.name} are not the store's`);
  }
}

async function insertAll(db: Kysely<unknown>, dialect: Dialect, load: RowsToLoad): Promise<void> {
  const shapes = new Map(load.tables.map((table) => [table.name, table]));
  for await (const batch of load.batches()) await insertRows(db, dialect, shapes.get(batch.table)!, batch.rows);
}

async function loadPostgres(options: StoreOptions, load: RowsToLoad): Promise<string[]> {
  const store = await openStore({ ...options, dbPoolSize: 2 });
  try {
    // Processes starting now wait until the restore is over, as they do for migrations.
    return await store.exclusively(() =>
      store.db.connection().execute(async (connection) => {
        const db = connection.withoutPlugins() as Kysely<unknown>;
        await sql`begin`.execute(db);
        try {
          await sql`set local statement_timeout = 0`.execute(db);
          // Migrations run as varsetd runs them (with its plugins), on this transaction's connection.
          await migrated(migratorOf(connection, true).migrateTo(load.migration));
          const tables = await tableShapes(db, 'postgres');
          checkShapes(tables, load);
          await sql`truncate table ${sql.join(tables.map((t) => sql.table(t.name)))} restart identity`.execute(db);
          // The owner of a table (varsetd's user, which created them) may turn its own triggers off; inside the transaction only.
          for (const table of tables) await sql`alter table ${sql.table(table.name)} disable trigger user`.execute(db);
          await insertAll(db, 'postgres', load);
          for (const table of tables) await sql`alter table ${sql.table(table.name)} enable trigger user`.execute(db);
          await resetSequences(db, tables);
          const applied = await migrated(migratorOf(connection, true).migrateToLatest());
          await sql`commit`.execute(db);
          return applied;
        } catch (error) {
          await sql`rollback`.execute(db).catch(() => {});
          throw error;
        }
      }),
    );
  } finally {
    await store.close();
  }
}

/** Each sequence (serial and identity columns) goes on after the largest number its table holds. */
async function resetSequences(db: Kysely<unknown>, tables: TableShape[]): Promise<void> {
  for (const table of tables) {
    for (const column of table.columns) {
      const { rows } = await sql<{
        sequence: string | null;
      }>`select pg_get_serial_sequence(${table.name}, ${column}) as sequence`.execute(db);
      const sequence = rows[0]?.sequence;
      if (!sequence) continue;
      await sql`select setval(${sequence}, coalesce((select max(${sql.ref(column)}) from ${sql.table(table.name)}), 0) + 1, false)`.execute(
        db,
      );
    }
  }
}

async function loadSqlite(dataDir: string, load: RowsToLoad): Promise<string[]> {
  const target = sqliteFile(dataDir);
  makePrivateFolder(dataDir);
  const building = fs.mkdtempSync(path.join(dataDir, '.restore-'));
  try {
    const store = await openStore({ dataDir: building });
    let applied: string[];
    try {
      await migrated(migratorOf(store.db, false).migrateTo(load.migration));
      await loadSqliteRows(store.db.withoutPlugins() as Kysely<unknown>, load);
      applied = await migrated(migratorOf(store.db, false).migrateToLatest());
    } finally {
      await store.close();
    }
    replaceSqliteFile(sqliteFile(building), target);
    return applied;
  } finally {
    fs.rmSync(building, { recursive: true, force: true });
  }
}

/** SQLite cannot turn triggers off: they are dropped while the rows go in, and made again from their own SQL. */
async function loadSqliteRows(db: Kysely<unknown>, load: RowsToLoad): Promise<void> {
  const { rows: triggers } = await sql<{
    name: string;
    sql: string;
  }>`select name, sql from sqlite_master where type = 'trigger'`.execute(db);
  await sql`pragma foreign_keys = off`.execute(db);
  await sql`begin`.execute(db);
  try {
    for (const trigger of triggers) await sql`drop trigger ${sql.ref(trigger.name)}`.execute(db);
    const tables = await tableShapes(db, 'sqlite');
    checkShapes(tables, load);
    // Without the rows migrations put in (the first credentials version), which the backup holds as they were.
    for (const table of tables) await sql`delete from ${sql.table(table.name)}`.execute(db);
    await insertAll(db, 'sqlite', load);
    for (const trigger of triggers) await sql.raw(trigger.sql).execute(db);
    const { rows: broken } = await sql<{
      table: string;
      parent: string;
    }>`select "table", parent from pragma_foreign_key_check`.execute(db);
    if (broken.length)
      throw new Error(
        `the backup's rows of ${broken[0]!.table} refer to rows of ${broken[0]!.parent} it does not hold`,
      );
    await sql`commit`.execute(db);
  } catch (error) {
    await sql`rollback`.execute(db).catch(() => {});
    throw error;
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

/**
 * Puts the finished database in place of the store's. The old one's write-ahead log is
 * checkpointed and removed first: left beside the new file, SQLite would replay it into it.
 */
function replaceSqliteFile(built: string, target: string): void {
  if (fs.existsSync(target)) {
    const old = new (sqliteModule().Database)(target);
    try {
      old.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      old.close();
    }
  }
  for (const suffix of ['-wal', '-shm']) fs.rmSync(target + suffix, { force: true });
  fs.chmodSync(built, 0o600);
  fs.renameSync(built, target);
}

/** The processes (other than this one) that have the SQLite file of `dataDir` open, as far as /proc shows them. */
export function processesUsingSqlite(dataDir: string): number[] {
  const file = fs.existsSync(sqliteFile(dataDir)) ? fs.realpathSync(sqliteFile(dataDir)) : undefined;
  if (!file || !fs.existsSync('/proc')) return [];
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (fs.readdirSync(`/proc/${entry}/fd`).some((fd) => fs.readlinkSync(`/proc/${entry}/fd/${fd}`) === file))
        pids.push(Number(entry));
    } catch {
      // Gone, or another user's: not readable.
    }
  }
  return pids;
}
