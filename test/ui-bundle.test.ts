import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT } from './support/processes.js';
import { buildUi } from './support/ui.js';

/**
 * The budget of the web UI's first load: the JavaScript and CSS that dist/web/index.html loads,
 * gzip-compressed, at most 150 KiB. Sizes of a build are deterministic, so this is a check, not
 * a measurement.
 */

export const FIRST_LOAD_BUDGET = 150 * 1024;
const WEB = path.join(ROOT, 'dist', 'web');

/** The files index.html loads, as paths under dist/web. */
function firstLoadFiles(html: string): string[] {
  const references = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
  return references.filter((r) => /\.(js|css)$/.test(r)).map((r) => path.join(WEB, r.replace(/^\//, '')));
}

describe('the built web UI', () => {
  let html: string;

  before(async () => {
    await buildUi();
    html = fs.readFileSync(path.join(WEB, 'index.html'), 'utf8');
  });

  it(`loads at most ${FIRST_LOAD_BUDGET / 1024} KiB of JavaScript and CSS, gzipped, on its first page`, () => {
    const files = firstLoadFiles(html);
    assert.ok(
      files.some((f) => f.endsWith('.js')) && files.some((f) => f.endsWith('.css')),
      `index.html loads ${files.join(', ')}`,
    );
    // Modules the entry imports statically are loaded at once too: count every chunk it names.
    const chunks = new Set(files);
    for (const file of files.filter((f) => f.endsWith('.js'))) {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/from"\.\/([^"]+\.js)"/g))
        chunks.add(path.join(path.dirname(file), m[1]!));
    }
    const sizes = [...chunks].map((file) => ({
      file: path.relative(WEB, file),
      gzipped: gzipSync(fs.readFileSync(file), { level: 9 }).length,
    }));
    const total = sizes.reduce((sum, s) => sum + s.gzipped, 0);
    assert.ok(total <= FIRST_LOAD_BUDGET, `first load is ${total} bytes gzipped: ${JSON.stringify(sizes)}`);
  });

  it('has no inline script or style, so the Content-Security-Policy needs no unsafe-inline', () => {
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'an inline <script>');
    assert.doesNotMatch(html, /<style\b/, 'an inline <style>');
    assert.doesNotMatch(html, /\sstyle="/, 'a style attribute');
    assert.doesNotMatch(html, /\son[a-z]+="/, 'an inline event handler');
  });
});
