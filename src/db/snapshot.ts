import { sql, type Kysely } from 'kysely';
import type { Dialect, Store } from './connect.js';

/**
 * Every table of the store read in one consistent snapshot, for backups: whatever other
 * processes write meanwhile, the rows read are those of one moment. PostgreSQL: one REPEATABLE
 * READ, READ ONLY transaction; SQLite: one read transaction, which in WAL mode keeps reading
 * the database as it was at its first read while writers go on.
 */

/** A value as stored: text, a number, bytes (Buffer), or null. */
export type StoredValue = string | number | bigint | boolean | Buffer | null;

export interface TableShape {
  name: string;
  columns: string[];
  primaryKey: string[];
}

export interface Snapshot {
  /** The migrations applied to the store: its schema version. */
  migrations: string[];
  /** Every table of varsetd's data (not the migrator's own), each after the tables it refers to. */
  tables: TableShape[];
  /** The rows of a table, in primary key order, each as its values in the order of `columns`. */
  rows(table: TableShape): AsyncIterable<StoredValue[][]>;
}

/** The migrator's own tables: their contents are the snapshot's `migrations`. */
export const MIGRATOR_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

const PAGE = 1000;

export async function readSnapshot<T>(store: Store, work: (snapshot: Snapshot) => Promise<T>): Promise<T> {
  return store.db.connection().execute(async (connection) => {
    // Raw values: flags as the integers stored, not the booleans the rest of varsetd reads.
    const db = connection.withoutPlugins() as Kysely<unknown>;
    await sql
      .raw(store.dialect === 'postgres' ? 'begin isolation level repeatable read read only' : 'begin')
      .execute(db);
    try {
      if (store.dialect === 'postgres') await sql`set local statement_timeout = 0`.execute(db);
      const migrations = await appliedMigrations(db);
      const tables = await tableShapes(db, store.dialect);
      const result = await work({ migrations, tables, rows: (table) => pagedRows(db, table) });
      await sql`commit`.execute(db);
      return result;
    } catch (error) {
      await sql`rollback`.execute(db).catch(() => {});
      throw error;
    }
  });
}

/** The names of the applied migrations, in order; none when the store was never migrated. */
export async function appliedMigrations(db: Kysely<unknown>): Promise<string[]> {
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    return rows.map((row) => row.name);
  } catch (error) {
    if (/no such table|does not exist/.test((error as Error).message)) return [];
    throw error;
  }
}

async function* pagedRows(db: Kysely<unknown>, table: TableShape): AsyncIterable<StoredValue[][]> {
  const columns = sql.join(table.columns.map((column) => sql.ref(column)));
  const key = sql.join(table.primaryKey.map((column) => sql.ref(column)));
  const keyAt = table.primaryKey.map((column) => table.columns.indexOf(column));
  let after: StoredValue[] | undefined;
  for (;;) {
    const where = after ? sql`where (${key}) > (${sql.join(after)})` : sql``;
    const { rows } = await sql<
      Record<string, StoredValue>
    >`select ${columns} from ${sql.table(table.name)} ${where} order by ${key} limit ${PAGE}`.execute(db);
    const values = rows.map((row) => table.columns.map((column) => row[column] ?? null));
    if (values.length) yield values;
    if (values.length < PAGE) return;
    const last = values[values.length - 1]!;
    after = keyAt.map((index) => last[index]!);
  }
}

/** The data tables of the store, each after those its foreign keys refer to. */
export async function tableShapes(db: Kysely<unknown>, dialect: Dialect): Promise<TableShape[]> {
  const catalog = dialect === 'postgres' ? postgresCatalog : sqliteCatalog;
  const names = (await catalog.tables(db)).filter((name) => !MIGRATOR_TABLES.has(name)).sort();
  const shapes = new Map<string, TableShape & { refers: string[] }>();
  for (const name of names) {
    const { columns, primaryKey } = await catalog.columns(db, name);
    if (!primaryKey.length) throw new Error(`table ${name} has no primary key`);
    shapes.set(name, { name, columns, primaryKey, refers: await catalog.refers(db, name) });
  }
  const ordered: TableShape[] = [];
  const placed = new Set<string>();
  while (ordered.length < shapes.size) {
    const next = [...shapes.values()].find(
      (t) => !placed.has(t.name) && t.refers.every((r) => r === t.name || placed.has(r) || !shapes.has(r)),
    );
    if (!next) throw new Error('the tables refer to each other in a circle');
    placed.add(next.name);
    ordered.push({ name: next.name, columns: next.columns, primaryKey: next.primaryKey });
  }
  return ordered;
}

interface Catalog {
  tables(db: Kysely<unknown>): Promise<string[]>;
  columns(db: Kysely<unknown>, table: string): Promise<{ columns: string[]; primaryKey: string[] }>;
  refers(db: Kysely<unknown>, table: string): Promise<string[]>;
}

const sqliteCatalog: Catalog = {
  tables: async (db) =>
    (
      await sql<{
        name: string;
      }>`select name from sqlite_master where type = 'table' and name not like 'sqlite!_%' escape '!'`.execute(db)
    ).rows.map((r) => r.name),
  columns: async (db, table) => {
    const { rows } = await sql<{
      name: string;
      pk: number;
    }>`select name, pk from pragma_table_info(${table}) order by cid`.execute(db);
    return {
      columns: rows.map((r) => r.name),
      primaryKey: rows
        .filter((r) => r.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((r) => r.name),
    };
  },
  refers: async (db, table) =>
    (await sql<{ table: string }>`select distinct "table" from pragma_foreign_key_list(${table})`.execute(db)).rows.map(
      (r) => r.table,
    ),
};

const postgresCatalog: Catalog = {
  tables: async (db) =>
    (
      await sql<{
        name: string;
      }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(
        db,
      )
    ).rows.map((r) => r.name),
  columns: async (db, table) => {
    const columns = await sql<{ name: string }>`
      select column_name as name from information_schema.columns
      where table_schema = current_schema() and table_name = ${table} order by ordinal_position`.execute(db);
    const primaryKey = await sql<{ name: string }>`
      select a.attname as name from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
      where i.indrelid = to_regclass(${table}) and i.indisprimary order by array_position(i.indkey::int2[], a.attnum)`.execute(
      db,
    );
    return { columns: columns.rows.map((r) => r.name), primaryKey: primaryKey.rows.map((r) => r.name) };
  },
  refers: async (db, table) =>
    (
      await sql<{
        table: string;
      }>`select distinct confrelid::regclass::text as "table" from pg_constraint where contype = 'f' and conrelid = to_regclass(${table})`.execute(
        db,
      )
    ).rows.map((r) => r.table),
};
