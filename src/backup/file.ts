import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import { once } from 'node:events';
import readline from 'node:readline';
import zlib from 'node:zlib';
import type { StoredValue, TableShape } from '../db/snapshot.js';

/**
 * A backup file: gzip-compressed text, one JSON value per line (docs/operations.md#the-backup-file).
 *   1. the header (`Header`);
 *   2. for each table of the header, in its order: `{"table":NAME}`, then one JSON array per row;
 *   3. the trailer (`Trailer`): rows per table, the key ids of the sealed values, and the
 *      SHA-256 of every line before it.
 * Values are JSON strings, numbers and null; bytes are `{"base64":…}`, integers past 2^53 `{"integer":"…"}`.
 */
export const FORMAT = 'varsetd-backup';
export const FORMAT_VERSION = 1;

export interface Header {
  format: typeof FORMAT;
  formatVersion: number;
  varsetdVersion: string;
  store: 'sqlite' | 'postgres';
  takenAt: string;
  /** The migrations applied to the store: its schema version. */
  migrations: string[];
  tables: TableShape[];
}

export interface KeyUse {
  /** The id of the key that sealed the values; null for values sealed without one (`v1:`). */
  id: string | null;
  values: number;
}

export interface Trailer {
  end: true;
  rows: Record<string, number>;
  keys: KeyUse[];
  sha256: string;
}

/** A backup that cannot be read as written: truncated, altered, or not a backup. */
export class DamagedBackupError extends Error {}

/** Writes FILE.partial, readable by its owner only, and renames it to FILE once complete. */
export class BackupWriter {
  private readonly hash: Hash = createHash('sha256');
  private constructor(
    private readonly file: string,
    private readonly partial: string,
    private readonly force: boolean,
    private readonly gzip: zlib.Gzip,
    private readonly out: fs.WriteStream,
    private readonly written: Promise<void>,
  ) {}

