import { loadConfig } from '../config.js';
import { DamagedBackupError } from '../backup/file.js';
import { configuredKeyring, keyName } from '../backup/sealed.js';
import { verifyBackup } from '../backup/verify.js';
import { finish, readArgs, UsageError } from './store-command.js';

/** `varsetd backup verify FILE` (its help is backup's). */
export async function runBackupVerify(args: string[]): Promise<number> {
  return finish('backup verify', async () => {
    const read = readArgs(args, {});
    const [file, ...others] = read.positionals;
    if (file === undefined || others.length) throw new UsageError('backup verify takes one FILE');
    const config = loadConfig(process.env, read.settings);
    let result;
    try {
      result = await verifyBackup(file, configuredKeyring(config));
    } catch (error) {
      if (error instanceof DamagedBackupError) throw new Error(`${file} is not a good backup: ${error.message}`);
      throw error;
    }
    const { header } = result;
    console.log(
      `${file}: a backup of a ${header.store} store by varsetd ${header.varsetdVersion}, taken ${header.takenAt}, schema ${header.migrations.at(-1)!}`,
    );
    console.log(`  intact: ${result.rows} rows of ${header.tables.length} tables, counts and checksum match`);
    for (const key of result.keys)
      console.log(`  ${keyName(key.id)}: opened ${key.opened} of ${key.values} sealed values`);
    if (result.missing.length) throw new Error(`the keyring lacks ${result.missing.map(keyName).join(', ')}`);
    console.log('  every sealed value opens');
  });
}
