import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestApp, storeKind } from './helpers.js';

/**
 * The OpenAPI document varsetd generates from its route schemas, checked against HashiCorp's
 * own document for the endpoints in scope: every operation there is served here, at the same
 * path and method, with the same success status, or is one of the deliberate differences
 * below (the README's API section gives the same reasons).
 */
const REFERENCE = path.resolve(import.meta.dirname, '../../shared/reference/hcp-terraform-openapi.subset.json');

/** `METHOD path` → why varsetd differs. Paths as in HashiCorp's document, parameters named `{}`. */
const DIFFERENCES: Record<string, string> = {
  'POST /organizations/{}/varsets': 'answers 200, as the specification and HCP Terraform do (the OpenAPI document says 201)',
  'POST /varsets/{}/relationships/vars': 'answers 200, as the specification and HCP Terraform do (the OpenAPI document says 201)',
  'POST /varsets/{}/relationships/stacks': 'stacks are outside varsetd',
  'DELETE /varsets/{}/relationships/stacks': 'stacks are outside varsetd',
  'GET /account/details': 'varsetd has no users: tokens stand for teams, organizations and the site administrator',
  'GET /runs': 'not served yet: runs are listed per workspace (GET /workspaces/{}/runs)',
  'GET /workspaces/{}/applicable-varsets': 'not served yet: GET /organizations/{}/varsets lists the candidates',
  'GET /workspaces/{}/varsets/{}/relationships/vars': 'not served yet: GET /workspaces/{}/effective-variables tells what overrides what',
  'GET /workspaces/{}/varsets/{}/relationships/vars/{}': 'not served yet: GET /workspaces/{}/effective-variables tells what overrides what',
};

type Operations = Map<string, string[]>;

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** `METHOD path` → its success statuses, with the `/api/v2` prefix removed and parameters unnamed. */
function operations(document: { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> }): Operations {
  const found: Operations = new Map();
  for (const [rawPath, item] of Object.entries(document.paths)) {
    const normalized = rawPath.replace(/^\/api\/v2/, '').replace(/\{[^}]+\}/g, '{}');
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const statuses = Object.keys(operation.responses ?? {}).filter((s) => /^2\d\d$/.test(s));
      found.set(`${method.toUpperCase()} ${normalized}`, statuses);
    }
  }
  return found;
}

describe(`OpenAPI document (${storeKind})`, () => {
  let t: TestApp;
  before(async () => {
    t = await TestApp.start();
  });
  after(async () => t.close());

  it('is served without a token at /api/v2/openapi.json as an OpenAPI 3 document of the /api/v2 routes', async () => {
    const res = await t.request('GET', '/api/v2/openapi.json', { token: null });
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.match(res.body.openapi, /^3\./);
    assert.equal(res.body.info.title, 'varsetd');
    const paths = Object.keys(res.body.paths);
    assert.ok(paths.length > 40, `only ${paths.length} paths`);
    assert.ok(paths.every((p) => p.startsWith('/api/v2/') || p === '/.well-known/terraform.json'), paths.join(', '));
    assert.ok(!paths.includes('/api/v2/openapi.json'));
  });

  it('serves every operation of HashiCorp’s document at the same path and method with the same success status, except the listed differences', async () => {
    const reference = operations(JSON.parse(fs.readFileSync(REFERENCE, 'utf8')));
    const served = operations((await t.request('GET', '/api/v2/openapi.json', { token: null })).body);
    const problems: string[] = [];
    for (const [operation, statuses] of reference) {
      if (operation in DIFFERENCES) continue;
      const ours = served.get(operation);
      if (!ours) problems.push(`${operation}: not served`);
      else if (!statuses.every((s) => ours.includes(s))) problems.push(`${operation}: answers ${ours.join(', ')}, HashiCorp's document ${statuses.join(', ')}`);
    }
    assert.deepEqual(problems, []);
    // A difference that no longer is one must leave the list (and the README).
    const stale = Object.keys(DIFFERENCES).filter((operation) => {
      const ours = served.get(operation);
      return ours !== undefined && reference.get(operation)!.every((s) => ours.includes(s));
    });
    assert.deepEqual(stale, []);
    assert.ok(Object.keys(DIFFERENCES).every((operation) => reference.has(operation)));
  });

  it('declares a JSON:API error document for the 4xx answers of every operation', async () => {
    const document = (await t.request('GET', '/api/v2/openapi.json', { token: null })).body;
    const missing: string[] = [];
    for (const [p, item] of Object.entries<Record<string, { responses?: Record<string, unknown> }>>(document.paths)) {
      for (const method of METHODS) {
        const operation = item[method];
        if (operation && p.startsWith('/api/v2/') && !operation.responses?.['4XX']) missing.push(`${method.toUpperCase()} ${p}`);
      }
    }
    assert.deepEqual(missing, []);
  });
});
