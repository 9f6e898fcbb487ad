import fs from 'node:fs';
import path from 'node:path';
import { KEY_BYTES } from './sealer.js';
import { keyringKey, type KeyringKey } from './keyring.js';
import { makePrivateFolder } from '../common/private-folder.js';

/**
 * The keyring as written: in the data folder's file `encryption-key`, one key per line; in
 * `VARSETD_ENCRYPTION_KEY`, keys separated by commas. The first key is the active one; a key
 * followed by the word `retired` is kept only so that older backups still restore. A file or
 * setting of one key, as varsetd wrote before there was a keyring, is a keyring of one.
 */

export const KEY_FILE = 'encryption-key';
const RETIRED = 'retired';

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

/** The keys of a keyring's text, `separator` between keys (blank entries ignored); throws KeyError saying what is wrong and where. */
export function parseKeyring(text: string, separator: '\n' | ',', where: string): KeyringKey[] {
  const keys: KeyringKey[] = [];
  for (const [index, entry] of text.split(separator).entries()) {
    const [keyText, marker, ...extra] = entry.trim().split(/\s+/);
    if (!keyText) continue;
    const key = parseKey(keyText);
    const place = separator === '\n' ? `line ${index + 1}` : `key ${index + 1}`;
    if (!key || extra.length > 0 || (marker !== undefined && marker !== RETIRED)) {
      throw new KeyError(
        `${where}, ${place}: expected a ${KEY_BYTES}-byte key (base64 or 64 hex digits), optionally followed by "${RETIRED}"`,
      );
    }
    const parsed = keyringKey(key, marker === RETIRED);
    if (keys.some((k) => k.id === parsed.id))
      throw new KeyError(`${where}, ${place}: the key ${parsed.id} is there twice`);
    keys.push(parsed);
  }
  if (keys.length === 0) throw new KeyError(`${where} holds no key`);
  if (keys[0]!.retired) throw new KeyError(`${where}: the first key seals new values, so it cannot be retired`);
  return keys;
}

export function formatKeyring(keys: readonly KeyringKey[], separator: '\n' | ','): string {
  return keys.map((k) => (k.retired ? `${formatKey(k.key)} ${RETIRED}` : formatKey(k.key))).join(separator);
}

/** The keys of a keyring file; undefined when there is no file. */
export function readKeyringFile(file: string): KeyringKey[] | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return parseKeyring(text, '\n', file);
}

/**
 * Writes a keyring file readable by this user only, whole or not at all (a temporary file
 * renamed over it), and on disk before it returns (the file and its folder synced: sealed values
 * committed after it must never outlive their key); `exclusive` writes only when there is none
 * (another process may have written it first) and returns whether it did. `replacing` is the
 * keyring the caller read: when the file no longer holds it (another command changed it
 * meanwhile), nothing is written and a KeyError says so, rather than drop the other's key.
 */
export function writeKeyringFile(
  file: string,
  keys: readonly KeyringKey[],
  options: { exclusive?: boolean; replacing?: readonly KeyringKey[] } = {},
): boolean {
  const folder = path.dirname(file);
  makePrivateFolder(folder);
  const text = `${formatKeyring(keys, '\n')}\n`;
  if (options.exclusive) {
    try {
      writeSynced(file, text, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
    syncFolder(folder);
    return true;
  }
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeSynced(temporary, text, 'w');
    if (options.replacing) {
      const now = readKeyringFile(file);
      if (!now || formatKeyring(now, '\n') !== formatKeyring(options.replacing, '\n')) {
        throw new KeyError(
          `${file} changed while this command ran (another varsetd command wrote it): nothing was written; run the command again`,
        );
      }
    }
    fs.renameSync(temporary, file);
  } finally {
    fs.rmSync(temporary, { force: true });
  }
  syncFolder(folder);
  return true;
}

function writeSynced(file: string, text: string, flag: 'w' | 'wx'): void {
  const fd = fs.openSync(file, flag, 0o600);
  try {
    fs.fchmodSync(fd, 0o600);
    fs.writeFileSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function syncFolder(folder: string): void {
  const fd = fs.openSync(folder, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Where a process's keyring comes from: `VARSETD_ENCRYPTION_KEY` (already parsed) when set, otherwise the data folder's key file. */
export interface KeyringSettings {
  encryptionKeys: KeyringKey[] | undefined;
  dataDir: string;
}

export interface KeyringSource {
  source: 'configured' | 'file';
  /** The key file's path (read or not). */
  file: string;
  /** The keys; undefined when no key is configured and there is no key file. */
  keys: KeyringKey[] | undefined;
}

/** The keyring a configuration names, from the setting or the key file, without looking at any database. */
export function readKeyring(settings: KeyringSettings): KeyringSource {
  const file = path.join(settings.dataDir, KEY_FILE);
  if (settings.encryptionKeys) return { source: 'configured', file, keys: settings.encryptionKeys };
  return { source: 'file', file, keys: readKeyringFile(file) };
}

/** Where the keyring is written, for messages. */
export function keyringPlace(source: KeyringSource): string {
  return source.source === 'configured' ? 'VARSETD_ENCRYPTION_KEY' : source.file;
}
