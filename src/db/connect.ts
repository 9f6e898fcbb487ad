import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  type Driver,
  type DatabaseConnection,
  type Dialect as KyselyDialect,
  type Transaction,
  sql,
  Migrator,
} from 'kysely';
import type { Database } from './schema.js';
import { migrations } from './migrations/index.js';
import { assertWritable, KNOWN_SCHEMA, newerMigrations, schemaStatus } from './schema-guard.js';
import { migrateGivingWay } from './migration-locks.js';
import { sqliteModule } from './sqlite-module.js';
import { makePrivateFolder } from '../common/private-folder.js';
import { startCheckpointer } from './checkpointer.js';
import { bindingBooleansAsIntegers, BooleanColumnsPlugin } from './boolean-columns.js';
import { announcingStatementFailures } from './statement-errors.js';
import { member, withConnectionsWrapped } from './wrapped-connections.js';

export type Dialect = 'sqlite' | 'postgres';

/** The database handle and the few operations whose SQL differs between the two stores. */
export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  /**
   * Serializes writers on one organization until the transaction ends. PostgreSQL locks the
   * organization row; SQLite write transactions already start with BEGIN IMMEDIATE, so SQLite
   * never needs the organization's id. A write that knows it only through a row it is about to
   * read passes a function that reads it: only PostgreSQL calls it, and a row that is not
   * there takes no lock (the write's own read then answers 404).
   *
   * Every transaction that changes or deletes sets, their variables and assignments, projects
   * or workspaces takes it before anything else (`withOrganizationLocked`): their triggers
   * raise the organization's version (migration 0007), and taking the locks in one order
   * keeps PostgreSQL from deadlocking (a rename or delete of a workspace against an
   * assignment to it).
   *
   * PostgreSQL's locking statement also reads the migrations applied after the newest this
   * build knows (`newerMigrations`), which every write checks first, and the credentials version
   * (which confirms a kept subject, src/auth/context.ts), and returns them: one round trip for
   * all. Undefined where the lock reads nothing (SQLite): the write reads them itself.
   */
  lockOrganization(trx: Transaction<Database>, organization: OrganizationOfWrite): Promise<ReadWithLock | undefined>;
  /**
   * Runs `work` while no other process runs start-up work on this store: migrations, the admin
   * token, the encryption key's check value. Any number of processes may start at once.
   * PostgreSQL: a session advisory lock; SQLite: an exclusive transaction on a lock file beside
   * the database (the database itself stays free for `work`).
   */
  exclusively<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Resolves when the store can serve reads and writes right now, without waiting for a lock;
   * throws the store's error otherwise (used to notice that an outage is over).
   */
  probe(): Promise<void>;
  close(): Promise<void>;
  /** PostgreSQL: the clients of the connection pool right now. SQLite has no pool. */
  poolUse?(): PoolUse;
}

export interface PoolUse {
  /** Clients connected to the server, busy or idle. */
  total: number;
  idle: number;
  /** Queries waiting for a client because every one is busy and the pool is full. */
  waiting: number;
  /** The most clients the pool opens. */
  max: number;
}

/**
 * The organization a write locks: its id, or the set whose organization it is (read in the
 * statement that takes the lock; a set that is not there locks nothing).
 */
export type OrganizationOfWrite = string | { varsetId: string };

/** What PostgreSQL's locking statement reads beside the lock (`Store.lockOrganization`). */
export interface ReadWithLock {
  newerMigrations: string[];
  credentialsVersion: number;
}

export interface StoreOptions {
  databaseUrl?: string | undefined;
  /** Folder of the SQLite file; ignored for PostgreSQL. */
  dataDir: string;
  /** SQLite: checkpoint the write-ahead log from a thread of its own (`checkpointer.ts`), as a server does. */
  checkpointInBackground?: boolean | undefined;
  /** PostgreSQL: a statement running longer is cancelled (57014); 0 for no limit. DEFAULT_STATEMENT_TIMEOUT_S unless set. */
  dbStatementTimeoutMs?: number | undefined;
  /** PostgreSQL: connections this process keeps at most. DEFAULT_POOL_SIZE unless set. */
  dbPoolSize?: number | undefined;
  /** PostgreSQL: how long a request waits to connect, or for a free pooled connection. DEFAULT_CONNECT_TIMEOUT_S unless set. */
  dbConnectTimeoutMs?: number | undefined;
  /** Told the SQL of every statement before it runs (the SQL snapshots record them, scripts/sql-snapshots.ts). */
  onStatement?: ((sql: string) => void) | undefined;
}

export const DEFAULT_STATEMENT_TIMEOUT_S = 30;
export const DEFAULT_POOL_SIZE = 10;
export const DEFAULT_CONNECT_TIMEOUT_S = 5;

