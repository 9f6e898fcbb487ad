import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertSafeBody } from '../src/http/text.js';
import {
  ARRAY_ELEMENTS_LIMIT,
  BODY_LIMIT,
  DEPTH_LIMIT,
  NAME_LENGTH_LIMIT,
  OBJECT_MEMBERS_LIMIT,
  STRING_LENGTH_LIMIT,
  VALUES_LIMIT,
} from '../src/http/limits.js';
import { TestApp } from './support/app.js';
import { createTeam, grantProject, grantWorkspace } from './support/factories/access.js';
import { createRun } from './support/factories/runs.js';
import { createVar, createVarset, expectRejected, uniqueName } from './support/factories/varsets.js';
import { expectStatus, type ApiResponse, errorOf } from './support/requests.js';
import { storeKind } from './support/store.js';

/** `depth` arrays nested in one another: `[[[]]]` is 3. */
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** The values of a parsed body: every object, array, string, number, boolean and null. */
function countValues(value: unknown): number {
  if (Array.isArray(value)) return 1 + value.reduce((sum: number, v) => sum + countValues(v), 0);
  if (typeof value === 'object' && value !== null)
    return 1 + Object.values(value).reduce((sum: number, v) => sum + countValues(v), 0);
  return 1;
}

/** An array of arrays of zeros holding exactly `count` values, itself included, none longer than the element limit. */
function valuesFiller(count: number): number[][] {
  const chunks: number[][] = [];
  for (let left = count - 1; left > 0;) {
    const size = Math.min(left - 1, ARRAY_ELEMENTS_LIMIT);
    chunks.push(new Array<number>(size).fill(0));
    left -= size + 1;
  }
  return chunks;
}

/** Five characters that JSON writes escaped, in four different ways, and one it does not: a string whose text is longer than its length. */
const ESCAPED = '\n"\\\u00e9\u0001';

/**
 * Everything both stores hold, table by table (the time a token was last used aside: the
 * requests themselves use one), to check that a refused request changed nothing at all.
 */
async function storeContents(t: TestApp): Promise<Record<string, string[]>> {
  const contents: Record<string, string[]> = {};
  for (const table of await t.store.db.introspection.getTables()) {
    if (table.isView) continue;
    const rows = await t.store.db
      .selectFrom(table.name as 'organizations')
      .selectAll()
      .execute();
    contents[table.name] = rows.map((row) => JSON.stringify({ ...row, last_used_at: undefined })).sort();
  }
  return contents;
}

