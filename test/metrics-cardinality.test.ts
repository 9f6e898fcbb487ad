import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { TestApp } from './support/app.js';
import { parseMetrics, type Family } from './support/metrics.js';
import { ADMIN_TOKEN, expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';

/**
 * Label values never carry users' data. A fuzzing pass sends requests of many shapes (random
 * ids, names and query strings, random methods, bad bodies, unknown paths, 401s, 404s, 422s);
 * then every label value of every series must be one of a fixed set or pattern, and a second
 * pass of the same shapes with other random values must add no series at all.
 */

/** Every random value sent carries this, so that a label holding one is found whatever the metric. */
const MARK = 'zq';
const random = (length = 10) =>
  `${MARK}${Array.from({ length }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[randomInt(36)]).join('')}`;
/** Path segments of one kind each: plain, dashed, encoded, long, with encoded slashes, not valid UTF-8, longer than any name. */
const ODD_TEXTS = [
  () => random(),
  () => `${random(4)}-${random(4)}`,
  () => `${random(3)}%20%C3%A9${random(3)}`,
  () => `var-${random(20)}`,
  () => `${random(2)}%2F..%2F${random(2)}`,
  () => `${random(3)}%E0%A4%A`,
  () => random(300),
];

const METHODS = ['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS', 'PROPFIND', 'SEARCH', 'MKCOL'];
const TOKENS = {
  admin: `Bearer ${ADMIN_TOKEN}`,
  none: undefined,
  wrong: () => `Bearer ${random(40)}`,
  malformed: () => `Token ${random()}`,
};
const BODIES = {
  none: () => undefined,
  invalidJson: () => `{"data": ${random()}`,
  empty: () => '{}',
  wrongType: () => JSON.stringify({ data: { type: random(), attributes: { name: random(), [random()]: random() } } }),
  organization: () =>
    JSON.stringify({
      data: { type: 'organizations', attributes: { name: random(), email: `${random()}@example.com` } },
    }),
  badName: () =>
    JSON.stringify({
      data: { type: 'organizations', attributes: { name: `${random()} with spaces`, email: 'x@example.com' } },
    }),
};

/** One request's shape: what stays the same between passes. Its random parts are drawn anew each time it is sent. */
interface Shape {
  method: string;
  /** A path with `{param}` placeholders, or one of the unknown shapes. */
  path: string;
  token: keyof typeof TOKENS;
  body: keyof typeof BODIES;
  query: boolean;
  /** Which of ODD_TEXTS fills the path's parameters. */
  text: number;
}

function fill(path: string, text: number): string {
  const oddText = ODD_TEXTS[text]!;
  if (path === 'unknown') return `/${random()}/${oddText()}`;
  if (path === 'unknown-api') return `/api/v2/${random()}/${oddText()}/${random()}`;
  return path.replace(/\{[^}]+\}/g, () => oddText());
}

function queryString(): string {
  const parameters = [
    `filter%5B${random(4)}%5D%5Bname%5D=${random()}`,
    `page%5Bnumber%5D=${random(3)}`,
    `${random()}=${random()}`,
    `q=${random()}%20${random(3)}`,
    `include=${random()}`,
  ];
  return `?${parameters.join('&')}`;
}

async function send(t: TestApp, shape: Shape): Promise<number> {
  const token = TOKENS[shape.token];
  const authorization = typeof token === 'function' ? token() : token;
  const payload = BODIES[shape.body]();
  const res = await t.app.inject({
    method: shape.method as 'GET',
    url: fill(shape.path, shape.text) + (shape.query ? queryString() : ''),
    headers: {
      ...(authorization ? { authorization } : {}),
      ...(payload !== undefined ? { 'content-type': 'application/vnd.api+json' } : {}),
    },
    ...(payload !== undefined ? { payload } : {}),
  });
  return res.statusCode;
}

/** The global rule's 422, with an organization and sets of random names. */
async function globalConflict(t: TestApp): Promise<void> {
  const org = await t.createOrganization(random().toLowerCase());
  const set = (name: string) => ({
    data: {
      type: 'varsets',
      attributes: { name, global: true },
      relationships: { vars: { data: [{ type: 'vars', attributes: { key: 'shared', category: 'env' } }] } },
    },
  });
  expectStatus(await t.post(`/api/v2/organizations/${org}/varsets`, set(random())), 200);
  expectStatus(await t.post(`/api/v2/organizations/${org}/varsets`, set(random())), 422);
}

