import assert from 'node:assert/strict';
import { varsetBody } from './factories/varsets.js';
import { ADMIN_TOKEN } from './requests.js';

/** What one request of the load got back. */
export interface Outcome {
  kind: 'list' | 'read' | 'create';
  /** 0: no HTTP answer at all (a refused or dropped connection, or no answer within 30 s). */
  status: number;
  retryAfter: string | null;
  body: any;
  ms: number;
  /** For creates: the name of the set it asked for. */
  name?: string;
  at: number;
}

/** The keys each created set holds; one request creates the set and all of them. */
export const SET_KEYS = ['alpha', 'beta', 'gamma'];

/** An API request as a client sends it; never throws for an HTTP status. */
export async function call(
  base: string,
  method: string,
  url: string,
  body?: unknown,
): Promise<Omit<Outcome, 'kind' | 'at'>> {
  const started = Date.now();
  try {
    const res = await fetch(base + url, {
      method,
      headers: {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        ...(body === undefined ? {} : { 'content-type': 'application/vnd.api+json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // Kept as text: the assertions show it.
    }
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: parsed, ms: Date.now() - started };
  } catch (error) {
    return { status: 0, retryAfter: null, body: String((error as Error).cause ?? error), ms: Date.now() - started };
  }
}

export function createSetBody(name: string): unknown {
  return varsetBody({ attributes: { name }, vars: SET_KEYS.map((key) => ({ key, value: `${key}-value` })) });
}

/** A steady load of list reads, single reads and set creations (each with its variables) from a few clients at once. */
export class SteadyLoad {
  readonly outcomes: Outcome[] = [];
  private running = true;
  private readonly loops: Promise<void>[];
  private created = 0;

  constructor(
    private readonly base: string,
    private readonly organization: string,
    clients = 4,
  ) {
    this.loops = Array.from({ length: clients }, (_, client) => this.loop(client));
  }

  private async loop(client: number): Promise<void> {
    for (let n = client; this.running; n++) {
      const at = Date.now();
      if (n % 3 === 0) {
        this.outcomes.push({
          kind: 'list',
          at,
          ...(await call(this.base, 'GET', `/api/v2/organizations/${this.organization}/varsets?page%5Bsize%5D=5`)),
        });
      } else if (n % 3 === 1) {
        this.outcomes.push({
          kind: 'read',
          at,
          ...(await call(this.base, 'GET', `/api/v2/organizations/${this.organization}`)),
        });
      } else {
        const name = `load-${client}-${++this.created}`;
        this.outcomes.push({
          kind: 'create',
          at,
          name,
          ...(await call(this.base, 'POST', `/api/v2/organizations/${this.organization}/varsets`, createSetBody(name))),
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  count(predicate: (outcome: Outcome) => boolean, since = 0): number {
    return this.outcomes.filter((outcome) => outcome.at >= since && predicate(outcome)).length;
  }

  /** Waits until `count(predicate, since)` reaches `wanted`; fails after 60 s. */
  async until(what: string, predicate: (outcome: Outcome) => boolean, wanted: number, since = 0): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (this.count(predicate, since) < wanted) {
      if (Date.now() > deadline)
        assert.fail(
          `${what}: ${this.count(predicate, since)} of ${wanted} within 60 s; answers meanwhile: ${this.summary(since)}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The answers since `since`, by status, with one example of each. */
  summary(since = 0): string {
    const seen = new Map<number, { count: number; example: Outcome }>();
    for (const outcome of this.outcomes) {
      if (outcome.at < since) continue;
      const entry = seen.get(outcome.status) ?? { count: 0, example: outcome };
      entry.count++;
      seen.set(outcome.status, entry);
    }
    return JSON.stringify([...seen].map(([status, { count, example }]) => ({ status, count, example })));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }
}

export const succeeded = (outcome: Outcome) => outcome.status >= 200 && outcome.status < 300;
export const refused = (outcome: Outcome) => outcome.status === 503;

/** Every answer was a success or a proper 503 (JSON:API, Retry-After), and none took longer than `slowestMs`. */
export function assertOnlySuccessOr503(outcomes: Outcome[], slowestMs: number): void {
  for (const outcome of outcomes) {
    const shown = JSON.stringify(outcome);
    if (succeeded(outcome)) continue;
    assert.equal(outcome.status, 503, shown);
    assert.match(outcome.retryAfter ?? '', /^\d+$/, shown);
    assert.deepEqual(
      outcome.body,
      {
        errors: [{ status: '503', title: 'service unavailable', detail: 'the store is unavailable; try again later' }],
      },
      shown,
    );
  }
  const slowest = Math.max(...outcomes.map((outcome) => outcome.ms));
  assert.ok(slowest <= slowestMs, `the slowest request took ${slowest} ms`);
}

/** Every set of the organization holds all its variables, and every set whose creation was answered 2xx exists. */
export async function assertNoHalfAppliedCreate(
  base: string,
  organization: string,
  outcomes: Outcome[],
): Promise<number> {
  const sets = new Map<string, number>();
  for (let page = 1; ; page++) {
    const res = await call(
      base,
      'GET',
      `/api/v2/organizations/${organization}/varsets?include=vars&page%5Bsize%5D=100&page%5Bnumber%5D=${page}`,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    for (const set of res.body.data) sets.set(set.attributes.name, set.relationships.vars.data.length);
    if (res.body.meta.pagination['next-page'] === null) break;
  }
  for (const [name, variables] of sets)
    assert.equal(variables, SET_KEYS.length, `set ${name} holds ${variables} variables`);
  for (const outcome of outcomes) {
    if (outcome.kind === 'create' && succeeded(outcome))
      assert.ok(sets.has(outcome.name!), `${outcome.name} was answered ${outcome.status} but does not exist`);
  }
  return sets.size;
}

/** How many JSON log lines carry this message. */
export function logLines(output: string, message: string): any[] {
  const logged = `"msg":${JSON.stringify(message)}`;
  return output
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes(logged))
    .map((line) => JSON.parse(line));
}

export const UNAVAILABLE_LOG = 'the store is unavailable: answering 503 until it answers again';
export const RECOVERED_LOG = 'the store answers again';
