import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Store } from '../db/connect.js';
import { keyIdsInUse, recordKeyInUse, rereadKeyringFile, type LoadedKeyring } from '../secrets/key.js';
import { createKeyring, type ReloadableKeyring } from '../secrets/keyring.js';
import { KEY_FILE, parseKeyring } from '../secrets/keyring-file.js';

/**
 * SIGHUP's reload of the keyring file, so that a serving process seals with the key a rotation
 * made active. A keyring that lacks a key the store uses is not taken; the active key is recorded
 * as used before anything is sealed with it. Returns whether the keyring was replaced.
 */
export async function reloadKeyring(
  loaded: LoadedKeyring,
  store: Store,
  log: Pick<Logger, 'info' | 'error'>,
): Promise<boolean> {
  if (loaded.source === 'configured') {
    log.info('SIGHUP: the keyring comes from VARSETD_ENCRYPTION_KEY, which only a restart changes');
    return false;
  }
  try {
    const keys = rereadKeyringFile(loaded.file);
    if (!keys) throw new Error(`${loaded.file} cannot be read`);
    const missing = (await keyIdsInUse(store)).filter((id) => !keys.some((k) => k.id === id));
    if (missing.length > 0) throw new Error(`it lacks ${missing.join(', ')}, which the database uses`);
    await recordKeyInUse(store, keys[0]!.id);
    loaded.keyring.replace(keys);
    log.info({ file: loaded.file, active: keys[0]!.id, keys: keys.length }, 'reloaded the keyring');
    return true;
  } catch (error) {
    log.error(
      { file: loaded.file, reason: error instanceof Error ? error.message : String(error) },
      'kept the current keyring: reloading it failed',
    );
    return false;
  }
}

/** In a worker: the keyring its primary sent; with a key file, a value naming a key it lacks has it read the file again. */
export function workerKeyring(config: Pick<Config, 'dataDir' | 'encryptionKeys'>, text: string): ReloadableKeyring {
  const file = path.join(config.dataDir, KEY_FILE);
  return createKeyring(
    parseKeyring(text, '\n', 'the keyring from the primary'),
    config.encryptionKeys ? undefined : () => rereadKeyringFile(file),
  );
}