export async function openStore(options: StoreOptions): Promise<Store> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, {
        statementTimeoutMs: options.dbStatementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_S * 1000,
        poolSize: options.dbPoolSize ?? DEFAULT_POOL_SIZE,
        connectTimeoutMs: options.dbConnectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_S * 1000,
        onStatement: options.onStatement,
      })
    : openSqlite(sqliteFile(options.dataDir), options.checkpointInBackground === true, options.onStatement);
}

/** The SQLite database file in a data folder. */
export function sqliteFile(dataDir: string): string {
  return path.join(dataDir, 'varsetd.sqlite');
}

/** One trivial statement: rejects when the database cannot be reached (PostgreSQL connects lazily). */
export async function ping(store: Store): Promise<void> {
  await sql`select 1`.execute(store.db);
}

/**
 * Applies the migrations the store lacks. Refuses (`NewerSchemaError`, one line naming both
 * schemas) a store a newer varsetd migrated past what this build may write to; a store with only
 * newer expand migrations is left as it is, as this build's are all there.
 */
export async function migrate(store: Store): Promise<string[]> {
  // A migration may run longer than a request's statement may: on a connection without the limit.
  return store.db.connection().execute(async (db) => {
    if (store.dialect === 'postgres') await sql`set statement_timeout = 0`.execute(db);
    try {
      const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
      if (tables.some((table) => table.name === 'kysely_migration')) {
        const newer = await newerMigrations(db);
        assertWritable(newer);
        if (newer.length > 0) return [];
      }
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
      const { error, results } =
        store.dialect === 'postgres'
          ? await migrateGivingWay(db as Kysely<unknown>, () => migrator.migrateToLatest())
          : await migrator.migrateToLatest();
      if (error) throw error instanceof Error ? error : new Error(String(error));
      return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    } finally {
      if (store.dialect === 'postgres') await sql`reset statement_timeout`.execute(db);
    }
  });
}

/**
 * What the store's schema is to this build: `current`, `newer` (a newer varsetd's migration
 * this build must not write under) or `older` (migrations of this build missing): one small read.
 */
export async function schemaCheck(store: Store): Promise<'current' | 'newer' | 'older'> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(store.db);
  return schemaStatus(rows.map((row) => row.name));
}

/** The database files are for varsetd's user alone, like its folder (src/common/private-folder.ts) and the key and token files in it. */
const PRIVATE_FILE = 0o600;

/**
 * How long a SQLite statement waits for another process's write lock before failing with
 * SQLITE_BUSY (answered 503). better-sqlite3 waits synchronously: the process answers nothing else meanwhile.
 */
const SQLITE_BUSY_TIMEOUT_MS = 5000;

/** How long the outage probe waits for SQLite's write lock (see `probe`). */
const PROBE_BUSY_TIMEOUT_MS = 250;

function openSqlite(file: string, checkpointInBackground: boolean, onStatement?: (sql: string) => void): Store {
  makePrivateFolder(path.dirname(file));
  createPrivately(file);
  const raw = new (sqliteModule().Database)(file);
  raw.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  switchToWal(raw);
  raw.pragma('synchronous = NORMAL');
  raw.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({
    dialect: bindingBooleansAsIntegers(
      announcingStatementFailures(recording(new ImmediateSqliteDialect(withStatementCache(raw)), onStatement)),
    ),
    plugins: [new BooleanColumnsPlugin()],
  });
  // SQLite creates the WAL and shared-memory files with the database file's mode.
  for (const suffix of ['-wal', '-shm']) if (fs.existsSync(file + suffix)) fs.chmodSync(file + suffix, PRIVATE_FILE);
  const checkpointer = checkpointInBackground ? startCheckpointer(raw, file) : undefined;
  return {
    db,
    dialect: 'sqlite',
    lockOrganization: async () => undefined,
    exclusively: (work) => withLockFile(`${file}-startup-lock`, work),
    // Takes the write lock and gives it back at once, waiting for it at most PROBE_BUSY_TIMEOUT_MS:
    // long enough for another process's write to end, short enough not to hold this one up.
    probe: () =>
      db.connection().execute(async (connection) => {
        await sql.raw(`pragma busy_timeout = ${PROBE_BUSY_TIMEOUT_MS}`).execute(connection);
        try {
          await sql`begin immediate`.execute(connection);
          await sql`rollback`.execute(connection);
        } finally {
          await sql.raw(`pragma busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`).execute(connection);
        }
      }),
    close: async () => {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

/**
 * Puts a database in WAL mode, which it keeps. Several processes opening a fresh file at once
 * can get SQLITE_BUSY without SQLite's busy wait (it gives up at once where waiting could
 * deadlock), so the switch is tried again until the busy timeout has passed.
 */
function switchToWal(raw: BetterSqlite3.Database): void {
  const deadline = Date.now() + SQLITE_BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      raw.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10 + Math.random() * 40);
    }
  }
}

