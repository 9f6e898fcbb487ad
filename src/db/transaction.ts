import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import {
  isForeignKeyViolation,
  isUniqueViolation,
  type Dialect,
  type OrganizationOfWrite,
  type ReadWithLock,
  type Store,
} from './connect.js';
import type { Database } from './schema.js';
import { assertWritable, newerMigrations } from './schema-guard.js';

export type { OrganizationOfWrite, ReadWithLock, Store };

/** The database or a transaction: what every store function works on. */
export type Db = Kysely<Database>;
export type Trx = Transaction<Database>;

/**
 * A write that lost a race twice: a concurrent change kept breaking a unique index or a
 * foreign key after the write's own checks had passed. Answered as a conflict: retrying later
 * sees the new state.
 */
export class ConcurrentChangeError extends Error {
  constructor(readonly code: unknown) {
    super('the request conflicts with a concurrent change; try again');
  }
}

/**
 * Runs `work` in one transaction. Every write goes through here (or `withOrganizationLocked`),
 * so a lost race has one answer everywhere: when a concurrent transaction committed a row that
 * breaks a unique index or removed one a foreign key needs after `work` checked, `work` runs
 * once more, and its checks, now seeing that change, answer as they would have (a name taken,
 * the global rule, a 404). Should that happen again, the request fails with a
 * `ConcurrentChangeError`. `work` must therefore do all its checks itself, inside the transaction.
 */
export async function transaction<T>(
  store: Store,
  work: (trx: Trx, locked?: ReadWithLock) => Promise<T>,
  lock?: OrganizationOfWrite,
): Promise<T> {
  const attempt = () =>
    store.db.transaction().execute(async (trx) => {
      // The organization's lock first (`withOrganizationLocked`): on PostgreSQL its statement reads the migrations too.
      const locked = lock === undefined ? undefined : await store.lockOrganization(trx, lock);
      // A process must never write to a schema it does not know (src/db/migrations/index.ts): a
      // write checks, in its own transaction, that no newer varsetd migrated past this build. One
      // read of the migrations table's primary key, finding no row, per write; reads pay nothing,
      // and /readyz checks the same on every probe (on PostgreSQL, a write that locks its organization
      // reads it in the locking statement). In the transaction it is exact: on SQLite the
      // write holds the write lock a migration needs; on PostgreSQL a migration committed after
      // this read waits for this write's locks on the tables it alters, or touches none of them.
      assertWritable(locked?.newerMigrations ?? (await newerMigrations(trx)));
      appended.set(trx, []);
      const result = await work(trx, locked);
      await sendAppended(store.dialect, trx);
      return result;
    });
  try {
    return await attempt();
  } catch (error) {
    if (!isRace(error)) throw error;
  }
  try {
    return await attempt();
  } catch (error) {
    if (isRace(error)) throw new ConcurrentChangeError((error as { code?: unknown }).code);
    throw error;
  }
}

/** Carries a taken-back work's result out of its transaction, which the throw rolls back. */
class TakenBack extends Error {
  constructor(readonly result: unknown) {
    super('the transaction is taken back');
  }
}

/**
 * Runs `work` as `transaction` does (its checks, its answer to a lost race), then takes it back
 * instead of committing, and answers the work's result: a write made to see what it would do
 * (a preview, a dry run), of which nothing stays. What the work held back for commit
 * (`appendAtCommit`) is never sent.
 */
export async function takenBack<T>(
  store: Store,
  work: (trx: Trx, locked?: ReadWithLock) => Promise<T>,
  lock?: OrganizationOfWrite,
): Promise<T> {
  try {
    await transaction(
      store,
      async (trx, locked) => {
        throw new TakenBack(await work(trx, locked));
      },
      lock,
    );
  } catch (error) {
    if (error instanceof TakenBack) return error.result as T;
    throw error;
  }
  throw new Error('takenBack: the transaction ended without being taken back');
}

/**
 * `transaction` (or `takenBack`, with `takeBack`), taking the organization's lock
 * (`Store.lockOrganization`) before anything else: every transaction that changes or deletes
 * sets, their variables and assignments, projects or workspaces serializes on its organization
 * this way.
 */
export function withOrganizationLocked<T>(
  store: Store,
  organization: OrganizationOfWrite,
  work: (trx: Trx, locked?: ReadWithLock) => Promise<T>,
  { takeBack = false }: { takeBack?: boolean } = {},
): Promise<T> {
  return takeBack ? takenBack(store, work, organization) : transaction(store, work, organization);
}

function isRace(error: unknown): boolean {
  return isUniqueViolation(error) || isForeignKeyViolation(error);
}

/** The writes each open transaction of `transaction` holds back for its end (`appendAtCommit`). */
const appended = new WeakMap<Trx, CompiledQuery[]>();

/**
 * Holds `write` back until the transaction's work is done, then sends it with the others
 * before commit: on PostgreSQL all in one statement, so that what every write of a set
 * records (its version, its audit event, the set's new `updated-at`) costs the
 * organization's lock one round trip, not three. It is written exactly when the transaction
 * commits, as if sent at once. For writes whose result nothing reads: the work does not see
 * them, and on PostgreSQL they run on one snapshot, so none may touch a row another one
 * writes. `write` must be a plain INSERT or UPDATE of parameters.
 */
export function appendAtCommit(trx: Trx, write: CompiledQuery): void {
  const queue = appended.get(trx);
  if (!queue) throw new Error('appendAtCommit: not in a transaction of transaction(), or after its work');
  if (!PLAIN_WRITE.test(write.sql)) throw new Error(`appendAtCommit: not a plain insert or update: ${write.sql}`);
  queue.push(write);
}

/** An INSERT or UPDATE of parameters alone: no literal, nothing returned, one statement. */
const PLAIN_WRITE =
  /^(insert into "[a-z_]+" \([^'$;]*\) values \([^';]*\)|update "[a-z_]+" set (?:(?! returning )[^';])*)$/;

/** The most parameters a PostgreSQL statement may have (the protocol counts them in 16 bits). */
const MAX_PARAMETERS = 65_535;

async function sendAppended(dialect: Dialect, trx: Trx): Promise<void> {
  const queue = appended.get(trx)!;
  appended.delete(trx);
  if (dialect === 'sqlite') {
    for (const write of queue) await trx.executeQuery(write);
    return;
  }
  // As few statements as the parameters allow: one, unless a deletion changed thousands of sets.
  let batch: CompiledQuery[] = [];
  let parameters = 0;
  for (const write of queue) {
    if (batch.length && parameters + write.parameters.length > MAX_PARAMETERS) {
      await trx.executeQuery(inOneStatement(batch));
      batch = [];
      parameters = 0;
    }
    batch.push(write);
    parameters += write.parameters.length;
  }
  if (batch.length) await trx.executeQuery(inOneStatement(batch));
}

/**
 * PostgreSQL's writes as one statement: every one but the last a data-modifying WITH (each
 * runs once, to completion, whether read or not), their placeholders numbered on.
 */
function inOneStatement(writes: CompiledQuery[]): CompiledQuery {
  if (writes.length === 1) return writes[0]!;
  const parameters: unknown[] = [];
  const statements = writes.map((write) => {
    const offset = parameters.length;
    parameters.push(...write.parameters);
    return offset ? write.sql.replace(/\$(\d+)/g, (_, n: string) => `$${String(Number(n) + offset)}`) : write.sql;
  });
  const last = statements.pop()!;
  return CompiledQuery.raw(
    `with ${statements.map((statement, i) => `appended_${String(i)} as (${statement})`).join(', ')} ${last}`,
    parameters,
  );
}
