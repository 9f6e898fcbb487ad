/**
 * The table of settings in docs/configuration.md, written from SETTINGS in src/config.ts.
 *
 *   node --import tsx scripts/settings-table.ts           rewrites the table between the markers
 *   node --import tsx scripts/settings-table.ts --check   exits 1 when the table is not what it would write
 *
 * test/settings-table.test.ts fails while the table and SETTINGS disagree, so a setting added to
 * config.ts reaches the documentation by running this script, never by editing the table.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SETTINGS, type Setting } from '../src/config.js';

export const CONFIGURATION_DOC = path.join(import.meta.dirname, '..', 'docs', 'configuration.md');
export const BEGIN_MARKER =
  '<!-- settings table: written by scripts/settings-table.ts from SETTINGS in src/config.ts; do not edit by hand -->';
export const END_MARKER = '<!-- end of the settings table -->';

/** A table cell: a `|` would end it early, `*` and `<` could start emphasis or HTML. */
const cell = (text: string) => text.replace(/[\\|*<]/g, (c) => `\\${c}`);

/** The Markdown table of `settings`, one row each, in their order. */
export function settingsTable(settings: readonly Setting[] = SETTINGS): string {
  return [
    '| variable | flag | value | what it sets (default in parentheses) |',
    '|---|---|---|---|',
    ...settings.map((s) => `| \`${s.env}\` | \`${s.flag}\` | \`${s.value}\` | ${cell(s.help)} |`),
  ].join('\n');
}

/** Where the table stands in `document`: the text between the two markers. */
export function tableBounds(document: string): { start: number; end: number } {
  const begin = document.indexOf(BEGIN_MARKER);
  const end = document.indexOf(END_MARKER);
  if (begin < 0 || end < begin)
    throw new Error(`docs/configuration.md must hold the markers\n${BEGIN_MARKER}\n${END_MARKER}`);
  return { start: begin + BEGIN_MARKER.length, end };
}

/** `document` with the text between the markers replaced by `table`. */
export function withSettingsTable(document: string, table: string = settingsTable()): string {
  const { start, end } = tableBounds(document);
  return `${document.slice(0, start)}\n${table}\n${document.slice(end)}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const current = fs.readFileSync(CONFIGURATION_DOC, 'utf8');
  const next = withSettingsTable(current);
  if (process.argv.includes('--check')) {
    if (next !== current) {
      console.error(
        'docs/configuration.md: the settings table differs from src/config.ts; run node --import tsx scripts/settings-table.ts',
      );
      process.exit(1);
    }
  } else if (next !== current) {
    fs.writeFileSync(CONFIGURATION_DOC, next);
    console.log(`docs/configuration.md: wrote the table of ${SETTINGS.length} settings`);
  } else {
    console.log('docs/configuration.md: the settings table is up to date');
  }
}
