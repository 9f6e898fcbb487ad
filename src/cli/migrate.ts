import { loadConfig } from '../config.js';
import { migrate } from '../db/connect.js';
import { openReachableStore } from './store-connection.js';
import { storeOptions } from './usage.js';

export const HELP = [
  'usage: varsetd migrate [options]',
  '',
  'Runs the migrations this version of varsetd has and the store lacks, then exits. Processes',
  'starting at the same time on one store take turns.',
  '',
  ...storeOptions(),
].join('\n');

/** `varsetd migrate`. */
export async function run(args: string[]): Promise<number> {
  const store = await openReachableStore(loadConfig(process.env, args));
  try {
    const applied = await store.exclusively(() => migrate(store));
    console.log(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database is up to date');
  } finally {
    await store.close();
  }
  return 0;
}
