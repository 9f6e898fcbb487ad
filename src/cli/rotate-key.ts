import { ConfigError, loadConfig, readFlags, SETTINGS } from '../config.js';
import { migrate } from '../db/connect.js';
import { openReachableStore } from './store-connection.js';
import { loadKeyring, recordKeyInUse, resealCheck } from '../secrets/key.js';
import { keyringKey } from '../secrets/keyring.js';
import { formatKeyring, parseKey, writeKeyringFile } from '../secrets/keyring-file.js';
import { resealValues } from '../secrets/reseal.js';
import { generateKey } from '../secrets/sealer.js';

const OWN = ['--new-key', '--reseal', '--batch-size'];
const DEFAULT_BATCH = 500;

export const HELP = `usage: varsetd rotate-key [--new-key KEY | --reseal] [--batch-size N] [options]

Adds a new encryption key at the front of the keyring, where it seals from now on, then
re-seals with it, in batches, every value another key sealed, while varsetd keeps serving.
With the key file (encryption-key in the data folder), the file is rewritten with the new key
first; send SIGHUP to every varsetd using it so that they seal with it too. With
VARSETD_ENCRYPTION_KEY, it only prints the keyring to set: set it on every varsetd, restart
them, then run varsetd rotate-key --reseal. The older keys stay in the keyring: retire one
with varsetd keys retire once nothing uses it.

options:
  --new-key KEY   the new key: 32 bytes, base64 or 64 hex digits (generated when omitted)
  --reseal        add no key: re-seal with the active key every value another key sealed
  --batch-size N  rows re-sealed per transaction (${DEFAULT_BATCH}); smaller holds locks shorter
  and the store's settings, as for serve (varsetd --help)`;

export interface RotateKeyOptions {
  newKey: string | undefined;
  reseal: boolean;
  batchSize: number;
  /** The settings. */
  rest: string[];
}

/** Takes rotate-key's own options out of its arguments; the rest are settings. */
export function takeRotateKeyOptions(args: string[]): RotateKeyOptions {
  // --reseal takes no value; readFlags reads only options that do.
  const flags = readFlags(
    args.map((a) => (a === '--reseal' ? '--reseal=' : a)),
    [...SETTINGS.map((s) => s.flag), ...OWN],
  );
  const last = (flag: string) => flags.filter((f) => f.flag === flag).at(-1)?.value;
  const newKey = last('--new-key');
  const reseal = last('--reseal') !== undefined;
  if (reseal && newKey !== undefined)
    throw new ConfigError('--reseal adds no key: give --reseal or --new-key, not both');
  const batchText = last('--batch-size') ?? String(DEFAULT_BATCH);
  const batchSize = Number(batchText);
  if (!/^\d+$/.test(batchText) || batchSize < 1)
    throw new ConfigError(`--batch-size must be a whole number above 0, got ${batchText}`);
  return {
    newKey,
    reseal,
    batchSize,
    rest: flags.filter((f) => !OWN.includes(f.flag)).map((f) => `${f.flag}=${f.value}`),
  };
}

/** `varsetd rotate-key`. */
export async function runRotateKey(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { newKey: newKeyText, reseal, batchSize, rest } = takeRotateKeyOptions(args);
  const config = loadConfig(env, rest);
  const parsed = newKeyText === undefined ? generateKey() : parseKey(newKeyText);
  if (!parsed) throw new ConfigError('--new-key must be 32 bytes written as base64 or as 64 hex digits');
  const store = await openReachableStore(config);
  try {
    await migrate(store);
    const loaded = await store.exclusively(() => loadKeyring(store, config));
    const { keyring } = loaded;
    if (!reseal) {
      const added = keyringKey(parsed);
      const keys = [added, ...keyring.keys.filter((k) => k.id !== added.id)];
      if (loaded.source === 'configured') {
        console.log(
          `varsetd: set VARSETD_ENCRYPTION_KEY on every varsetd to the keyring with the new key ${added.id} first:`,
        );
        console.log(formatKeyring(keys, ','));
        console.log('then restart them, and run varsetd rotate-key --reseal with the new setting');
        return 0;
      }
      writeKeyringFile(loaded.file, keys, { replacing: keyring.keys });
      await recordKeyInUse(store, added.id);
      keyring.replace(keys);
      console.log(`varsetd: ${added.id} is the active key of ${loaded.file}; send SIGHUP to every varsetd using it`);
    }
    const { resealed, remaining } = await resealValues(store, keyring, batchSize);
    if (remaining === 0) await resealCheck(store, keyring);
    console.log(`varsetd: re-sealed ${resealed} value${resealed === 1 ? '' : 's'} with ${keyring.active.id}`);
    if (remaining > 0) {
      console.log(
        `varsetd: ${remaining} values are still sealed with older keys (written by processes not yet reloaded): send SIGHUP to every varsetd, then run varsetd rotate-key --reseal`,
      );
    }
  } finally {
    await store.close();
  }
  return 0;
}
