import assert from 'node:assert/strict';
import type { TestApp } from './app.js';
import { snapshot } from './factories/varsets.js';
import { expectStatus, type ApiResponse } from './requests.js';

/**
 * What a preview of a write to a set should answer, worked out from the API alone: the
 * effective variables of every workspace read before and after the write is actually made.
 */

interface Winner {
  'variable-id': string | null;
  'version-id': string | null;
  value: string | null;
  hcl: boolean;
  sensitive: boolean;
  source: {
    type: string;
    precedence: number;
    varset?: { id: string; name: string; scope: string; owner: string; priority: boolean; version: number | null };
  };
}

/** Each workspace's effective variables, by `<category>:<key>`. */
export type EffectiveReads = Map<string, Map<string, Winner>>;

export async function readEffective(t: TestApp, workspaceIds: string[]): Promise<EffectiveReads> {
  const reads: EffectiveReads = new Map();
  for (const id of workspaceIds) {
    const res = await t.get(`/api/v2/workspaces/${id}/effective-variables`);
    expectStatus(res, 200);
    reads.set(id, new Map(res.body.data.map((v: any) => [v.id, v.attributes as Winner])));
  }
  return reads;
}

/** A winner as a preview shows it: the set's version is not part of it (the write it previews makes none). */
function shown(winner: Winner | undefined) {
  if (!winner) return null;
  const { varset } = winner.source;
  return {
    'variable-id': winner['variable-id'],
    value: winner.value,
    hcl: winner.hcl,
    sensitive: winner.sensitive,
    source: {
      type: winner.source.type,
      precedence: winner.source.precedence,
      ...(varset
        ? {
            varset: {
              id: varset.id,
              name: varset.name,
              scope: varset.scope,
              owner: varset.owner,
              priority: varset.priority,
            },
          }
        : {}),
    },
  };
}

/** What changed of a winner, as far as two reads of the API tell: a sensitive value is taken to change when its variable or version does. */
function changedFields(b: Winner, a: Winner): string[] {
  const fields: string[] = [];
  const valueChanged =
    b.sensitive && a.sensitive
      ? b['variable-id'] !== a['variable-id'] || b['version-id'] !== a['version-id']
      : b.value !== a.value;
  if (valueChanged) fields.push('value');
  if (
    b.source.type !== a.source.type ||
    b.source.varset?.id !== a.source.varset?.id ||
    b.source.precedence !== a.source.precedence
  )
    fields.push('source');
  if (b.sensitive !== a.sensitive) fields.push('sensitive');
  if (b.hcl !== a.hcl) fields.push('hcl');
  return fields;
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The affected workspaces, as `{id, name, changes}` ordered by name then id, from reads before and after the write. */
export function expectedImpacts(before: EffectiveReads, after: EffectiveReads, names: Map<string, string>) {
  const impacts = [];
  for (const [id, was] of before) {
    const will = after.get(id)!;
    const keys = [...new Set([...was.keys(), ...will.keys()])];
    const changes = [];
    for (const key of keys) {
      const b = was.get(key);
      const a = will.get(key);
      const fields = b && a ? changedFields(b, a) : [];
      if (b && a && !fields.length) continue;
      const [category, ...rest] = key.split(':');
      changes.push({
        key: rest.join(':'),
        category,
        action: !b ? 'added' : !a ? 'removed' : 'changed',
        fields,
        before: shown(b),
        after: shown(a),
      });
    }
    changes.sort((x, y) => byCodePoint(x.key, y.key) || byCodePoint(x.category!, y.category!));
    if (changes.length) impacts.push({ id, name: names.get(id)!, changes });
  }
  return impacts.sort((x, y) => byCodePoint(x.name, y.name) || byCodePoint(x.id, y.id));
}

/** Every page of a preview's answer, as `{id, name, changes}`, and its meta. */
export async function previewAll(t: TestApp, path: string, body: unknown, token?: string) {
  const impacts = [];
  let meta: any;
  for (let page = 1; ; page++) {
    const res = await t.post(
      `${path}?page%5Bnumber%5D=${page}&page%5Bsize%5D=2`,
      body,
      token === undefined ? {} : { token },
    );
    expectStatus(res, 200);
    meta = res.body.meta;
    impacts.push(
      ...res.body.data.map((d: any) => ({
        id: d.id,
        name: d.attributes['workspace-name'],
        changes: d.attributes.changes,
      })),
    );
    if (res.body.meta.pagination['next-page'] === null) break;
  }
  assert.equal(impacts.length, meta.pagination['total-count']);
  return { impacts, meta };
}

/** The organization's sets, variables and assignments, and the number of versions of each set: what a preview must leave as it is. */
export async function storedState(t: TestApp, org: string): Promise<unknown> {
  const sets: any = await snapshot(t, org);
  const versions: Record<string, number> = {};
  for (const set of sets.data) {
    const res = await t.get(`/api/v2/varsets/${set.id}/versions`);
    expectStatus(res, 200);
    versions[set.id] = res.body.meta.pagination['total-count'];
  }
  return { sets, versions };
}

/** The error a refused request answered, whole. */
export function errorsOf(res: ApiResponse) {
  assert.ok(res.status >= 400 && res.status < 500, `expected a 4xx, got ${res.status}: ${JSON.stringify(res.body)}`);
  return { status: res.status, body: res.body };
}

/** Ids of everything that exists: the stored state and the effective variables read, as JSON. */
export function knownIds(...reads: unknown[]): Set<string> {
  const json = JSON.stringify(reads, (_, value) => (value instanceof Map ? [...value] : value));
  return new Set(json.match(/(var|varset)-[1-9A-HJ-NP-Za-km-z]{16}/g) ?? []);
}

/** Impacts with the ids of variables and sets the write made (not in `known`) named "new": a preview's own differ from the write's. */
export function withNewIdsNamed(impacts: any[], known: Set<string>): any[] {
  const name = (id: string) => (known.has(id) ? id : 'new');
  const value = (v: any) =>
    v && {
      ...v,
      'variable-id': name(v['variable-id']),
      source: v.source.varset
        ? { ...v.source, varset: { ...v.source.varset, id: name(v.source.varset.id) } }
        : v.source,
    };
  return impacts.map((impact) => ({
    ...impact,
    changes: impact.changes.map((c: any) => ({ ...c, before: value(c.before), after: value(c.after) })),
  }));
}
