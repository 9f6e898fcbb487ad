import path from 'node:path';
import { loadConfig } from '../config.js';
import { DamagedBackupError } from '../backup/file.js';
import { restoreBackup, RestoreRefusedError } from '../backup/restore-backup.js';
import { configuredKeyring } from '../backup/sealed.js';
import { finish, readArgs, UsageError } from './store-command.js';
import { row, storeOptions } from './usage.js';

export const HELP = [
  'usage: varsetd restore --from FILE [--force] [options]',
  '',
  'Replaces the contents of the store with a backup (of either store kind), all or nothing:',
  "PostgreSQL in one transaction, SQLite by building a new file beside the store's and renaming",
  'it over it. A backup of an older schema is migrated forward. Stop every varsetd serving the',
  'store first (a SQLite store in use is refused). Nothing changes unless the backup is intact,',
  'of a schema this varsetd knows, the keyring (VARSETD_ENCRYPTION_KEY, or the key file in the',
  'data folder) holds every key it needs, and the store is empty or --force is given. A backup',
  'taken before a key rotation restores while the keyring keeps the older key (retired or not).',
  '',
  'options:',
  row('--from FILE', 'the backup to restore'),
  row('--force', 'replace what the store holds'),
  ...storeOptions(),
  '',
  'Exit code 0 on success, 2 for input varsetd refuses, 1 otherwise (one line on stderr).',
].join('\n');

/** `varsetd restore`. */
export async function run(args: string[]): Promise<number> {
  return finish('restore', async () => {
    const read = readArgs(args, { from: 'string', force: 'boolean' });
    const file = read.options.from;
    if (file === undefined || read.positionals.length)
      throw new UsageError('restore takes --from FILE, and no other argument');
    const config = loadConfig(process.env, read.settings);
    const keyring = configuredKeyring(config);
    try {
      const result = await restoreBackup(config, path.resolve(file), { force: read.flags.has('force'), keyring });
      const { header } = result.verification;
      console.log(
        `varsetd: restored ${result.verification.rows} rows from ${file} (taken ${header.takenAt} by varsetd ${header.varsetdVersion})`,
      );
      if (result.migrated.length) console.log(`varsetd: applied migrations: ${result.migrated.join(', ')}`);
    } catch (error) {
      if (error instanceof RestoreRefusedError) throw new Error(`refused, nothing changed: ${error.message}`);
      if (error instanceof DamagedBackupError)
        throw new Error(`refused, nothing changed: ${file} is not a good backup: ${error.message}`);
      throw new Error(`failed, nothing changed: ${(error as Error).message}`);
    }
  });
}
