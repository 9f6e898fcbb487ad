import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { runVarsetd, varsetdEnv } from './support/processes.js';
import { createTestStore, storeKind, type TestStore } from './support/store.js';

const TOKEN = 'hcp-fixture-token-0123456789';

/** A list as HCP Terraform pages it: at most two resources a page whatever is asked, `meta.pagination` saying where the next is. */
function page(resources: unknown[], query: URLSearchParams) {
  const size = 2;
  const number = Number(query.get('page[number]') ?? 1);
  const pages = Math.max(1, Math.ceil(resources.length / size));
  const pagination = {
    'current-page': number,
    'page-size': size,
    'prev-page': number > 1 ? number - 1 : null,
    'next-page': number < pages ? number + 1 : null,
    'total-pages': pages,
    'total-count': resources.length,
  };
  return { data: resources.slice((number - 1) * size, number * size), links: {}, meta: { pagination } };
}

const variable = (id: string, key: string, attributes: Record<string, unknown>) => ({
  id,
  type: 'vars',
  attributes: {
    key,
    value: '',
    description: '',
    category: 'terraform',
    hcl: false,
    sensitive: false,
    'version-id': 'v1',
    'created-at': '2026-01-01T00:00:00.000Z',
    ...attributes,
  },
  relationships: { varset: { data: { id: 'varset-Aaaaaaaaaaaaaaaa', type: 'varsets' } } },
  links: { self: `/api/v2/vars/${id}` },
});

/** An organization as HCP Terraform's documented responses show it. */
const ROUTES: Record<string, unknown[] | { data: unknown[] }> = {
  '/api/v2/organizations/hashi/projects': [
    { id: 'prj-Default000000000', type: 'projects', attributes: { name: 'Default Project' } },
    { id: 'prj-Network00000000', type: 'projects', attributes: { name: 'network' } },
  ],
  '/api/v2/organizations/hashi/workspaces': ['vpc', 'dns', 'app'].map((name, i) => ({
    id: `ws-${name.padEnd(16, '0')}`,
    type: 'workspaces',
    // vpc's tags: one twice, and one varsetd refuses (HCP Terraform's rule: lower case), which alone is skipped.
    attributes: { name, 'tag-names': name === 'vpc' ? ['prod', 'network', 'prod', 'Upper'] : ['prod'] },
    relationships: {
      project: { data: { id: i < 2 ? 'prj-Network00000000' : 'prj-Default000000000', type: 'projects' } },
      organization: { data: { id: 'hashi', type: 'organizations' } },
    },
  })),
  '/api/v2/organizations/hashi/varsets': [
    {
      id: 'varset-Aaaaaaaaaaaaaaaa',
      type: 'varsets',
      attributes: {
        name: 'aws',
        description: 'credentials',
        global: false,
        priority: true,
        'updated-at': '2026-01-01T00:00:00.000Z',
        'var-count': 2,
        'workspace-count': 1,
        'project-count': 1,
      },
      relationships: {
        organization: { data: { id: 'hashi', type: 'organizations' } },
        vars: { data: [{ id: 'var-Key0000000000000', type: 'vars' }] },
        workspaces: { data: [{ id: 'ws-app0000000000000', type: 'workspaces' }] },
        projects: { data: [{ id: 'prj-Network00000000', type: 'projects' }] },
        parent: { data: { id: 'hashi', type: 'organizations' } },
      },
    },
    {
      id: 'varset-Bbbbbbbbbbbbbbbb',
      type: 'varsets',
      attributes: { name: 'network defaults', description: '', global: false, priority: false },
      relationships: {
        vars: { data: [] },
        workspaces: { data: [{ id: 'ws-vpc0000000000000', type: 'workspaces' }] },
        projects: { data: [] },
        parent: { data: { id: 'prj-Network00000000', type: 'projects' } },
      },
    },
    {
      id: 'varset-Cccccccccccccccc',
      type: 'varsets',
      attributes: { name: 'everywhere', description: '', global: true, priority: false },
      relationships: {},
    },
  ],
  '/api/v2/varsets/varset-Aaaaaaaaaaaaaaaa/relationships/vars': [
    variable('var-Key0000000000000', 'AWS_ACCESS_KEY_ID', { value: 'AKIA', category: 'env' }),
    variable('var-Secret0000000000', 'AWS_SECRET_ACCESS_KEY', { value: null, category: 'env', sensitive: true }),
  ],
  '/api/v2/varsets/varset-Bbbbbbbbbbbbbbbb/relationships/vars': [
    variable('var-Cidr000000000000', 'cidr', { value: '10.0.0.0/16' }),
  ],
  '/api/v2/varsets/varset-Cccccccccccccccc/relationships/vars': [
    variable('var-Tags000000000000', 'tags', { value: '{ owner = "platform" }', hcl: true }),
  ],
  // HCP Terraform answers a workspace's variables on one page, with no pagination.
  '/api/v2/workspaces/ws-vpc0000000000000/vars': {
    data: [variable('var-Region0000000000', 'region', { value: 'us-east-1', description: 'where' })],
  },
  '/api/v2/workspaces/ws-dns0000000000000/vars': { data: [] },
  '/api/v2/workspaces/ws-app0000000000000/vars': { data: [] },
};

