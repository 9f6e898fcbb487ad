import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { SETTINGS } from '../src/config.js';
import { CONFIGURATION_DOC, settingsTable, tableBounds, withSettingsTable } from '../scripts/settings-table.js';

describe('the settings table of docs/configuration.md', () => {
  const document = fs.readFileSync(CONFIGURATION_DOC, 'utf8');

  it('is the table scripts/settings-table.ts writes from src/config.ts (run it after changing a setting)', () => {
    const { start, end } = tableBounds(document);
    assert.equal(document.slice(start, end), `\n${settingsTable()}\n`);
    assert.equal(withSettingsTable(document), document);
  });

  it('has a row for each setting, so that a setting added to config.ts fails the check above until the script runs', () => {
    const rows = [...document.matchAll(/^\| `([A-Z_]+)` \| `(--[a-z-]+)` \| `([^`]+)` \|/gm)].map(
      ([, env, flag, value]) => `${env} ${flag} ${value}`,
    );
    assert.deepEqual(
      rows,
      SETTINGS.map((s) => `${s.env} ${s.flag} ${s.value}`),
    );
    const added = {
      env: 'VARSETD_SOMETHING_NEW',
      flag: '--something-new',
      value: 'N',
      help: 'a setting not yet documented',
      key: 'port',
    } as const;
    assert.notEqual(withSettingsTable(document, settingsTable([...SETTINGS, added])), document);
  });

  it('keeps a table cell whole whatever the help text holds', () => {
    const table = settingsTable([{ env: 'X', flag: '--x', value: 'V', help: 'a | b, *c*, <d>', key: 'port' }]);
    assert.equal(table.split('\n')[2], '| `X` | `--x` | `V` | a \\| b, \\*c\\*, \\<d> |');
  });
});
