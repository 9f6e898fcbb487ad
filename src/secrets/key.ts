import fs from 'node:fs';
import path from 'node:path';
import type { Store } from '../db/connect.js';
import { transaction, type Trx } from '../db/transaction.js';
import { KEY_BYTES, SealError, createSealer, generateKey, type Sealer } from './sealer.js';
import { findSetting, insertSettingOnce, updateSetting } from './store.js';
import { makePrivateFolder } from '../common/private-folder.js';

/**
 * Where the encryption key comes from: `VARSETD_ENCRYPTION_KEY` when set, otherwise the key
 * file in the data folder, generated on first start. The database keeps a value sealed
 * with the key (`settings.encryption-key-check`), so starting with another key fails at
 * once instead of leaving sealed values unreadable.
 */

export const KEY_FILE = 'encryption-key';
/** Written before a rotation commits, renamed over the key file after: a crash in between leaves both keys on disk. */
export const NEXT_KEY_FILE = 'encryption-key.next';
const CHECK_NAME = 'encryption-key-check';
const CHECK_TEXT = 'varsetd encryption key check';

export class KeyError extends Error {}

/** A 32-byte key written as 64 hex digits or as base64 (standard or URL-safe, padding optional); undefined otherwise. */
export function parseKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) return undefined;
  const key = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return key.length === KEY_BYTES ? key : undefined;
}

export function formatKey(key: Buffer): string {
  return key.toString('base64');
}

function readKeyFile(file: string): Buffer | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const key = parseKey(text);
  if (!key) throw new KeyError(`${file} does not hold a ${KEY_BYTES}-byte key (base64 or hex)`);
  return key;
}

/** Writes a key file readable by this user only; `exclusive` refuses to replace an existing one. */
export function writeKeyFile(file: string, key: Buffer, exclusive = false): void {
  makePrivateFolder(path.dirname(file));
  fs.writeFileSync(file, `${formatKey(key)}\n`, { mode: 0o600, flag: exclusive ? 'wx' : 'w' });
  fs.chmodSync(file, 0o600);
}

function opensCheck(sealer: Sealer, check: string): boolean {
  try {
    return sealer.open(check) === CHECK_TEXT;
  } catch (error) {
    if (error instanceof SealError) return false;
    throw error;
  }
}

export interface LoadedKey {
  sealer: Sealer;
  /** The key itself, for worker processes to seal with (see src/workers.ts). */
  key: Buffer;
  /** Where the key came from: the configuration, or the key file (then `file` is its path). */
  source: 'configured' | 'file';
  file: string;
  /** Whether this start generated the key file. */
  generated: boolean;
}

/** The sealer of this store's values, after checking the key is the one the store was sealed with. */
export async function loadSealer(store: Store, options: { configuredKey: Buffer | undefined; dataDir: string }): Promise<LoadedKey> {
  const file = path.join(options.dataDir, KEY_FILE);
  const check = await findSetting(store.db, CHECK_NAME);
  let key = options.configuredKey ?? readKeyFile(file);
  const source = options.configuredKey ? 'configured' : 'file';
  let generated = false;
  if (!key) {
    if (check !== undefined) {
      throw new KeyError(`this database holds values sealed with an encryption key, but none is configured: set VARSETD_ENCRYPTION_KEY or restore ${file}`);
    }
    try {
      writeKeyFile(file, generateKey(), true);
      generated = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    key = readKeyFile(file)!;
  }
  let sealer = createSealer(key);
  if (check === undefined) {
    const sealed = sealer.seal(CHECK_TEXT);
    await transaction(store, (trx) => insertSettingOnce(trx, CHECK_NAME, sealed));
  }
  const current = (await findSetting(store.db, CHECK_NAME))!;
  if (!opensCheck(sealer, current)) {
    const next = source === 'file' ? readKeyFile(path.join(options.dataDir, NEXT_KEY_FILE)) : undefined;
    if (!next || !opensCheck(createSealer(next), current)) {
      const where = source === 'configured' ? 'VARSETD_ENCRYPTION_KEY' : file;
      throw new KeyError(`the encryption key in ${where} is not the key this database was sealed with`);
    }
    // A rotation committed but did not get to replace the key file: finish it.
    fs.renameSync(path.join(options.dataDir, NEXT_KEY_FILE), file);
    sealer = createSealer(next);
    key = next;
  }
  return { sealer, key, source, file, generated };
}

/** Seals the key check with a new key; part of a rotation's transaction. */
export async function resealCheck(trx: Trx, sealer: Sealer): Promise<void> {
  await updateSetting(trx, CHECK_NAME, sealer.seal(CHECK_TEXT));
}