  static create(file: string, force: boolean): BackupWriter {
    if (!force && fs.existsSync(file)) throw new Error(`${file} exists (--force replaces it)`);
    const partial = `${file}.partial`;
    let fd: number;
    try {
      fd = fs.openSync(partial, force ? 'w' : 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST')
        throw new Error(`${partial} exists: an earlier backup did not finish (remove it, or use --force)`);
      throw error;
    }
    fs.fchmodSync(fd, 0o600);
    const gzip = zlib.createGzip();
    const out = fs.createWriteStream('', { fd });
    gzip.pipe(out);
    const written = new Promise<void>((resolve, reject) => {
      out.once('close', resolve);
      out.once('error', reject);
      gzip.once('error', reject);
    });
    // Awaited in finish or abort; until then a failed write (a full disk) must not end the process.
    written.catch(() => {});
    return new BackupWriter(file, partial, force, gzip, out, written);
  }

  async line(value: unknown): Promise<void> {
    const text = `${JSON.stringify(value)}\n`;
    this.hash.update(text);
    if (!this.gzip.write(text)) await once(this.gzip, 'drain');
  }

  async rows(rows: StoredValue[][]): Promise<void> {
    for (const row of rows) await this.line(row.map(encodeValue));
  }

  /** Writes the trailer, then puts the file in place (never over an existing one without `force`). */
  async finish(trailer: Omit<Trailer, 'end' | 'sha256'>): Promise<void> {
    const sha256 = this.hash.digest('hex');
    this.gzip.end(`${JSON.stringify({ end: true, ...trailer, sha256 } satisfies Trailer)}\n`);
    await this.written;
    const fd = fs.openSync(this.partial, 'r');
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    if (this.force) fs.renameSync(this.partial, this.file);
    else {
      fs.linkSync(this.partial, this.file);
      fs.unlinkSync(this.partial);
    }
  }

  async abort(): Promise<void> {
    this.gzip.destroy();
    this.out.destroy();
    await this.written.catch(() => {});
    fs.rmSync(this.partial, { force: true });
  }
}

function encodeValue(value: StoredValue): unknown {
  if (Buffer.isBuffer(value)) return { base64: value.toString('base64') };
  if (typeof value === 'bigint')
    return Number.isSafeInteger(Number(value)) ? Number(value) : { integer: value.toString() };
  // A column of another kind (a date, JSON, an array) fails the backup rather than write one that cannot be restored.
  const read: unknown = value;
  if (typeof read === 'object' && read !== null)
    throw new Error(`a column holds a value of a kind backups do not keep: ${Object.prototype.toString.call(read)}`);
  return value;
}

function decodeValue(value: unknown): StoredValue {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return value;
  if (typeof value === 'object' && typeof (value as { base64?: unknown }).base64 === 'string')
    return Buffer.from((value as { base64: string }).base64, 'base64');
  if (typeof value === 'object' && typeof (value as { integer?: unknown }).integer === 'string')
    return BigInt((value as { integer: string }).integer);
  throw new DamagedBackupError(`a row holds a value of no known kind: ${JSON.stringify(value).slice(0, 80)}`);
}

export type Entry = { header: Header } | { table: TableShape; rows: StoredValue[][] } | { trailer: Trailer };

const BATCH = 500;

/**
 * The header, the rows in batches, and the trailer of a backup, checked as they are read:
 * anything out of place, a count or checksum that differs, or a missing trailer throws
 * DamagedBackupError. Rows come before the check of the whole file: act on them only once the
 * trailer has come.
 */
export async function* readBackup(file: string): AsyncGenerator<Entry> {
  const raw = fs.createReadStream(file);
  const input = raw.pipe(zlib.createGunzip());
  raw.once('error', (error) => input.destroy(error));
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  const hash = createHash('sha256');
  let header: Header | undefined;
  let table: TableShape | undefined;
  let tableIndex = -1;
  let batch: StoredValue[][] = [];
  let trailer: Trailer | undefined;
  const counts: Record<string, number> = {};
  try {
    for await (const text of lines) {
      if (trailer) throw new DamagedBackupError('lines follow the trailer');
      const value = parse(text);
      if (!header) {
        header = checkHeader(value);
        hash.update(`${text}\n`);
        yield { header };
        continue;
      }
      if (Array.isArray(value)) {
        if (!table) throw new DamagedBackupError('a row comes before any table');
        if (value.length !== table.columns.length)
          throw new DamagedBackupError(
            `a row of ${table.name} has ${value.length} values, not ${table.columns.length}`,
          );
        hash.update(`${text}\n`);
        batch.push(value.map(decodeValue));
        counts[table.name]! += 1;
        if (batch.length >= BATCH) {
          yield { table, rows: batch };
          batch = [];
        }
        continue;
      }
      if (table && batch.length) yield { table, rows: batch };
      batch = [];
      if (typeof value !== 'object' || value === null)
        throw new DamagedBackupError('a line is neither a row, a table nor the trailer');
      const object = value as { table?: unknown; end?: unknown };
      if (typeof object.table === 'string') {
        table = header.tables[++tableIndex];
        if (table?.name !== object.table)
          throw new DamagedBackupError(`table ${object.table} is not the one the header names next`);
        counts[table.name] = 0;
        hash.update(`${text}\n`);
      } else if (object.end === true) {
        trailer = checkTrailer(value, header, counts, hash.digest('hex'));
        yield { trailer };
      } else throw new DamagedBackupError('a line is neither a row, a table nor the trailer');
    }
  } catch (error) {
    if (error instanceof DamagedBackupError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES') throw error;
    throw new DamagedBackupError(`not a readable backup: ${(error as Error).message}`);
  } finally {
    raw.destroy();
    input.destroy();
  }
  if (!header) throw new DamagedBackupError('the file is empty');
  if (!trailer) throw new DamagedBackupError('the file ends before its trailer: it is truncated');
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new DamagedBackupError('a line is not JSON');
  }
}

function checkHeader(value: unknown): Header {
  const header = value as Partial<Header>;
  if (header.format !== FORMAT) throw new DamagedBackupError('not a varsetd backup');
  if (header.formatVersion !== FORMAT_VERSION)
    throw new DamagedBackupError(
      `backup format ${String(header.formatVersion)} is not one this varsetd reads (${FORMAT_VERSION})`,
    );
  if (
    !Array.isArray(header.migrations) ||
    !Array.isArray(header.tables) ||
    (header.store !== 'sqlite' && header.store !== 'postgres')
  ) {
    throw new DamagedBackupError('the header is incomplete');
  }
  return header as Header;
}

function checkTrailer(value: unknown, header: Header, counts: Record<string, number>, sha256: string): Trailer {
  const trailer = value as Partial<Trailer> & { end: true };
  if (trailer.sha256 !== sha256)
    throw new DamagedBackupError('the checksum does not match the contents: the file was altered');
  const missing = header.tables.find((t) => counts[t.name] === undefined);
  if (missing) throw new DamagedBackupError(`table ${missing.name} is missing`);
  for (const [name, rows] of Object.entries(counts)) {
    if (trailer.rows?.[name] !== rows)
      throw new DamagedBackupError(`table ${name} has ${rows} rows, the trailer says ${String(trailer.rows?.[name])}`);
  }
  if (!Array.isArray(trailer.keys)) throw new DamagedBackupError('the trailer is incomplete');
  return trailer as Trailer;
}