/** Creates `file` readable and writable by its owner only, or narrows an existing one to that. */
function createPrivately(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE));
  fs.chmodSync(file, PRIVATE_FILE);
}

/** Holds an exclusive lock on `lockFile` (a SQLite database of its own) while `work` runs; waits up to two minutes for it. */
async function withLockFile<T>(lockFile: string, work: () => Promise<T>): Promise<T> {
  createPrivately(lockFile);
  const lock = new (sqliteModule().Database)(lockFile);
  try {
    lock.pragma('busy_timeout = 120000');
    lock.exec('begin exclusive');
    try {
      return await work();
    } finally {
      lock.exec('commit');
    }
  } finally {
    lock.close();
  }
}

/**
 * SQLite transactions that will write must take the write lock at BEGIN: a deferred
 * transaction that reads and then writes can fail with SQLITE_BUSY when another process
 * wrote in between, and the conflict check must see the data it is about to guard.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly database: BetterSqlite3.Database) {
    super({ database });
  }
  override createDriver(): Driver {
    return new (class extends SqliteDriver {
      override async beginTransaction(connection: DatabaseConnection): Promise<void> {
        await connection.executeQuery(CompiledQuery.raw('begin immediate'));
      }
    })({ database: this.database });
  }
}

/**
 * SQLite's constant propagation reads a parameter compared for equality in a join or beside a
 * correlated subquery (`"varsets"."id" = ?`) as part of the plan, so the statement is prepared
 * again every time the parameter is bound: a set read with its relationships took 30 µs instead
 * of 5. `= +?` compares the same value (unary plus changes no value, and a parameter has no
 * affinity to lose) and still uses the column's index, but is not propagated.
 */
export function withoutParameterPropagation(source: string): string {
  return source.replaceAll(' = ?', ' = +?');
}

/** `dialect` telling `onStatement` the SQL of every statement it runs, BEGIN and COMMIT included; `dialect` itself without one. */
function recording(dialect: KyselyDialect, onStatement: ((sql: string) => void) | undefined): KyselyDialect {
  if (!onStatement) return dialect;
  return withConnectionsWrapped(dialect, (connection) => ({
    executeQuery: (query) => {
      onStatement(query.sql);
      return connection.executeQuery(query);
    },
  }));
}

/** Kysely prepares every statement anew; reusing prepared statements saves most of SQLite's per-query cost. */
function withStatementCache(raw: BetterSqlite3.Database): BetterSqlite3.Database {
  const cache = new Map<string, BetterSqlite3.Statement>();
  const prepare = (source: string) => {
    let statement = cache.get(source);
    if (!statement) {
      if (cache.size >= 1000) cache.clear();
      statement = raw.prepare(withoutParameterPropagation(source));
      cache.set(source, statement);
    }
    return statement;
  };
  return new Proxy(raw, {
    get(target, property) {
      if (property === 'prepare') return prepare;
      return member(target, property);
    },
  });
}

/** The advisory lock key of start-up work: "varsetd" in ASCII, an arbitrary number no other lock of varsetd uses. */
const STARTUP_LOCK = 0x76617273657464;

interface PostgresLimits {
  statementTimeoutMs: number;
  poolSize: number;
  connectTimeoutMs: number;
  onStatement?: ((sql: string) => void) | undefined;
}

function openPostgres(connectionString: string, limits: PostgresLimits): Store {
  // COUNT(*) is a bigint, which pg returns as a string; every count here fits a JS number.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
  const pool = new pg.Pool({
    connectionString,
    max: limits.poolSize,
    // pg waits forever for a connection by default: with the database down, every request would hang.
    connectionTimeoutMillis: limits.connectTimeoutMs,
    // Sent when each connection starts; `false` leaves the server's own setting.
    statement_timeout: limits.statementTimeoutMs > 0 ? limits.statementTimeoutMs : false,
  });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => {});
  const db = new Kysely<Database>({
    dialect: bindingBooleansAsIntegers(
      announcingStatementFailures(
        recording(new PostgresDialect({ pool: withNamedStatements(pool) }), limits.onStatement),
      ),
    ),
    plugins: [new BooleanColumnsPlugin()],
  });
  return {
    db,
    dialect: 'postgres',
    lockOrganization: async (trx, organization) => {
      const organizationId =
        typeof organization === 'string'
          ? sql`${organization}`
          : sql`(select organization_id from varsets where id = ${organization.varsetId})`;
      // The lock is taken in a CTE that the statement reads, beside the migrations and the
      // credentials version: one row, whether or not the organization is there.
      const { rows } = await sql<{
        newer: string[];
        credentials_version: string | number;
      }>`with locked as (select id from organizations where id = ${organizationId} for update) select array(select name from kysely_migration where name > ${KNOWN_SCHEMA} order by name) as newer, (select version from credentials_version) as credentials_version, (select count(*) from locked) as locked`.execute(
        trx,
      );
      const [row] = rows;
      return { newerMigrations: row!.newer, credentialsVersion: Number(row!.credentials_version) };
    },
    exclusively: (work) =>
      db.connection().execute(async (connection) => {
        // Another process's start-up may take longer than a statement may.
        await sql`set statement_timeout = 0`.execute(connection);
        await sql`select pg_advisory_lock(${STARTUP_LOCK})`.execute(connection);
        try {
          return await work();
        } finally {
          await sql`select pg_advisory_unlock(${STARTUP_LOCK})`.execute(connection);
          await sql`reset statement_timeout`.execute(connection);
        }
      }),
    probe: async () => {
      const { rows } = await sql<{
        readOnly: string;
      }>`select current_setting('transaction_read_only') as "readOnly"`.execute(db);
      if (rows[0]?.readOnly === 'on')
        throw Object.assign(new Error('the database accepts no writes'), { code: READ_ONLY_TRANSACTION });
    },
    close: () => db.destroy(),
    poolUse: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: pool.options.max,
    }),
  };
}

