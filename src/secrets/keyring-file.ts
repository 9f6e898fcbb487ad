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
      throw new KeyError(`${where}, ${place}: expected a ${KEY_BYTES}-byte key (base64 or 64 hex digits), optionally followed by "${RETIRED}"`);
    }
    const parsed = keyringKey(key, marker === RETIRED);
    if (keys.some((k) => k.id === parsed.id)) throw new KeyError(`${where}, ${place}: the key ${parsed.id} is there twice`);
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
 * renamed over it); `exclusive` writes only when there is none (another process may have
 * written it first) and returns whether it did.
 */
export function writeKeyringFile(file: string, keys: readonly KeyringKey[], exclusive = false): boolean {
  makePrivateFolder(path.dirname(file));
  const text = `${formatKeyring(keys, '\n')}\n`;
  if (exclusive) {
    try {
      fs.writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  }
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, text, { mode: 0o600 });
  fs.chmodSync(temporary, 0o600);
  fs.renameSync(temporary, file);
  return true;
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
