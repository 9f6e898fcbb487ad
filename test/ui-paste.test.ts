import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseEnv, parseHcl } from '../ui/src/components/pasted.js';

/** The web UI's reading of pasted variables (ui/src/components/pasted.ts): .env lines and HCL assignments. */
describe('pasted variables', () => {
  it('reads .env lines: export, quotes, escapes, comments, and reports the lines it cannot read', () => {
    const { variables, problems } = parseEnv(
      [
        '# a comment',
        'export REGION=eu-west-1',
        'NAME="a b"  # trailing comment',
        "RAW='no \\n escape'",
        'MULTI="one\\ntwo"',
        'BARE=value # comment',
        '',
        'EMPTY=',
        'not a line',
        '=nokey',
        'OPEN="never closed',
      ].join('\n'),
    );
    assert.deepEqual(
      variables.map((v) => [v.key, v.value, v.line]),
      [
        ['REGION', 'eu-west-1', 2],
        ['NAME', 'a b', 3],
        ['RAW', 'no \\n escape', 4],
        ['MULTI', 'one\ntwo', 5],
        ['BARE', 'value', 6],
        ['EMPTY', '', 8],
      ],
    );
    assert.ok(variables.every((v) => v.category === 'env' && !v.hcl));
    assert.deepEqual(
      problems.map((p) => p.line),
      [9, 10, 11],
    );
    assert.match(problems[2]!.reason, /never closed/);
  });

  it('reads a quoted value spanning lines', () => {
    const { variables, problems } = parseEnv('KEY="first\nsecond"\nNEXT=1');
    assert.deepEqual(problems, []);
    assert.deepEqual(
      variables.map((v) => [v.key, v.value]),
      [
        ['KEY', 'first\nsecond'],
        ['NEXT', '1'],
      ],
    );
  });

  it('reads HCL assignments, keeping values other than plain strings as HCL', () => {
    const { variables, problems } = parseHcl(
      [
        'region = "eu" # comment',
        '// another comment',
        'count  = 3',
        'zones = [',
        '  "a", # first',
        '  "b",',
        ']',
        '/* block',
        '   comment */',
        'tags = { team = "web" }',
        'name = "${var.prefix}-x"',
        'notes = <<EOT',
        'line one',
        'EOT',
        'variable "x" {',
        'broken = [1, 2',
      ].join('\n'),
    );
    assert.deepEqual(
      variables.map((v) => [v.key, v.value, v.hcl, v.line]),
      [
        ['region', 'eu', false, 1],
        ['count', '3', true, 3],
        ['zones', '[\n  "a", \n  "b",\n]', true, 4],
        ['tags', '{ team = "web" }', true, 10],
        ['name', '"${var.prefix}-x"', true, 11],
        ['notes', '<<EOT\nline one\nEOT', true, 12],
      ],
    );
    assert.ok(variables.every((v) => v.category === 'terraform'));
    assert.deepEqual(
      problems.map((p) => p.line),
      [15, 16],
    );
  });
});