/**
 * Runs statements with parameters as named (prepared) statements: PostgreSQL then parses and
 * plans each once per connection instead of on every request, which costs about as much as
 * running a list query. The name is a digest of the text, so a name never stands for two
 * statements. Each connection prepares at most PREPARED_PER_CONNECTION of them (the frequent
 * ones come first); others run unnamed, which bounds the memory a connection's server process
 * spends on them.
 */
const PREPARED_PER_CONNECTION = 250;

function withNamedStatements(pool: pg.Pool): pg.Pool {
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (name === undefined) {
      if (names.size >= 10_000) names.clear();
      name = `v_${createHash('sha1').update(text).digest('hex')}`;
      names.set(text, name);
    }
    return name;
  };
  const prepared = new WeakMap<pg.PoolClient, Set<string>>();
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  (pool as { connect: () => Promise<pg.PoolClient> }).connect = async () => {
    const client = await connect();
    if (!prepared.has(client)) {
      // A connection lost while a request holds it (between two statements of a transaction)
      // is an 'error' event nobody else listens to, which would end the process. The request's
      // next statement fails instead, and the pool discards the connection when it is released.
      client.on('error', () => {});
      const preparedNames = new Set<string>();
      prepared.set(client, preparedNames);
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as { query: unknown }).query = (text: unknown, values?: unknown) => {
        if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0) return query(text, values);
        const name = nameOf(text);
        if (!preparedNames.has(name)) {
          if (preparedNames.size >= PREPARED_PER_CONNECTION) return query(text, values);
          preparedNames.add(name);
        }
        return query({ name, text, values });
      };
    }
    return client;
  };
  return pool;
}

/** True when the error is a violation of a foreign key (a referenced row is gone), on either store. */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** True when the error is a violation of a unique index or primary key, on either store. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

const READ_ONLY_TRANSACTION = '25006';

/**
 * PostgreSQL's SQLSTATEs of a database that cannot serve now: connection exceptions (class 08),
 * insufficient resources (class 53: too many connections, disk full, out of memory), a
 * statement cancelled by statement_timeout (57014), a server shutting down or starting
 * (57P01–57P03), a read-only (standby or read-only) database, and the server's I/O errors.
 */
const POSTGRES_UNAVAILABLE = /^(08...|53...|57014|57P0[1-3]|25006|58030)$/;

/** The errors of the network and of pg itself when no connection can be had or the one in use is lost. */
const CONNECTION_FAILURES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const PG_CONNECTION_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

/**
 * SQLite's (extended) result codes of a database that cannot serve now: locked by another
 * process past busy_timeout, read-only, an I/O error, a full disk, a file that cannot be opened.
 */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|READONLY|IOERR|FULL|CANTOPEN|PROTOCOL)(_|$)/;

/**
 * True when the error says the store cannot serve now (unreachable, shutting down, read-only,
 * timed out, out of space) rather than that the request or varsetd is wrong: retrying later
 * may succeed. Either store.
 */
export function isStoreUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // Node reports a refused connection to every address of a host name as one AggregateError.
  if (error instanceof AggregateError && error.errors.some(isStoreUnavailable)) return true;
  const code = (error as { code?: unknown }).code;
  if (
    typeof code === 'string' &&
    (POSTGRES_UNAVAILABLE.test(code) || SQLITE_UNAVAILABLE.test(code) || CONNECTION_FAILURES.has(code))
  )
    return true;
  return PG_CONNECTION_MESSAGES.some((message) => error.message.startsWith(message));
}
