import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestApp } from './support/app.js';
import { storeKind } from './support/store.js';

/**
 * The OpenAPI document varsetd generates from its route schemas, checked against HashiCorp's
 * own document for the endpoints in scope: every operation there is served here, at the same
 * path and method, with the same success status, or is one of the deliberate differences
 * below (docs/api.md gives the same reasons). What the check needs of HashiCorp's
 * document (HASHICORP_DOCUMENT, a subset of it under MPL-2.0: see the NOTICE.md beside it) is
 * kept in OPERATIONS_FIXTURE, which must match the document.
 */
const OPERATIONS_FIXTURE = path.join(import.meta.dirname, 'fixtures/hcp-terraform-operations.json');
const HASHICORP_DOCUMENT = path.join(import.meta.dirname, 'fixtures/hashicorp/hcp-terraform-openapi.subset.json');

/** `METHOD path` → why varsetd differs. Paths as in HashiCorp's document, parameters named `{}`. */
const DIFFERENCES: Record<string, string> = {
  'POST /organizations/{}/varsets':
    'answers 200, as the specification and HCP Terraform do (the OpenAPI document says 201)',
  'POST /varsets/{}/relationships/vars':
    'answers 200, as the specification and HCP Terraform do (the OpenAPI document says 201)',
  'POST /varsets/{}/relationships/stacks': 'stacks are outside varsetd',
  'DELETE /varsets/{}/relationships/stacks': 'stacks are outside varsetd',
  'GET /account/details': 'varsetd has no users: tokens stand for teams, organizations and the site administrator',
  'GET /runs': 'not served yet: runs are listed per workspace (GET /workspaces/{}/runs)',
  'GET /workspaces/{}/applicable-varsets': 'not served yet: GET /organizations/{}/varsets lists the candidates',
  'GET /workspaces/{}/varsets/{}/relationships/vars':
    'not served yet: GET /workspaces/{}/effective-variables tells what overrides what',
  'GET /workspaces/{}/varsets/{}/relationships/vars/{}':
    'not served yet: GET /workspaces/{}/effective-variables tells what overrides what',
};

type Operations = Map<string, string[]>;

/** One operation of an OpenAPI document, as the fixture keeps it. */
interface OperationFacts {
  method: string;
  /** Without the `/api/v2` prefix, parameters written `{}`. */
  path: string;
  successStatuses: string[];
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** Every operation of an OpenAPI document, ordered by path, then method. */
function operationFacts(document: {
  paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
}): OperationFacts[] {
  const found: OperationFacts[] = [];
  for (const [rawPath, item] of Object.entries(document.paths)) {
    const normalized = rawPath.replace(/^\/api\/v2/, '').replace(/\{[^}]+\}/g, '{}');
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const successStatuses = Object.keys(operation.responses ?? {}).filter((s) => /^2\d\d$/.test(s));
      found.push({ method: method.toUpperCase(), path: normalized, successStatuses });
    }
  }
  const order = (facts: OperationFacts) => `${facts.path} ${METHODS.indexOf(facts.method.toLowerCase())}`;
  return found.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

