import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { sqliteFile } from '../db/connect.js';
import { takeBackup } from '../backup/take.js';
import { keyName } from '../backup/sealed.js';
import { runBackupVerify } from './backup-verify.js';
import { finish, readArgs, UsageError } from './store-command.js';
import { openReachableStore } from './store-connection.js';
import { row, storeOptions } from './usage.js';

export const HELP = [
  'usage: varsetd backup --to FILE [--force] [options]',
  '       varsetd backup verify FILE [options]',
  '',
  'Writes every table of the store, read in one consistent snapshot while varsetd keeps serving,',
  'to FILE: gzip-compressed, created with mode 0600, written as FILE.partial and renamed once',
  'complete, with the schema version and the ids of the keys its sealed values need.',
  '',
  'backup verify FILE reads the whole backup, checking its row counts and checksum, and opens',
  'every sealed value in it with the keyring (VARSETD_ENCRYPTION_KEY, or the key file in the data',
  'folder). It reports, per key id, how many values it opened, and names the keys the keyring',
  'lacks; it exits 0 only when the file is intact and the keyring holds every key it needs.',
  '',
  'options:',
  row('--to FILE', 'where to write the backup'),
  row('--force', 'replace FILE if it exists (and a FILE.partial a failed backup left)'),
  ...storeOptions(),
  '',
  'Exit code 0 on success, 2 for input varsetd refuses, 1 otherwise (one line on stderr).',
].join('\n');

/** `varsetd backup`, or with `verify`, `varsetd backup verify`. */
export async function run(args: string[]): Promise<number> {
  if (args[0] === 'verify') return runBackupVerify(args.slice(1));
  return finish('backup', async () => {
    const { options, flags, positionals, settings } = readArgs(args, { to: 'string', force: 'boolean' });
    const file = options.to;
    if (file === undefined || positionals.length)
      throw new UsageError('backup takes --to FILE (or verify FILE), and no other argument');
    const config = loadConfig(process.env, settings);
    if (!config.databaseUrl && !fs.existsSync(sqliteFile(config.dataDir)))
      throw new Error(`there is no SQLite store in ${config.dataDir} (VARSETD_DATA_DIR)`);
    const store = await openReachableStore(config);
    try {
      const { header, trailer } = await takeBackup(store, path.resolve(file), flags.has('force'));
      const rows = Object.values(trailer.rows).reduce((a, b) => a + b, 0);
      const keys = trailer.keys.map((k) => `${keyName(k.id)} (${k.values})`).join(', ') || 'none';
      console.log(
        `varsetd: backed up ${rows} rows of ${header.tables.length} tables (schema ${header.migrations.at(-1)!}) to ${file}; sealed values need: ${keys}`,
      );
    } finally {
      await store.close();
    }
  });
}
