/**
 * The path a released migration (db/migrations/0003_access.ts) imports its random ids from.
 * Released migrations never change (test/migration-manifest.test.ts), so this path stays while
 * ids live in common/ids.ts.
 */
export { randomAlphanumeric } from './common/ids.js';
