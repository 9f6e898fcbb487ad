import assert from 'node:assert/strict';
import { createVarset, postVarset, uniqueName, varsetBody } from './factories/varsets.js';
import { expectStatus, type ApiResponse, errorOf, type Client } from './requests.js';

/**
 * Concurrent requests that race to break the global rule. Requests are spread over the
 * clients (one per server process, or one in-process app) and fired all at once; exactly
 * one may win, every other one must get the rule's 422, and none a 5xx.
 */

const pick = (clients: Client[], i: number) => clients[i % clients.length]!;

function expectOneWinner(responses: ApiResponse[], key: string): ApiResponse {
  const unexpected = responses.filter((r) => r.status !== 200 && r.status !== 422);
  assert.deepEqual(
    unexpected.map((r) => `${r.status} ${JSON.stringify(r.body)}`),
    [],
    'only 200 and 422 answers',
  );
  const winners = responses.filter((r) => r.status === 200);
  assert.equal(winners.length, 1, `exactly one request wins, got ${winners.length}`);
  for (const loser of responses.filter((r) => r.status === 422)) {
    assert.match(
      errorOf(loser).detail ?? '',
      new RegExp(`"${key}" \\(terraform\\) conflicts with the global variable set "`),
    );
  }
  return winners[0]!;
}

/** Many requests creating a global set holding the same variable. */
export async function raceCreateGlobalSets(clients: Client[], org: string, n: number): Promise<void> {
  const key = uniqueName('created');
  const responses = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      postVarset(pick(clients, i), org, { attributes: { name: `${key}-${i}`, global: true }, vars: [{ key }] }),
    ),
  );
  const winner = expectOneWinner(responses, key);
  for (const loser of responses.filter((r) => r.status === 422))
    assert.match(errorOf(loser).detail!, new RegExp(`"${winner.body.data.attributes.name}"`));
  await assertGlobalRuleHolds(clients[0]!, org);
}

/** Many requests adding the same key to different global sets. */
export async function raceAddSameKey(clients: Client[], org: string, n: number): Promise<void> {
  const sets = [];
  for (let i = 0; i < n; i++) sets.push(await createVarset(clients[0]!, org, { attributes: { global: true } }));
  const key = uniqueName('added');
  const responses = await Promise.all(
    sets.map((set, i) =>
      pick(clients, i).post(`/api/v2/varsets/${set.id}/relationships/vars`, {
        data: { type: 'vars', attributes: { key, category: 'terraform', value: String(i) } },
      }),
    ),
  );
  expectOneWinner(responses, key);
  await assertGlobalRuleHolds(clients[0]!, org);
}

/** Many requests switching `global` on for sets that hold the same variable. */
export async function raceFlipGlobal(clients: Client[], org: string, n: number): Promise<void> {
  const key = uniqueName('flipped');
  const sets = [];
  for (let i = 0; i < n; i++) sets.push(await createVarset(clients[0]!, org, { vars: [{ key }] }));
  const responses = await Promise.all(
    sets.map((set, i) =>
      pick(clients, i).patch(`/api/v2/varsets/${set.id}`, varsetBody({ attributes: { global: true } })),
    ),
  );
  expectOneWinner(responses, key);
  const globals = [];
  for (const set of sets) {
    const shown = await clients[0]!.get(`/api/v2/varsets/${set.id}`);
    if (shown.body.data.attributes.global) globals.push(set.id);
  }
  assert.equal(globals.length, 1, 'only the winner became global');
  await assertGlobalRuleHolds(clients[0]!, org);
}

/** Many requests renaming a variable of different global sets to the same key. */
export async function raceRenameIntoSameKey(clients: Client[], org: string, n: number): Promise<void> {
  const key = uniqueName('renamed');
  const targets = [];
  for (let i = 0; i < n; i++) {
    const set = await createVarset(clients[0]!, org, {
      attributes: { global: true },
      vars: [{ key: `${key}-before-${i}` }],
    });
    targets.push({ set: set.id, variable: set.relationships.vars.data[0].id });
  }
  const responses = await Promise.all(
    targets.map((target, i) =>
      pick(clients, i).patch(`/api/v2/varsets/${target.set}/relationships/vars/${target.variable}`, {
        data: { type: 'vars', attributes: { key } },
      }),
    ),
  );
  expectOneWinner(responses, key);
  await assertGlobalRuleHolds(clients[0]!, org);
}

/** Reads every set of the organization: no two global sets hold the same key and category. */
export async function assertGlobalRuleHolds(client: Client, org: string): Promise<void> {
  const seen = new Map<string, string>();
  for (let page = 1; ; page++) {
    const res = await client.get(
      `/api/v2/organizations/${org}/varsets?include=vars&page%5Bsize%5D=100&page%5Bnumber%5D=${page}`,
    );
    expectStatus(res, 200);
    const variables = new Map<string, any>((res.body.included ?? []).map((v: any) => [v.id, v]));
    for (const set of res.body.data.filter((s: any) => s.attributes.global)) {
      for (const { id } of set.relationships.vars.data) {
        const v = variables.get(id);
        const identity = `${v.attributes.category}/${v.attributes.key}`;
        assert.equal(
          seen.get(identity),
          undefined,
          `${identity} is in two global sets: ${seen.get(identity)} and ${set.id}`,
        );
        seen.set(identity, set.id);
      }
    }
    if (res.body.meta.pagination['next-page'] === null) return;
  }
}
