import fs from 'node:fs';
import { openStore, sqliteFile, type StoreOptions } from '../db/connect.js';
import { loadStore, processesUsingSqlite, storeContents } from '../db/load.js';
import { migrations } from '../db/migrations/index.js';
import { readBackup } from './file.js';
import type { Keyring } from '../secrets/keyring.js';
import { keyName } from './sealed.js';
import { verifyBackup, type Verification } from './verify.js';

/** A restore that was refused before anything changed. */
export class RestoreRefusedError extends Error {}

export interface RestoreResult {
  verification: Verification;
  /** The migrations applied after loading a backup of an older schema. */
  migrated: string[];
}

/**
 * Replaces the store's contents with a backup's, all or nothing. Checks first, changing
 * nothing when one fails: the whole file reads as written, the keyring holds every key the
 * backup's values and store use, the backup is of a schema this varsetd knows, and the store is empty (or
 * `force`). A backup of either store kind restores into either: the rows are the same values.
 */
export async function restoreBackup(
  options: StoreOptions,
  file: string,
  { force, keyring }: { force: boolean; keyring: Keyring | undefined },
): Promise<RestoreResult> {
  const verification = await verifyBackup(file, keyring);
  const { header } = verification;
  if (verification.missing.length) {
    const what = keyring
      ? 'the keyring lacks keys the backup needs'
      : 'no encryption key is configured (VARSETD_ENCRYPTION_KEY, or the key file in the data folder)';
    throw new RestoreRefusedError(`${what}; missing: ${verification.missing.map(keyName).join(', ')}`);
  }
  const known = Object.keys(migrations);
  const unknown = header.migrations.filter((name) => !known.includes(name));
  if (unknown.length || header.migrations.some((name, i) => known[i] !== name)) {
    throw new RestoreRefusedError(
      `the backup's schema is newer than this varsetd knows (${unknown[0] ?? header.migrations.at(-1)}): restore it with the varsetd that took it, or a later one`,
    );
  }
  await checkStore(options, header.migrations, force);
  const migrated = await loadStore(options, {
    migration: header.migrations.at(-1)!,
    tables: header.tables,
    async *batches() {
      for await (const entry of readBackup(file))
        if ('rows' in entry) yield { table: entry.table.name, rows: entry.rows };
    },
  });
  return { verification, migrated };
}

async function checkStore(options: StoreOptions, backupMigrations: string[], force: boolean): Promise<void> {
  if (!options.databaseUrl) {
    const users = processesUsingSqlite(options.dataDir);
    if (users.length)
      throw new RestoreRefusedError(
        `the SQLite store is in use by process ${users.join(', ')}: stop every varsetd serving it first`,
      );
    if (!fs.existsSync(sqliteFile(options.dataDir))) return;
  }
  const store = await openStore({ ...options, dbPoolSize: 1 });
  try {
    const contents = await storeContents(store);
    if (!contents.empty && !force)
      throw new RestoreRefusedError(
        'the store holds data: restore into an empty one, or give --force to replace what it holds',
      );
    const newer = contents.migrations.filter((name) => !backupMigrations.includes(name));
    if (options.databaseUrl && newer.length) {
      throw new RestoreRefusedError(
        `the database's schema (${contents.migrations.at(-1)}) is newer than the backup's: restore into a new, empty database`,
      );
    }
  } finally {
    await store.close();
  }
}