/** `METHOD path` → its success statuses. */
const byOperation = (facts: OperationFacts[]): Operations =>
  new Map(facts.map((f) => [`${f.method} ${f.path}`, f.successStatuses]));

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
    assert.ok(
      paths.every((p) => p.startsWith('/api/v2/') || p === '/.well-known/terraform.json'),
      paths.join(', '),
    );
    assert.ok(!paths.includes('/api/v2/openapi.json'));
  });

  it('serves every operation of HashiCorp’s document at the same path and method with the same success status, except the listed differences', async () => {
    const reference = byOperation(JSON.parse(fs.readFileSync(OPERATIONS_FIXTURE, 'utf8')));
    assert.ok(reference.size > 0, 'the fixture lists no operation');
    const served = byOperation(operationFacts((await t.request('GET', '/api/v2/openapi.json', { token: null })).body));
    const problems: string[] = [];
    for (const [operation, statuses] of reference) {
      if (operation in DIFFERENCES) continue;
      const ours = served.get(operation);
      if (!ours) problems.push(`${operation}: not served`);
      else if (!statuses.every((s) => ours.includes(s)))
        problems.push(`${operation}: answers ${ours.join(', ')}, HashiCorp's document ${statuses.join(', ')}`);
    }
    assert.deepEqual(problems, []);
    // A difference that no longer is one must leave the list (and docs/api.md).
    const stale = Object.keys(DIFFERENCES).filter((operation) => {
      const ours = served.get(operation);
      return ours !== undefined && reference.get(operation)!.every((s) => ours.includes(s));
    });
    assert.deepEqual(stale, []);
    assert.ok(Object.keys(DIFFERENCES).every((operation) => reference.has(operation)));
  });

  it('keeps in its fixture exactly the operations of HashiCorp’s document', () => {
    const fixture: OperationFacts[] = JSON.parse(fs.readFileSync(OPERATIONS_FIXTURE, 'utf8'));
    assert.deepEqual(fixture, operationFacts(JSON.parse(fs.readFileSync(HASHICORP_DOCUMENT, 'utf8'))));
  });

  it('declares a JSON:API error document for the 4xx answers of every operation', async () => {
    const document = (await t.request('GET', '/api/v2/openapi.json', { token: null })).body;
    const missing: string[] = [];
    for (const [p, item] of Object.entries<Record<string, { responses?: Record<string, unknown> }>>(document.paths)) {
      for (const method of METHODS) {
        const operation = item[method];
        if (operation && p.startsWith('/api/v2/') && !operation.responses?.['4XX'])
          missing.push(`${method.toUpperCase()} ${p}`);
      }
    }
    assert.deepEqual(missing, []);
  });

  it('groups every operation under a tag the document lists, by resource, none under "default"', async () => {
    // With the workload identity issuer on, so that its routes are in the document too.
    const issuing = await TestApp.start({
      workloadIdentity: { issuer: 'https://varsetd.example', tokenTtlMs: 60_000, runLifetimeMs: 3_600_000 },
    });
    try {
      const document = (await issuing.request('GET', '/api/v2/openapi.json', { token: null })).body;
      const listed = new Set((document.tags as { name: string; description: string }[]).map((tag) => tag.name));
      assert.ok(listed.size >= 10, [...listed].join(', '));
      const untagged: string[] = [];
      const used = new Map<string, string[]>();
      for (const [p, item] of Object.entries<Record<string, { tags?: string[] }>>(document.paths)) {
        for (const method of METHODS) {
          const operation = item[method];
          if (!operation) continue;
          const name = `${method.toUpperCase()} ${p}`;
          if (operation.tags?.length !== 1 || !listed.has(operation.tags[0]!)) untagged.push(name);
          else used.set(operation.tags[0]!, [...(used.get(operation.tags[0]!) ?? []), name]);
        }
      }
      assert.deepEqual(untagged, []);
      // Every tag listed groups some operation, and a few land where a reader looks for them.
      assert.deepEqual(
        [...listed].filter((tag) => !used.has(tag)),
        [],
      );
      assert.ok(used.get('Variable sets')!.includes('GET /api/v2/organizations/{organization}/varsets'));
      assert.ok(
        used.get('Variable set versions')!.includes('GET /api/v2/organizations/{organization}/deleted-varsets'),
      );
      assert.ok(used.get('Workload identity')!.includes('GET /.well-known/jwks'));
      assert.ok(used.get('Service')!.includes('GET /.well-known/terraform.json'));
    } finally {
      await issuing.close();
    }
  });

  it("gives every body the media type it is sent in: JSON:API, as HashiCorp's document does, but the audit trail's plain JSON answer and an export's download", async () => {
    const document = (await t.request('GET', '/api/v2/openapi.json', { token: null })).body;
    const types = new Map<string, string[]>();
    type Operation = { requestBody?: { content?: object }; responses?: Record<string, { content?: object }> };
    for (const [p, item] of Object.entries<Record<string, Operation>>(document.paths)) {
      for (const method of METHODS) {
        const operation = item[method];
        if (!operation || !p.startsWith('/api/v2/')) continue;
        const bodies: [string, object | undefined][] = [
          ['request', operation.requestBody?.content],
          ...Object.entries(operation.responses ?? {}).map(([status, r]): [string, object | undefined] => [
            status,
            r.content,
          ]),
        ];
        for (const [which, content] of bodies) {
          for (const type of Object.keys(content ?? {}))
            types.set(type, [...(types.get(type) ?? []), `${method.toUpperCase()} ${p} ${which}`]);
        }
      }
    }
    assert.deepEqual([...types.keys()].sort(), ['application/json', 'application/vnd.api+json', 'text/plain']);
    assert.deepEqual(types.get('application/json'), [
      'GET /api/v2/organization/audit-trail 200',
      'GET /api/v2/organizations/{organization}/varset-export 200',
    ]);
    assert.deepEqual(types.get('text/plain'), ['GET /api/v2/organizations/{organization}/varset-export 200']);
  });
});
