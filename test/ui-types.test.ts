import fs from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { UI_SCHEMA, UI_TYPES_COMMAND, uiSchemaSource } from '../scripts/ui-types.js';

/** The web UI's API types are generated from the route schemas; the committed file must be the one the script writes. */
it('ui/src/api/schema.d.ts is generated from the current OpenAPI document', async () => {
  const expected = await uiSchemaSource();
  const committed = fs.existsSync(UI_SCHEMA) ? fs.readFileSync(UI_SCHEMA, 'utf8') : '';
  assert.ok(
    committed === expected,
    `${path.relative(process.cwd(), UI_SCHEMA)} is out of date: run \`${UI_TYPES_COMMAND}\``,
  );
});