describe(`request body limits (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
  });
  after(async () => t.close());

  /** A valid set with `extra` members beside `data`, which a set's creation ignores. */
  const setWith = (extra: Record<string, unknown>) => ({
    data: { type: 'varsets', attributes: { name: uniqueName() } },
    ...extra,
  });
  const create = (body: unknown) => t.post(`/api/v2/organizations/${org}/varsets`, body);

  async function expectLimit(body: unknown, status: number, detail: RegExp): Promise<ApiResponse> {
    const res = await expectRejected(t, org, status, () => create(body));
    assert.match(errorOf(res).detail ?? '', detail);
    return res;
  }

  it(`takes arrays and objects nested ${DEPTH_LIMIT} deep, not ${DEPTH_LIMIT + 1}`, async () => {
    // The body is the first level: `meta` adds the rest.
    expectStatus(await create(JSON.stringify(setWith({})).replace(/}$/, `,"meta":${nested(DEPTH_LIMIT - 1)}}`)), 200);
    await expectLimit(
      JSON.stringify(setWith({})).replace(/}$/, `,"meta":${nested(DEPTH_LIMIT)}}`),
      400,
      new RegExp(`nested at most ${DEPTH_LIMIT} deep`),
    );
    const inAttributes = (depth: number) =>
      `{"data":{"type":"varsets","attributes":{"name":"${uniqueName()}","x":${nested(depth)}}}}`;
    expectStatus(await create(inAttributes(DEPTH_LIMIT - 3)), 200);
    await expectLimit(inAttributes(DEPTH_LIMIT - 2), 400, /nested at most/);
  });

  it(`takes an object of ${OBJECT_MEMBERS_LIMIT} members, not ${OBJECT_MEMBERS_LIMIT + 1}`, async () => {
    const members = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`m${i}`, 0]));
    expectStatus(await create(setWith(members(OBJECT_MEMBERS_LIMIT - 1))), 200);
    await expectLimit(
      setWith(members(OBJECT_MEMBERS_LIMIT)),
      400,
      new RegExp(`at most ${OBJECT_MEMBERS_LIMIT} members`),
    );
  });

  it(`takes an array of ${ARRAY_ELEMENTS_LIMIT} elements, not ${ARRAY_ELEMENTS_LIMIT + 1}`, async () => {
    expectStatus(await create(setWith({ meta: new Array(ARRAY_ELEMENTS_LIMIT).fill(0) })), 200);
    await expectLimit(
      setWith({ meta: new Array(ARRAY_ELEMENTS_LIMIT + 1).fill(0) }),
      400,
      new RegExp(`at most ${ARRAY_ELEMENTS_LIMIT} elements`),
    );
  });

  it(`takes a body of ${VALUES_LIMIT} values, not ${VALUES_LIMIT + 1}`, async () => {
    const withValues = (count: number) => {
      const body: Record<string, unknown> = setWith({ meta: [] });
      body.meta = valuesFiller(count - countValues(body) + 1);
      assert.equal(countValues(body), count);
      return body;
    };
    expectStatus(await create(withValues(VALUES_LIMIT)), 200);
    await expectLimit(withValues(VALUES_LIMIT + 1), 400, new RegExp(`at most ${VALUES_LIMIT} values`));
  });

  it(`takes member names of ${NAME_LENGTH_LIMIT} characters, escapes decoded, not ${NAME_LENGTH_LIMIT + 1}`, async () => {
    for (const name of [
      'n'.repeat(NAME_LENGTH_LIMIT),
      ESCAPED.repeat(NAME_LENGTH_LIMIT / 4).slice(0, NAME_LENGTH_LIMIT),
    ]) {
      assert.equal(name.length, NAME_LENGTH_LIMIT);
      expectStatus(await create(setWith({ [name]: 0 })), 200);
      await expectLimit(
        setWith({ [`${name}x`]: 0 }),
        400,
        new RegExp(`member name .* at most ${NAME_LENGTH_LIMIT} characters`),
      );
    }
  });

  it(`takes strings of ${STRING_LENGTH_LIMIT} characters, escapes decoded, and refuses a longer one at its pointer`, async () => {
    for (const text of [
      's'.repeat(STRING_LENGTH_LIMIT),
      ESCAPED.repeat(STRING_LENGTH_LIMIT / 4).slice(0, STRING_LENGTH_LIMIT),
    ]) {
      expectStatus(await create(setWith({ meta: text })), 200);
      const res = await expectLimit(
        setWith({ meta: `${text}x` }),
        422,
        new RegExp(`^meta is too long \\(.* at most ${STRING_LENGTH_LIMIT} characters\\)$`),
      );
      assert.equal(errorOf(res).source?.pointer, '/meta');
    }
    const long = 'd'.repeat(STRING_LENGTH_LIMIT + 1);
    let res = await expectLimit(
      { data: { type: 'varsets', attributes: { name: 'x', description: long } } },
      422,
      /^description is too long/,
    );
    assert.equal(errorOf(res).source?.pointer, '/data/attributes/description');
    res = await expectLimit(
      { data: { type: 'varsets', attributes: { name: 'x', 'odd/~name': ['short', long] } } },
      422,
      /^element 1 of odd\/~name is too long/,
    );
    assert.equal(errorOf(res).source?.pointer, '/data/attributes/odd~1~0name/1');
  });

  it("takes a set's workspaces as many as a large organization has (50,000), as go-tfe sends them, and values at their own limit", async () => {
    const set = await createVarset(t, org, {});
    const workspaces = Array.from({ length: 50_000 }, (_, i) => ({
      type: 'workspaces',
      id: `ws-${String(i).padStart(16, '0')}`,
    }));
    const res = await t.patch(`/api/v2/varsets/${set.id}`, {
      data: { type: 'varsets', attributes: {}, relationships: { workspaces: { data: workspaces } } },
    });
    // Refused only because no such workspaces exist.
    assert.ok(res.status === 404 || res.status === 422, `${res.status} ${JSON.stringify(res.body)}`);
    const vars = Array.from({ length: 16 }, (_, i) => ({
      type: 'vars',
      attributes: { key: `k${i}`, value: 'v'.repeat(256 * 1024), category: 'terraform' },
    }));
    expectStatus(
      await create({
        data: { type: 'varsets', attributes: { name: uniqueName() }, relationships: { vars: { data: vars } } },
      }),
      200,
    );
  });

  it('finds unsafe text at any depth without recursion', () => {
    let body: unknown = ['x\u0000'];
    for (let i = 0; i < 100_000; i++) body = { a: [body] };
    assert.throws(
      () => assertSafeBody(body),
      (error: { status?: number; errors?: Array<{ source?: { pointer?: string } }> }) =>
        error.status === 422 && error.errors?.[0]?.source?.pointer === `${'/a/0'.repeat(100_000)}/0`,
    );
  });
});

/**
 * The bodies that once overflowed the stack, and others past every limit, sent to every route
 * that takes a body (every POST, PUT, PATCH and DELETE of the OpenAPI document, so a new route
 * is covered as soon as it exists), with the ids of real resources: each is refused with the
 * limit's 4xx and nothing anywhere in the store changes.
 */
describe(`pathological bodies on every write endpoint (${storeKind})`, () => {
  let t: TestApp;
  let ids: Record<string, string>;
  before(async () => {
    t = await TestApp.start();
    const org = await t.createOrganization();
    const project = await t.createProject(org);
    const workspaceName = `ws-${uniqueName()}`;
    const workspace = await t.createWorkspace(org, { name: workspaceName, projectId: project });
    const varset = (await createVarset(t, org, { workspaces: [workspace] })).id;
    const team = await createTeam(t, org);
    const token = await t.post(`/api/v2/teams/${team}/authentication-tokens`, {
      data: { type: 'authentication-tokens', attributes: { description: 'ci' } },
    });
    expectStatus(token, 201);
    const workspaceVar = await t.post(`/api/v2/workspaces/${workspace}/vars`, {
      data: { type: 'vars', attributes: { key: 'k', value: 'v', category: 'env' } },
    });
    expectStatus(workspaceVar, 201);
    const run = await createRun(t, workspace);
    ids = {
      organizations: org,
      projects: project,
      'workspaces/{name}': workspaceName,
      workspaces: workspace,
      varsets: varset,
      'varsets/vars': (await createVar(t, varset, { key: 'k', value: 'v', category: 'terraform' })).id,
      'workspaces/vars': workspaceVar.body.data.id,
      teams: team,
      'authentication-tokens': token.body.data.id,
      'team-workspaces': await grantWorkspace(t, team, workspace, { access: 'read' }),
      'team-projects': await grantProject(t, team, project, { access: 'read' }),
      runs: run.id,
      'configuration-versions': run.relationships['configuration-version'].data.id,
    };
  });
  after(async () => t.close());

  /** `/api/v2/varsets/{id}/relationships/vars/{varId}` with the ids of the resources made above. */
  function withIds(path: string): string {
    const segments = path.split('/');
    return segments
      .map((segment, i) => {
        if (!segment.startsWith('{')) return segment;
        const collection = segments[i - 1]!;
        const key =
          collection === 'vars'
            ? `${segments[3]}/vars`
            : segment === '{name}' && collection === 'workspaces'
              ? 'workspaces/{name}'
              : collection;
        return ids[key] ?? 'none-0123456789abcdef';
      })
      .join('/');
  }

  /** The upload URL takes any body as the bytes of an archive, not as JSON; an unknown secret is a 404. */
  const RAW_BODY = new Set(['PUT /api/v2/uploads/{secret}']);

  const attributes = (inside: string) => `{"data":{"type":"varsets","attributes":{"name":"x",${inside}}}}`;
  const BODIES: Array<{ name: string; text: string; status: number; detail: RegExp }> = [
    { name: 'an array nested 200,000 deep', text: nested(200_000), status: 400, detail: /nested at most/ },
    {
      name: 'an object nested 50,000 deep',
      text: `${'{"a":'.repeat(50_000)}null${'}'.repeat(50_000)}`,
      status: 400,
      detail: /nested at most/,
    },
    {
      name: 'nesting 10,000 deep in the attributes of a valid document',
      text: attributes(`"description":${nested(10_000)}`),
      status: 400,
      detail: /nested at most/,
    },
    {
      name: 'an object of 200,000 members',
      text: attributes(Array.from({ length: 200_000 }, (_, i) => `"m${i}":0`).join(',')),
      status: 400,
      detail: /members/,
    },
    {
      name: 'an array of 1,000,000 elements',
      text: `{"data":[${new Array(1_000_000).fill(0).join(',')}]}`,
      status: 400,
      detail: /elements/,
    },
    {
      name: 'a million values',
      text: JSON.stringify({ data: valuesFiller(1_000_000) }),
      status: 400,
      detail: /values/,
    },
    {
      name: 'a 3 MiB string',
      text: attributes(`"description":"${'s'.repeat(3 * 1024 * 1024)}"`),
      status: 422,
      detail: /too long/,
    },
    {
      name: 'a 3 MiB member name',
      text: attributes(`"${'n'.repeat(3 * 1024 * 1024)}":0`),
      status: 400,
      detail: /member name/,
    },
  ];

  it('refuses each with its 4xx on every route that takes a body, changing nothing', async () => {
    assert.ok(BODIES.every(({ text }) => Buffer.byteLength(text) < BODY_LIMIT));
    const document = (await t.get('/api/v2/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(document.paths).flatMap(([path, item]) =>
      ['post', 'put', 'patch', 'delete']
        .filter((method) => item[method])
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    assert.ok(routes.length > 50, `only ${routes.length} routes take a body`);
    for (const route of RAW_BODY) assert.ok(routes.includes(route), route);

    const stored = await storeContents(t);
    assert.ok(
      stored.varsets!.length > 0 && stored.runs!.length > 0 && stored.team_workspaces!.length > 0,
      'the store holds what the routes could change',
    );
    for (const route of routes) {
      const [method, path] = route.split(' ') as [string, string];
      for (const { name, text, status, detail } of BODIES) {
        const res = await t.request(method, withIds(path), { body: text });
        const what = `${route} with ${name}: ${res.status} ${JSON.stringify(res.body)}`;
        if (RAW_BODY.has(route)) {
          assert.ok(res.status >= 400 && res.status < 500, what);
          continue;
        }
        assert.equal(res.status, status, what);
        assert.equal(errorOf(res).status, String(status), what);
        assert.match(errorOf(res).detail ?? '', detail, what);
      }
    }
    assert.deepEqual(await storeContents(t), stored, 'a refused request changed nothing');
  });
});
