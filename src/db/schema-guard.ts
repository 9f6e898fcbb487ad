import { sql, type Kysely } from 'kysely';
import { EXPAND_SUFFIX, migrations } from './migrations/index.js';

const KNOWN = Object.keys(migrations);
/** The newest migration this build knows: the schema it writes for. */
export const KNOWN_SCHEMA = KNOWN.at(-1)!;

/**
 * A store whose schema a newer varsetd moved past what this build knows, by a migration that
 * servers not knowing it must not write under (one not marked `.expand`). Answered 503 with
 * `Retry-After`: the write was not made, and a server that knows the schema can make it.
 */
export class NewerSchemaError extends Error {
  constructor(readonly schema: string) {
    super(
      `the store's schema is ${schema}, newer than this varsetd knows (${KNOWN_SCHEMA}): start a varsetd that knows it (see docs/deployment.md#upgrading)`,
    );
  }
}

/**
 * What a store with these migrations applied is to this build: `newer` (a newer varsetd's
 * migration, applied and unknown here, that this build must not write under), `older` (one of
 * this build's missing) or `current`.
 */
export function schemaStatus(applied: readonly string[]): 'current' | 'newer' | 'older' {
  const known = new Set(KNOWN);
  if (blockingMigration(applied.filter((name) => !known.has(name))) !== undefined) return 'newer';
  const appliedSet = new Set(applied);
  return KNOWN.every((name) => appliedSet.has(name)) ? 'current' : 'older';
}

/** The first of `newer` this build must not write under, if any: `.expand` migrations leave older servers serving. */
function blockingMigration(newer: readonly string[]): string | undefined {
  return newer.find((name) => !name.endsWith(EXPAND_SUFFIX));
}

/** Throws `NewerSchemaError` unless this build may write to a store with these migrations applied. */
export function assertWritable(newer: readonly string[]): void {
  if (blockingMigration(newer) !== undefined) throw new NewerSchemaError(newer.at(-1)!);
}

/**
 * The migrations applied after the newest one this build knows. Names sort in the order they
 * run, so this reads the migrations table's primary key from that name on: normally no row.
 */
export async function newerMigrations(db: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{
    name: string;
  }>`select name from kysely_migration where name > ${KNOWN_SCHEMA} order by name`.execute(db);
  return rows.map((row) => row.name);
}
