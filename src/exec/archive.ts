import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { DEFAULT_IGNORE, isIgnored, parseIgnoreFile, toSlashes, type IgnoreRule } from './ignore.js';

/**
 * A configuration directory as the gzip-compressed tar archive HCP Terraform's API-driven
 * workflow uploads: regular files, directories and symbolic links, paths relative to the
 * directory, `.terraformignore` honoured. Names that do not fit a ustar header (longer than
 * 100 bytes, or not ASCII) get a PAX extended header, which every tar reader understands.
 */
export function packDirectory(root: string, alsoIgnore: (relativePath: string) => boolean = () => false): Buffer {
  const ignoreFile = path.join(root, '.terraformignore');
  const rules = parseIgnoreFile(fs.existsSync(ignoreFile) ? fs.readFileSync(ignoreFile, 'utf8') : DEFAULT_IGNORE);
  const blocks: Buffer[] = [];
  walk(root, '', rules, alsoIgnore, blocks);
  blocks.push(Buffer.alloc(BLOCK * 2));
  return gzipSync(Buffer.concat(blocks));
}

const BLOCK = 512;

function walk(
  root: string,
  relativeDir: string,
  rules: readonly IgnoreRule[],
  alsoIgnore: (p: string) => boolean,
  blocks: Buffer[],
): void {
  const entries = fs
    .readdirSync(path.join(root, relativeDir), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const relative = relativeDir ? `${relativeDir}/${entry.name}` : entry.name;
    const full = path.join(root, relative);
    const isDirectory = entry.isDirectory();
    if (isIgnored(rules, toSlashes(relative), isDirectory) || alsoIgnore(relative)) continue;
    const stat = fs.lstatSync(full);
    if (isDirectory) {
      blocks.push(header(`${relative}/`, '5', 0, stat.mode, stat.mtimeMs));
      walk(root, relative, rules, alsoIgnore, blocks);
    } else if (entry.isSymbolicLink()) {
      blocks.push(header(relative, '2', 0, stat.mode, stat.mtimeMs, fs.readlinkSync(full)));
    } else if (entry.isFile()) {
      const content = fs.readFileSync(full);
      blocks.push(
        header(relative, '0', content.length, stat.mode, stat.mtimeMs),
        content,
        Buffer.alloc(padding(content.length)),
      );
    }
  }
}

const padding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;

/** The header block(s) of one entry: a PAX header first when the name or link target does not fit ustar. */
function header(
  name: string,
  type: '0' | '2' | '5',
  size: number,
  mode: number,
  mtimeMs: number,
  linkName = '',
): Buffer {
  const fits = (text: string) => /^[\x20-\x7e]*$/.test(text) && text.length <= 100;
  const parts: Buffer[] = [];
  const pax: Record<string, string> = {};
  if (!fits(name)) pax.path = name;
  if (!fits(linkName)) pax.linkpath = linkName;
  if (Object.keys(pax).length) {
    const body = Buffer.from(
      Object.entries(pax)
        .map(([key, value]) => paxRecord(key, value))
        .join(''),
      'utf8',
    );
    parts.push(
      ustarHeader('PaxHeader', 'x', body.length, 0o644, mtimeMs, ''),
      body,
      Buffer.alloc(padding(body.length)),
    );
  }
  const asciiOnly = (text: string) => text.replace(/[^\x20-\x7e]/g, '_').slice(0, 100);
  parts.push(ustarHeader(asciiOnly(name), type, size, mode & 0o7777, mtimeMs, asciiOnly(linkName)));
  return Buffer.concat(parts);
}

/** A PAX record is `<length> <key>=<value>\n`, its length counting its own digits. */
function paxRecord(key: string, value: string): string {
  const rest = ` ${key}=${value}\n`;
  const restBytes = Buffer.byteLength(rest);
  // The length counts its own digits: the smallest L with L = restBytes + digits(L).
  let length = restBytes + String(restBytes).length;
  while (length !== restBytes + String(length).length) length = restBytes + String(length).length;
  return `${length}${rest}`;
}

function ustarHeader(
  name: string,
  type: string,
  size: number,
  mode: number,
  mtimeMs: number,
  linkName: string,
): Buffer {
  const block = Buffer.alloc(BLOCK);
  const octal = (value: number, width: number) => `${value.toString(8).padStart(width - 1, '0')}\0`;
  block.write(name, 0, 100, 'ascii');
  block.write(octal(mode, 8), 100);
  block.write(octal(0, 8), 108);
  block.write(octal(0, 8), 116);
  block.write(octal(size, 12), 124);
  block.write(octal(Math.floor(mtimeMs / 1000), 12), 136);
  block.write(' '.repeat(8), 148);
  block.write(type, 156);
  block.write(linkName, 157, 100, 'ascii');
  block.write('ustar\0', 257);
  block.write('00', 263);
  const sum = block.reduce((total, byte) => total + byte, 0);
  block.write(`${octal(sum, 7)} `, 148);
  return block;
}
