import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Seals values at rest with AES-256-GCM: a fresh 96-bit nonce per value, the 128-bit tag
 * appended to the ciphertext. A sealed value reads `v1:<nonce>:<ciphertext+tag>` (base64),
 * so the format can change later without guessing what a stored value is.
 */
export interface Sealer {
  seal(plaintext: string): string;
  /** The plaintext of a sealed value; throws SealError when it was sealed with another key or is damaged. */
  open(sealed: string): string;
}

export const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1';

export class SealError extends Error {}

export function createSealer(key: Buffer): Sealer {
  if (key.length !== KEY_BYTES) throw new SealError(`an encryption key is ${KEY_BYTES} bytes, got ${key.length}`);
  const secret = Buffer.from(key);
  return {
    seal(plaintext) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', secret, nonce);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${VERSION}:${nonce.toString('base64')}:${body.toString('base64')}`;
    },
    open(sealed) {
      const [version, nonceText, bodyText, ...rest] = sealed.split(':');
      const nonce = Buffer.from(nonceText ?? '', 'base64');
      const body = Buffer.from(bodyText ?? '', 'base64');
      if (version !== VERSION || rest.length > 0 || nonce.length !== NONCE_BYTES || body.length < TAG_BYTES) {
        throw new SealError('not a sealed value');
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', secret, nonce);
        decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
        return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new SealError('a sealed value could not be opened: it was sealed with another encryption key, or it is damaged');
      }
    },
  };
}

export function generateKey(): Buffer {
  return randomBytes(KEY_BYTES);
}
