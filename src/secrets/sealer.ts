import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Seals values at rest with AES-256-GCM: a fresh 96-bit nonce per value, the 128-bit tag
 * appended to the ciphertext, both written as base64. How a sealed value names its key is the
 * keyring's business (src/secrets/keyring.ts).
 */
export interface Sealer {
  seal(plaintext: string): string;
  /** The plaintext of a sealed value; throws SealError when no key it holds opens it, or it is damaged. */
  open(sealed: string): string;
}

export const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class SealError extends Error {}

/** `<nonce>:<ciphertext+tag>` of one value. */
export function encrypt(key: Buffer, plaintext: string): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${nonce.toString('base64')}:${body.toString('base64')}`;
}

/** The plaintext of what `encrypt` wrote; throws SealError when the key is another one or the value is damaged. */
export function decrypt(key: Buffer, nonceText: string, bodyText: string): string {
  const nonce = Buffer.from(nonceText, 'base64');
  const body = Buffer.from(bodyText, 'base64');
  if (nonce.length !== NONCE_BYTES || body.length < TAG_BYTES) throw new SealError('not a sealed value');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, nonce);
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw new SealError(
      'a sealed value could not be opened: it was sealed with another encryption key, or it is damaged',
    );
  }
}

export function generateKey(): Buffer {
  return randomBytes(KEY_BYTES);
}
