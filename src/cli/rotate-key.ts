import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, readFlags, SETTINGS, type Config } from '../config.js';
import { migrate, openStore } from '../db/connect.js';
import { KEY_FILE, NEXT_KEY_FILE, formatKey, loadSealer, parseKey, writeKeyFile } from '../secrets/key.js';
import { rotateKey } from '../secrets/rotate.js';
import { createSealer, generateKey } from '../secrets/sealer.js';
import { row, settingRows, storeOptions } from './usage.js';

export const HELP = [
  'usage: varsetd rotate-key [--new-key KEY] [options]',
  '',
  'Re-encrypts every sealed value with a new key in one transaction. With the key file in the',
  'data folder, the new key replaces it; with VARSETD_ENCRYPTION_KEY, set it to the new key',
  'before starting varsetd again. Stop every varsetd serving the store first.',
  '',
  'options:',
  row('--new-key KEY', 'the new key, 32 bytes as base64 or 64 hex digits (generated when left out)'),
  ...settingRows(SETTINGS.filter((s) => s.key === 'encryptionKey')),
  ...storeOptions(),
].join('\n');

/** `varsetd rotate-key`. */
export async function run(args: string[]): Promise<number> {
  const { newKey, rest } = takeNewKeyOption(args);
  return runRotateKey(loadConfig(process.env, rest), newKey);
}

/** Takes `--new-key KEY` (or `--new-key=KEY`) out of the arguments of `varsetd rotate-key`; the rest are settings. */
export function takeNewKeyOption(args: string[]): { newKey: string | undefined; rest: string[] } {
  const flags = readFlags(args, [...SETTINGS.map((s) => s.flag), '--new-key']);
  return {
    newKey: flags.filter((f) => f.flag === '--new-key').at(-1)?.value,
    rest: flags.filter((f) => f.flag !== '--new-key').map((f) => `${f.flag}=${f.value}`),
  };
}

/**
 * `varsetd rotate-key`: re-encrypts every sealed value with a new key in one transaction.
 * With a key file, the new key replaces it; with VARSETD_ENCRYPTION_KEY, the operator sets
 * the new value before starting varsetd again. Run it while no varsetd serves this store.
 */
export async function runRotateKey(config: Config, newKeyText: string | undefined): Promise<number> {
  const parsed = newKeyText === undefined ? generateKey() : parseKey(newKeyText);
  if (!parsed) throw new ConfigError('--new-key must be 32 bytes written as base64 or as 64 hex digits');
  const store = await openStore(config);
  try {
    await migrate(store);
    const current = await loadSealer(store, { configuredKey: config.encryptionKey, dataDir: config.dataDir });
    const next = path.join(config.dataDir, NEXT_KEY_FILE);
    if (current.source === 'file') writeKeyFile(next, parsed);
    const count = await rotateKey(store, current.sealer, createSealer(parsed));
    if (current.source === 'file') {
      fs.renameSync(next, path.join(config.dataDir, KEY_FILE));
      console.log(`varsetd: re-encrypted ${count} sealed values; the new key replaced ${current.file}`);
    } else {
      console.log(`varsetd: re-encrypted ${count} sealed values; set VARSETD_ENCRYPTION_KEY to the new key before starting varsetd again`);
      if (newKeyText === undefined) console.log(formatKey(parsed));
    }
  } finally {
    await store.close();
  }
  return 0;
}
