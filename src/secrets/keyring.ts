import { createHash } from 'node:crypto';
import { KEY_BYTES, SealError, decrypt, encrypt, type Sealer } from './sealer.js';

/**
 * The keys sensitive values are sealed with. The first, the active key, seals; every key opens
 * what it sealed. A value reads `v2:<key id>:<nonce>:<ciphertext+tag>`, the key id derived from
 * the key itself, so that an id can never name the wrong key. Values sealed before there was a
 * keyring read `v1:<nonce>:<ciphertext+tag>` and open with whichever key of the ring opens them.
 */

export interface KeyringKey {
  id: string;
  key: Buffer;
  /** Kept only so that backups older than its retirement still restore: no live value uses it. */
  retired: boolean;
}

export interface Keyring extends Sealer {
  readonly keys: readonly KeyringKey[];
  /** The key that seals. */
  readonly active: KeyringKey;
  has(id: string): boolean;
  /** The id of the key a value was sealed with: the one it names, or for a `v1:` value the key of the ring that opens it (undefined when none does). */
  keyOf(sealed: string): string | undefined;
}

/** A keyring whose keys can be replaced while it serves (a reload), the object staying the same. */
export interface ReloadableKeyring extends Keyring {
  replace(keys: readonly KeyringKey[]): void;
}

const ID_LABEL = 'varsetd encryption key id\0';

export function keyId(key: Buffer): string {
  return `k${createHash('sha256').update(ID_LABEL).update(key).digest('hex').slice(0, 16)}`;
}

export function keyringKey(key: Buffer, retired = false): KeyringKey {
  if (key.length !== KEY_BYTES) throw new SealError(`an encryption key is ${KEY_BYTES} bytes, got ${key.length}`);
  return { id: keyId(key), key: Buffer.from(key), retired };
}

/** The id of the key a value names (`v2:`); undefined for a value sealed before the keyring (`v1:`) or anything else. */
export function sealedKeyId(sealed: string): string | undefined {
  return /^v2:(k[0-9a-f]{16}):/.exec(sealed)?.[1];
}

/**
 * A keyring of `keys`, the first one active. `reload` is asked, at most once per value, for the
 * keys again when a value names a key this ring lacks (another process rotated the key): the
 * ring then opens with what it returns, but seals with the same key until `replace` (a reload
 * the process is told of, such as SIGHUP) says otherwise.
 */
export function createKeyring(
  keys: readonly KeyringKey[],
  reload?: () => readonly KeyringKey[] | undefined,
): ReloadableKeyring {
  let byId = index(keys);
  let ring = keys;
  const find = (id: string) => {
    const found = byId.get(id);
    if (found || !reload) return found;
    const reloaded = reload();
    if (reloaded) {
      const active = ring[0]!;
      ring = [active, ...reloaded.filter((k) => k.id !== active.id)];
      byId = index(ring);
    }
    return byId.get(id);
  };
  const keyring: ReloadableKeyring = {
    get keys() {
      return ring;
    },
    get active() {
      return ring[0]!;
    },
    has: (id) => byId.has(id),
    seal(plaintext) {
      const { id, key } = ring[0]!;
      return `v2:${id}:${encrypt(key, plaintext)}`;
    },
    open(sealed) {
      const parts = sealed.split(':');
      if (parts[0] === 'v1' && parts.length === 3) return openV1(ring, parts[1]!, parts[2]!).plaintext;
      if (parts[0] !== 'v2' || parts.length !== 4) throw new SealError('not a sealed value');
      const found = find(parts[1]!);
      if (!found)
        throw new SealError(`a sealed value names the encryption key ${parts[1]}, which the keyring does not hold`);
      return decrypt(found.key, parts[2]!, parts[3]!);
    },
    keyOf(sealed) {
      const named = sealedKeyId(sealed);
      if (named) return named;
      const parts = sealed.split(':');
      if (parts[0] !== 'v1' || parts.length !== 3) return undefined;
      try {
        return openV1(ring, parts[1]!, parts[2]!).id;
      } catch {
        return undefined;
      }
    },
    replace(next) {
      [ring, byId] = [next, index(next)];
    },
  };
  return keyring;
}

function index(keys: readonly KeyringKey[]): Map<string, KeyringKey> {
  if (keys.length === 0) throw new SealError('a keyring holds at least one key');
  return new Map(keys.map((k) => [k.id, k]));
}

function openV1(keys: readonly KeyringKey[], nonce: string, body: string): { plaintext: string; id: string } {
  for (const { id, key } of keys) {
    try {
      return { plaintext: decrypt(key, nonce, body), id };
    } catch (error) {
      if (!(error instanceof SealError)) throw error;
    }
  }
  throw new SealError('a sealed value could not be opened: no key of the keyring opens it, or it is damaged');
}
