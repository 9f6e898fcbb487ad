import type { Compilable, CompiledQuery, DialectAdapter, Kysely } from 'kysely';
import { randomAlphanumeric } from '../ids.js';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

/** A compiled query whose parameters are either an argument of the call (by position) or a value of the query itself. */
interface Template {
  compiled: CompiledQuery;
  parameters: ({ argument: number } | { value: unknown })[];
}

/**
 * A query that Kysely builds and compiles once per database (and its transactions) and that then runs with each
 * call's arguments. Building and compiling a query costs about as much as SQLite takes to
 * answer a lookup by key, so the statements every read request runs (its token, its
 * organization's version, the set it shows) are compiled once. `build` receives a placeholder
 * for each argument (a string, whatever the argument's type) and must use it only as a whole
 * value (compared with, stored, a LIMIT), never inside another value or in a computation:
 * compiling refuses a query that does otherwise.
 */
export function compiledOnce<Args extends (string | number | null)[], Row>(build: (db: Db, ...args: Args) => Compilable<Row>): (db: Db, ...args: Args) => Promise<Row[]> {
  // Kept per dialect adapter, which a database handle shares with its transactions and its
  // handles with other plugins: all of them compile a query to the same statement.
  const templates = new WeakMap<DialectAdapter, Template>();
  return async (db, ...args) => {
    const adapter = db.getExecutor().adapter;
    let template = templates.get(adapter);
    if (!template) {
      template = compile(db, build, args.length);
      templates.set(adapter, template);
    }
    const parameters = template.parameters.map((p) => ('argument' in p ? args[p.argument] : p.value));
    const result = await db.executeQuery<Row>({ ...template.compiled, parameters });
    return result.rows;
  };
}

function compile<Args extends (string | number | null)[]>(db: Db, build: (db: Db, ...args: Args) => Compilable<unknown>, arity: number): Template {
  const marker = `compiled-once-${randomAlphanumeric(16)}-`;
  const placeholders = Array.from({ length: arity }, (_, i) => `${marker}${i}`);
  const compiled = build(db, ...(placeholders as Args)).compile();
  const parameters = compiled.parameters.map((value) => {
    const argument = placeholders.indexOf(value as string);
    if (argument >= 0) return { argument };
    if (typeof value === 'string' && value.includes(marker)) throw new Error(`compiledOnce: an argument is used inside a value (${compiled.sql})`);
    return { value };
  });
  const unused = placeholders.findIndex((_, i) => !parameters.some((p) => 'argument' in p && p.argument === i));
  if (unused >= 0) throw new Error(`compiledOnce: argument ${unused} is not a parameter of ${compiled.sql}`);
  return { compiled, parameters };
}
