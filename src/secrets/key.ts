import fs from 'node:fs';
import path from 'node:path';
import type { Store } from '../db/connect.js';
import { transaction } from '../db/transaction.js';
import {
  createKeyring,
  keyringKey,
  sealedKeyId,
  type Keyring,
  type KeyringKey,
  type ReloadableKeyring,
} from './keyring.js';
import {
  KeyError,
  keyringPlace,
  parseKey,
  readKeyring,
  readKeyringFile,
  writeKeyringFile,
  type KeyringSettings,
} from './keyring-file.js';
import { SealError, generateKey } from './sealer.js';
import { deleteSetting, findSetting, insertSettingOnce, settingsNamed, updateSetting } from './store.js';

/**
 * The keyring of a store, checked against it. The database keeps a value sealed with one of
 * its keys (`settings.encryption-key-check`) and the id of every key its values may use (one
 * setting each, `encryption-keys/<id>`), so that a start whose keyring lacks one of them fails at
 * once, naming them, instead of leaving sealed values unreadable.
 */

export const CHECK_NAME = 'encryption-key-check';
const CHECK_TEXT = 'varsetd encryption key check';
export const IN_USE = 'encryption-keys/';
/** Left by the rotation of varsetd before the keyring when it committed but did not get to replace the key file. */
const NEXT_KEY_FILE = 'encryption-key.next';

export interface LoadedKeyring {
  keyring: ReloadableKeyring;
  /** Where the keys came from: the configuration, or the key file (then `file` is its path). */
  source: 'configured' | 'file';
  file: string;
  /** Whether this start generated the key file. */
  generated: boolean;
}

/** The keyring of this store's values, after checking it holds every key the store uses; records its active key as used. */
export async function loadKeyring(store: Store, settings: KeyringSettings): Promise<LoadedKeyring> {
  const found = readKeyring(settings);
  const check = await findSetting(store.db, CHECK_NAME);
  let generated = false;
  if (!found.keys) {
    if (check !== undefined) {
      throw new KeyError(
        `this database holds values sealed with an encryption key, but none is configured: set VARSETD_ENCRYPTION_KEY or restore ${found.file}`,
      );
    }
    generated = writeKeyringFile(found.file, [keyringKey(generateKey())], { exclusive: true });
    found.keys = readKeyringFile(found.file)!;
  }
  if (found.source === 'file' && check !== undefined)
    found.keys = finishRotationBeforeKeyring(found.file, found.keys, check);
  const file = found.file;
  const keyring = createKeyring(found.keys, found.source === 'file' ? () => rereadKeyringFile(file) : undefined);
  if (check === undefined)
    await transaction(store, (trx) => insertSettingOnce(trx, CHECK_NAME, keyring.seal(CHECK_TEXT)));
  const current = (await findSetting(store.db, CHECK_NAME))!;
  const used = new Set(await keyIdsInUse(store));
  const checkKey = sealedKeyId(current); // undefined for a check sealed before the keyring
  if (checkKey) used.add(checkKey);
  const missing = [...used].filter((id) => !keyring.has(id));
  if (missing.length > 0) {
    throw new KeyError(
      `the keyring in ${keyringPlace(found)} lacks ${missing.length === 1 ? 'the key' : 'keys'} this database uses: ${missing.join(', ')}`,
    );
  }
  if (!opens(keyring, current))
    throw new KeyError(`the encryption key in ${keyringPlace(found)} is not the key this database was sealed with`);
  // What seals from now on, and, in a database sealed before the keyring, the key that sealed it.
  for (const id of new Set([keyring.active.id, keyring.keyOf(current)!])) await recordKeyInUse(store, id);
  return { keyring, source: found.source, file: found.file, generated };
}

/** The key file's keys again (after another process rotated the key); undefined when it cannot be read, the keys held staying. */
export function rereadKeyringFile(file: string): KeyringKey[] | undefined {
  try {
    return readKeyringFile(file);
  } catch {
    return undefined;
  }
}

function opens(keyring: Keyring, check: string): boolean {
  try {
    return keyring.open(check) === CHECK_TEXT;
  } catch (error) {
    if (error instanceof SealError) return false;
    throw error;
  }
}

/** When the check opens only with the key a rotation of varsetd before the keyring left beside the file, that key replaces the file. */
function finishRotationBeforeKeyring(file: string, keys: KeyringKey[], check: string): KeyringKey[] {
  const nextFile = path.join(path.dirname(file), NEXT_KEY_FILE);
  if (!check.startsWith('v1:') || opens(createKeyring(keys), check) || !fs.existsSync(nextFile)) return keys;
  const next = parseKey(fs.readFileSync(nextFile, 'utf8'));
  if (!next || !opens(createKeyring([keyringKey(next)]), check)) return keys;
  fs.renameSync(nextFile, file);
  return readKeyringFile(file)!;
}

/** The ids of the keys this store's values may use. */
export async function keyIdsInUse(store: Store): Promise<string[]> {
  return (await settingsNamed(store.db, IN_USE)).map((s) => s.name.slice(IN_USE.length));
}

/** Records that values may be sealed with this key from now on. */
export async function recordKeyInUse(store: Store, id: string): Promise<void> {
  await transaction(store, (trx) => insertSettingOnce(trx, `${IN_USE}${id}`, new Date().toISOString()));
}

/** Drops a key from those the store uses, and seals the key check with the active key if that key sealed it. */
export async function forgetKeyInUse(store: Store, keyring: Keyring, id: string): Promise<void> {
  await transaction(store, async (trx) => {
    await deleteSetting(trx, `${IN_USE}${id}`);
    const check = await findSetting(trx, CHECK_NAME);
    if (check !== undefined && keyring.keyOf(check) === id)
      await updateSetting(trx, CHECK_NAME, keyring.seal(CHECK_TEXT));
  });
}

/** Seals the key check with the active key (once no value uses another). */
export async function resealCheck(store: Store, keyring: Keyring): Promise<void> {
  await transaction(store, (trx) => updateSetting(trx, CHECK_NAME, keyring.seal(CHECK_TEXT)));
}