describe(`varsetd import from HCP Terraform's documented response shapes (${storeKind})`, () => {
  let store: TestStore;
  let fixture: http.Server;
  let dir: string;
  let limited = false;
  const varsetd = (...args: string[]) => runVarsetd(args, varsetdEnv(store));

  before(async () => {
    store = await createTestStore();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-hcp-'));
    fs.writeFileSync(path.join(dir, 'token'), TOKEN);
    fixture = http.createServer((req, res) => {
      const url = new URL(req.url!, 'http://fixture');
      const route = ROUTES[url.pathname];
      if (req.headers.authorization !== `Bearer ${TOKEN}` || route === undefined) {
        res.writeHead(req.headers.authorization === `Bearer ${TOKEN}` ? 404 : 401).end();
        return;
      }
      // Rate limited once, the wait given as an HTTP date.
      if (!limited && url.pathname.endsWith('/varsets')) {
        limited = true;
        res.writeHead(429, { 'retry-after': new Date(Date.now() + 1_000).toUTCString() }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/vnd.api+json' });
      res.end(JSON.stringify(Array.isArray(route) ? page(route, url.searchParams) : route));
    });
    await new Promise<void>((resolve) => fixture.listen(0, '127.0.0.1', resolve));
    assert.equal((await varsetd('organizations', 'create', 'hashi', '--email', 'ops@example.com')).code, 0);
  });
  after(async () => {
    fixture.close();
    await store.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('imports every set, assignment and workspace variable; the sensitive one needs a value', async () => {
    const from = `http://127.0.0.1:${(fixture.address() as AddressInfo).port}`;
    const run = await varsetd(
      'import',
      '--from',
      from,
      '--token-file',
      path.join(dir, 'token'),
      '--organization',
      'hashi',
      '--json',
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(limited, true);
    const report = JSON.parse(run.stdout);
    assert.deepEqual(
      report.sets.map((s: { name: string; result: string }) => [s.name, s.result]),
      [
        ['aws', 'created'],
        ['network defaults', 'created'],
        ['everywhere', 'created'],
      ],
    );
    assert.deepEqual(report['workspace-variables'], [
      { workspace: 'vpc', key: 'region', category: 'terraform', result: 'created' },
    ]);

    assert.deepEqual(report['workspace-tags'], [
      {
        workspace: 'vpc',
        tag: 'Upper',
        result: 'skipped',
        why: 'a tag name is lower-case letters, digits, ":", "_" and "-", at most 255, starting with a letter or a digit',
      },
      { workspace: 'vpc', tag: 'network', result: 'created' },
      { workspace: 'vpc', tag: 'prod', result: 'created' },
      { workspace: 'dns', tag: 'prod', result: 'created' },
      { workspace: 'app', tag: 'prod', result: 'created' },
    ]);

    const exported = await varsetd('export', '--organization', 'hashi');
    assert.equal(exported.code, 0, exported.stderr);
    assert.deepEqual(JSON.parse(exported.stdout), [
      {
        name: 'aws',
        description: 'credentials',
        global: false,
        priority: true,
        project: null,
        workspaces: ['app'],
        projects: ['network'],
        variables: [
          { key: 'AWS_ACCESS_KEY_ID', category: 'env', hcl: false, sensitive: false, description: '', value: 'AKIA' },
          { key: 'AWS_SECRET_ACCESS_KEY', category: 'env', hcl: false, sensitive: true, description: '' },
        ],
      },
      {
        name: 'everywhere',
        description: '',
        global: true,
        priority: false,
        project: null,
        workspaces: [],
        projects: [],
        variables: [
          {
            key: 'tags',
            category: 'terraform',
            hcl: true,
            sensitive: false,
            description: '',
            value: '{ owner = "platform" }',
          },
        ],
      },
      {
        name: 'network defaults',
        description: '',
        global: false,
        priority: false,
        project: 'network',
        workspaces: ['vpc'],
        projects: [],
        variables: [
          { key: 'cidr', category: 'terraform', hcl: false, sensitive: false, description: '', value: '10.0.0.0/16' },
        ],
      },
    ]);
    const aws = report.sets[0].variables.find((v: { key: string }) => v.key === 'AWS_SECRET_ACCESS_KEY');
    assert.equal(aws['value-needed'], true);

    // Again: the tags are held, so nothing is written; the report says each is unchanged.
    const again = await varsetd(
      'import',
      '--from',
      from,
      '--token-file',
      path.join(dir, 'token'),
      '--organization',
      'hashi',
    );
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^workspace tags: 1 skipped, 4 unchanged$/m);
  });

  it('refuses a refused token, writing nothing', async () => {
    fs.writeFileSync(path.join(dir, 'wrong'), 'not-the-token');
    const from = `http://127.0.0.1:${(fixture.address() as AddressInfo).port}`;
    const run = await varsetd(
      'import',
      '--from',
      from,
      '--token-file',
      path.join(dir, 'wrong'),
      '--organization',
      'hashi',
      '--into',
      'hashi',
    );
    assert.equal(run.code, 1);
    assert.equal(
      run.stderr,
      `varsetd import: reading ${from}: the source answered 401 to GET /organizations/hashi/projects\n`,
    );
  });
});
