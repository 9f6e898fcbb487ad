import { randomFillSync } from 'node:crypto';

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** Letters and digits without 0, O, I and l. HCP Terraform's ids use these, and the tfe provider tells an id from a name by them (`org/team-…` on import). */
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** An opaque identifier: the prefix, a dash and 16 random base58 characters (`varset-3Fq…`). */
export function newId(prefix: string): string {
  return `${prefix}-${randomFrom(BASE58, 16)}`;
}

export function randomAlphanumeric(length: number): string {
  return randomFrom(ALPHANUMERIC, length);
}

/**
 * Bytes from the system's secure generator, drawn a few kilobytes at a time: a call per id cost
 * more than everything else of making it. Each byte is used once and zeroed as it is taken, so
 * the pool never holds a byte of an id or token already handed out.
 */
const pool = Buffer.alloc(4096);
let taken = pool.length;

function randomByte(): number {
  if (taken === pool.length) {
    randomFillSync(pool);
    taken = 0;
  }
  const byte = pool[taken]!;
  pool[taken++] = 0;
  return byte;
}

function randomFrom(alphabet: string, length: number): string {
  // Rejecting bytes at or above the largest multiple of the alphabet's size keeps every character equally likely.
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < limit) out += alphabet.charAt(byte % alphabet.length);
  }
  return out;
}

/** Current time as ISO 8601 with milliseconds, the form every timestamp is stored and returned in. */
export function now(): string {
  return new Date().toISOString();
}
