import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { UI_PAGES, isUiPage } from '../src/ui/pages.js';
import { ROOT } from './support/processes.js';

/**
 * The server answers the UI's page only at the paths of the UI's routes (src/ui/pages.ts); the
 * routes themselves are ui/src/main.tsx's. The server imports nothing of ui/, so this keeps the two
 * lists one.
 */
describe('the pages of the web UI', () => {
  it('are the routes of ui/src/main.tsx, every one of them and no other', () => {
    const source = fs.readFileSync(path.join(ROOT, 'ui', 'src', 'main.tsx'), 'utf8');
    const routes = [...source.matchAll(/<Route\b[^>]*\bpath="([^"]*)"/g)]
      .map(([, route]) => route!)
      .filter((route) => route !== '*');
    assert.ok(routes.length > 10, `only ${routes.length} routes found in ui/src/main.tsx`);
    assert.deepEqual([...UI_PAGES].sort(), routes.sort());
  });

  it('match a path as React Router does: a parameter is one segment, any case, a trailing slash allowed', () => {
    for (const page of [
      '/',
      '/organizations/acme',
      '/Organizations/acme/varsets/',
      '/varsets/varset-1/history',
      '/runs/run-1?x=1'.split('?')[0]!,
    ])
      assert.ok(isUiPage(page), page);
    for (const other of [
      '/health',
      '/healthz/',
      '/api/anything',
      '/metrics/x',
      '/organizations',
      '/organizations/',
      '/varsets/a/b',
      '/organizations/acme/varsets/new/more',
      '//',
      '/x',
    ])
      assert.ok(!isUiPage(other), other);
  });
});
