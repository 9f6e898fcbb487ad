import type { Compilable, CompiledQuery, DialectAdapter } from 'kysely';
import { randomAlphanumeric } from '../common/ids.js';
import type { Db } from './transaction.js';

type Value = string | number | boolean | null;
/** An argument: a value, or a list of values (an `in` list, the rows of an insert) whose every member becomes a parameter. */
type Argument = Value | readonly Value[];

/** An argument of the call (a member of it, for a list). */
type FromArgument = { argument: number; member?: number };
/** Where a parameter of a compiled query comes from: an argument, or the query itself. */
type Source = FromArgument | { value: unknown };

interface Template {
  compiled: CompiledQuery;
  parameters: Source[];
}

/** Statements kept per query for lists of different lengths; lists of more lengths are compiled for each call. */
const MAX_TEMPLATES = 64;

/**
 * A query that Kysely builds and compiles once per database (and its transactions) and that then runs with each
 * call's arguments. Building and compiling a query costs about as much as SQLite takes to
 * answer a lookup by key, so the statements every read request runs (its token, its
 * organization's version, the set it shows) and the writes of a variable are compiled once.
 * `build` receives a placeholder for each argument (a string, whatever the argument's type;
 * for a list, a list of as many placeholders) and must use each only as a whole value
 * (compared with, stored, a LIMIT), never inside another value or in a computation:
 * compiling refuses a query that does otherwise. A query taking lists is compiled once for
 * each combination of their lengths.
 */
export function compiledOnce<Args extends Argument[], Row>(
  build: (db: Db, ...args: Args) => Compilable<Row>,
): (db: Db, ...args: Args) => Promise<Row[]> {
  const bind = boundOnce(build);
  return async (db, ...args) => (await db.executeQuery<Row>(bind(db, ...args))).rows;
}

/** `compiledOnce`'s statement with a call's arguments, for the caller to send when it will (see `appendAtCommit`). */
export function boundOnce<Args extends Argument[], Row>(
  build: (db: Db, ...args: Args) => Compilable<Row>,
): (db: Db, ...args: Args) => CompiledQuery<Row> {
  // Kept per dialect adapter, which a database handle shares with its transactions and its
  // handles with other plugins: all of them compile a query to the same statement.
  const templates = new WeakMap<DialectAdapter, Map<string, Template>>();
  return (db, ...args) => {
    const adapter = db.getExecutor().adapter;
    let byLengths = templates.get(adapter);
    if (!byLengths) templates.set(adapter, (byLengths = new Map<string, Template>()));
    const lengths = args.map((arg) => (Array.isArray(arg) ? arg.length : '')).join(',');
    let template = byLengths.get(lengths);
    if (!template) {
      template = compile(db, build, args);
      if (byLengths.size < MAX_TEMPLATES) byLengths.set(lengths, template);
    }
    const parameters = template.parameters.map((source) => {
      if ('value' in source) return source.value;
      const arg = args[source.argument];
      return source.member === undefined ? arg : (arg as readonly Value[])[source.member];
    });
    return { ...template.compiled, parameters };
  };
}

function compile<Args extends Argument[]>(db: Db, build: (db: Db, ...args: Args) => Compilable, args: Args): Template {
  const marker = `compiled-once-${randomAlphanumeric(16)}-`;
  const sources = new Map<string, FromArgument>();
  const placeholders = args.map((arg, i) => {
    if (!Array.isArray(arg)) {
      sources.set(`${marker}${i}`, { argument: i });
      return `${marker}${i}`;
    }
    return arg.map((_, j) => {
      sources.set(`${marker}${i}.${j}`, { argument: i, member: j });
      return `${marker}${i}.${j}`;
    });
  });
  const compiled = build(db, ...(placeholders as unknown as Args)).compile();
  const used = new Set<string>();
  const parameters = compiled.parameters.map((value): Source => {
    const source = typeof value === 'string' ? sources.get(value) : undefined;
    if (source) {
      used.add(value as string);
      return source;
    }
    if (typeof value === 'string' && value.includes(marker))
      throw new Error(`compiledOnce: an argument is used inside a value (${compiled.sql})`);
    return { value };
  });
  for (const [placeholder, source] of sources) {
    if (!used.has(placeholder))
      throw new Error(`compiledOnce: argument ${source.argument} is not a parameter of ${compiled.sql}`);
  }
  return { compiled, parameters };
}
