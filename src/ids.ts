import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** An opaque identifier: the prefix, a dash and 16 random alphanumerics (`varset-3Fq…`). */
export function newId(prefix: string): string {
  return `${prefix}-${randomAlphanumeric(16)}`;
}

export function randomAlphanumeric(length: number): string {
  // 248 is the largest multiple of 62 below 256: rejecting bytes above it keeps every character equally likely.
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

/** Current time as ISO 8601 with milliseconds, the form every timestamp is stored and returned in. */
export function now(): string {
  return new Date().toISOString();
}
