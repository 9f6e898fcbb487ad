import type { Migration } from 'kysely';
import * as core from './0001_core.js';
import * as runs from './0002_runs.js';

/** Every migration, in order. Names sort in the order they run; never rename or edit a released one. */
export const migrations: Record<string, Migration> = {
  '0001_core': core,
  '0002_runs': runs,
};
