import { promisify } from 'node:util';
import zlib from 'node:zlib';

/** Largest upload accepted, as sent (gzip-compressed). */
export const MAX_ARCHIVE_BYTES = 10 * 1024 * 1024;
/** Largest tar stream an upload may inflate to; stops a small "zip bomb" from filling memory. */
export const MAX_EXPANDED_BYTES = 100 * 1024 * 1024;

const BLOCK = 512;
const gunzip = promisify(zlib.gunzip);

/**
 * Why `bytes` is not a gzip-compressed tar archive, or null when it is one. The tar is
 * walked header by header: every header's checksum must hold and every entry's content
 * must be present. Reading stops at the end-of-archive (zero) block or the end of data.
 */
export async function archiveProblem(bytes: Buffer): Promise<string | null> {
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return 'the upload is not gzip-compressed';
  let tar: Buffer;
  try {
    tar = await gunzip(bytes, { maxOutputLength: MAX_EXPANDED_BYTES });
  } catch (error) {
    if (error instanceof RangeError || (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      return `the archive expands to more than ${MAX_EXPANDED_BYTES} bytes`;
    }
    return 'the upload is not valid gzip data';
  }
  return tarProblem(tar);
}

function tarProblem(tar: Buffer): string | null {
  let offset = 0;
  let entries = 0;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    if (!checksumHolds(header)) return `the tar header at byte ${offset} is damaged (checksum mismatch)`;
    const size = entrySize(header);
    if (size === null) return `the tar header at byte ${offset} has an invalid size`;
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (offset > tar.length) return 'the tar archive is truncated';
    entries++;
  }
  if (offset < tar.length && offset + BLOCK > tar.length) return 'the tar archive is truncated';
  return entries === 0 ? 'the upload is not a tar archive with at least one entry' : null;
}

/** The checksum is the sum of the header bytes with its own field read as spaces; old tars summed signed bytes. */
function checksumHolds(header: Buffer): boolean {
  const stored = octal(header.subarray(148, 156));
  if (stored === null) return false;
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const byte = i >= 148 && i < 156 ? 0x20 : header[i]!;
    unsigned += byte;
    signed += byte > 127 ? byte - 256 : byte;
  }
  return stored === unsigned || stored === signed;
}

/** The entry's content size: octal, or GNU base-256 when the first byte has its high bit set. */
function entrySize(header: Buffer): number | null {
  const field = header.subarray(124, 136);
  if (field[0]! & 0x80) {
    if (field[0] === 0xff) return null;
    let size = field[0]! & 0x7f;
    for (let i = 1; i < field.length; i++) size = size * 256 + field[i]!;
    return Number.isSafeInteger(size) ? size : null;
  }
  return octal(field);
}

/** A NUL- or space-terminated octal number, as tar writes them; null when malformed. */
function octal(field: Buffer): number | null {
  const text = field
    .toString('latin1')
    .replace(/[\0 ]+$/, '')
    .replace(/^ +/, '');
  if (!/^[0-7]+$/.test(text)) return null;
  return parseInt(text, 8);
}
