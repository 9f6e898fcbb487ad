import type { Config } from '../config.js';
import { openStore, ping, type Store } from '../db/connect.js';

/**
 * The store a command (`serve`, `migrate`) works on, reached once: a store that cannot be opened
 * or reached ends the command with one line saying which store and why (a service manager may
 * start it again). `checkpointInBackground` is for a server's SQLite store.
 */
export async function openReachableStore(config: Config, { checkpointInBackground = false } = {}): Promise<Store> {
  let store: Store | undefined;
  try {
    store = await openStore({ ...config, checkpointInBackground });
    await ping(store);
    return store;
  } catch (error) {
    await store?.close().catch(() => {});
    throw new Error(`cannot open ${describeStore(config)}: ${describeError(error)}`);
  }
}

/** Which store the configuration names, and the setting that named it. */
function describeStore(config: Pick<Config, 'databaseUrl' | 'dataDir'>): string {
  if (!config.databaseUrl) return `the SQLite store in ${config.dataDir} (VARSETD_DATA_DIR)`;
  const { host, database } = postgresLocation(config.databaseUrl);
  return `PostgreSQL at ${host}/${database} (DATABASE_URL)`;
}

/** Host, port and database of a PostgreSQL URL; the user name, password and parameters stay out. */
export function postgresLocation(databaseUrl: string): { host: string; database: string } {
  const url = new URL(databaseUrl);
  const host = url.hostname || url.searchParams.get('host') || 'localhost';
  return {
    host: `${host}:${url.port || '5432'}`,
    database: decodeURIComponent(url.pathname.slice(1)) || '(the user name)',
  };
}

/** An error's message; for one naming several (a host with two addresses refusing both), each of theirs. */
function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0)
    return [...new Set(error.errors.map(describeError))].join('; ');
  return error instanceof Error ? error.message : String(error);
}