/** Each label of the metrics varsetd defines, with the values it may take. */
function allowedValue(t: TestApp, label: string, value: string, labels: Record<string, string>): boolean {
  switch (label) {
    case 'route':
      return (
        value === 'unmatched' ||
        t.app.hasRoute({ url: value, method: labels.method === 'other' ? 'GET' : (labels.method as 'GET') }) ||
        t.app.hasRoute({ url: value, method: 'GET' })
      );
    case 'method':
      return ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'other'].includes(value);
    case 'status':
      return /^[1-5]\d\d$/.test(value);
    case 'le':
      return /^(\d+(\.\d+)?|\+Inf)$/.test(value);
    case 'result':
      return ['hit', 'miss', 'uncacheable'].includes(value);
    case 'kind':
      return /^(sqlstate_[0-9A-Z]{2}|SQLITE_[A-Z]+|connect|connection|other)$/.test(value);
    case 'version':
      return /^\d+\.\d+\.\d+/.test(value);
    case 'node_version':
      return value === process.version;
    default:
      return false;
  }
}

/** Every series, as `name{label="value",…}`. */
const seriesOf = (families: Family[]) =>
  new Set(families.flatMap((f) => f.samples.map((s) => `${s.name}${JSON.stringify(s.labels)}`)));

describe(`metric labels stay bounded whatever the requests (${storeKind})`, () => {
  let t: TestApp;
  let shapes: Shape[];
  before(async () => {
    t = await TestApp.start();
    const openapi = await t.get('/api/v2/openapi.json');
    const paths = [...Object.keys(openapi.body.paths), '/metrics', '/', 'unknown', 'unknown-api'];
    const pick = <T>(list: readonly T[]) => list[randomInt(list.length)]!;
    shapes = Array.from({ length: 600 }, () => ({
      method: pick(METHODS),
      path: pick(paths),
      token: pick(Object.keys(TOKENS) as (keyof typeof TOKENS)[]),
      body: pick(Object.keys(BODIES) as (keyof typeof BODIES)[]),
      query: randomInt(2) === 1,
      text: randomInt(ODD_TEXTS.length),
    }));
    // A read that succeeds (few random shapes do: a pass of 600 has reached none), a created organization
    // and a refused name, whose bodies hold random names.
    shapes.push({ method: 'GET', path: '/api/v2/organizations', token: 'admin', body: 'none', query: false, text: 0 });
    shapes.push({
      method: 'POST',
      path: '/api/v2/organizations',
      token: 'admin',
      body: 'organization',
      query: false,
      text: 0,
    });
    shapes.push({
      method: 'POST',
      path: '/api/v2/organizations',
      token: 'admin',
      body: 'badName',
      query: false,
      text: 0,
    });
  });
  after(async () => t.close());

  const scrape = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(res.statusCode, 200);
    return parseMetrics(res.body);
  };

  it('labels every series with fixed values only, and a second pass of other random values adds no series', async () => {
    await scrape(); // so that the scrapes' own series are there before the first pass is read
    const statuses = new Set<number>();
    for (const shape of shapes) statuses.add(await send(t, shape));
    await globalConflict(t);
    // The pass reached the answers it is meant to reach.
    for (const status of [200, 201, 400, 401, 404, 422])
      assert.ok(statuses.has(status), `no ${status} among ${[...statuses].join()}`);
    const first = await scrape();

    for (const family of first) {
      const ours = family.name.startsWith('varsetd_');
      for (const sample of family.samples) {
        for (const [label, value] of Object.entries(sample.labels)) {
          assert.ok(
            !value.toLowerCase().includes(MARK),
            `${sample.name} ${label}="${value}" holds a value a request sent`,
          );
          if (ours)
            assert.ok(
              allowedValue(t, label, value, sample.labels),
              `${sample.name} ${label}="${value}" is not an allowed value`,
            );
        }
      }
    }
    const routes = new Set(first.flatMap((f) => f.samples.map((s) => s.labels.route).filter((r) => r !== undefined)));
    assert.ok(routes.size > 20 && routes.has('unmatched'), `the pass reached many routes: ${[...routes].join()}`);
    assert.ok(seriesOf(first).size < 5_000, `${seriesOf(first).size} series`);
    assert.ok(
      first.flatMap((f) => f.samples).some((s) => s.name === 'varsetd_global_rule_conflicts_total' && s.value >= 1),
    );

    for (const shape of shapes) await send(t, shape);
    await globalConflict(t);
    const second = seriesOf(await scrape());
    const added = [...second].filter((series) => !seriesOf(first).has(series) && !/^(nodejs_|process_)/.test(series));
    assert.deepEqual(added, [], 'the second pass added series');
  });
});
