import http from 'node:http';
import { randomUUID } from 'node:crypto';

/** One HTTP request's answer: its status (0: no answer) and JSON body. */
export interface Answer {
  status: number;
  body: any;
  error?: string;
}

/** A request on `agent`'s connections: JSON:API in and out, 15 s at most. */
export function send(
  agent: http.Agent,
  base: string,
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<Answer> {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(
      `${base}${path}`,
      {
        method,
        agent,
        timeout: 15_000,
        headers: {
          Authorization: `Bearer ${token}`,
          Accept: 'application/vnd.api+json',
          ...(payload === undefined
            ? {}
            : { 'Content-Type': 'application/vnd.api+json', 'Content-Length': Buffer.byteLength(payload) }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let parsed: unknown = undefined;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = text;
          }
          resolve({ status: response.statusCode ?? 0, body: parsed });
        });
        response.on('error', (error) => resolve({ status: 0, body: undefined, error: error.message }));
      },
    );
    request.on('timeout', () => request.destroy(new Error('no answer within 15 s')));
    request.on('error', (error) => resolve({ status: 0, body: undefined, error: error.message }));
    request.end(payload);
  });
}

/** A variable the server acknowledged adding (and, if `deleted`, acknowledged deleting). */
export interface AckedVariable {
  id: string;
  varsetId: string;
  key: string;
  value: string;
  deleted: boolean;
}

/** Everything the clients saw: counts, failures, and every acknowledged write. */
export class LoadRecord {
  requests = 0;
  readonly byOperation = new Map<string, number>();
  readonly failures: string[] = [];
  failed = 0;
  maxMs = 0;
  readonly sets = new Map<string, { name: string; writes: number }>();
  readonly variables: AckedVariable[] = [];
  phase = 'start';

  count(operation: string, answer: Answer, expected: number, ms: number): boolean {
    this.requests++;
    this.byOperation.set(operation, (this.byOperation.get(operation) ?? 0) + 1);
    this.maxMs = Math.max(this.maxMs, ms);
    if (answer.status === expected) return true;
    this.failed++;
    if (this.failures.length < 20) {
      const why = answer.error ?? String(JSON.stringify(answer.body)).slice(0, 300);
      this.failures.push(`${new Date().toISOString()} [${this.phase}] ${operation}: ${answer.status} ${why}`);
    }
    return false;
  }
}

/** What the clients share: where to send, as whom, and which workspace the sets apply to. */
export interface Target {
  base: string;
  organization: string;
  workspaceId: string;
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/**
 * One client: its own keep-alive connection through the balancer, its own token, its own sets
 * (so that no request of another client can make one of its writes a conflict: every answer
 * but the expected one is a failure). Mixes reads (a set, the organization's sets, the
 * workspace's effective variables) and writes (a variable added, a variable deleted, a set
 * created), each write recorded once acknowledged.
 */
export class Client {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  private readonly sets: string[] = [];
  private readonly live: AckedVariable[] = [];
  private made = 0;
  private running = true;
  private done: Promise<void> = Promise.resolve();

  constructor(
    private readonly id: number,
    private readonly token: string,
    private readonly target: Target,
    private readonly record: LoadRecord,
  ) {}

  private async call(operation: string, method: string, path: string, expected: number, body?: unknown) {
    const started = performance.now();
    const answer = await send(this.agent, this.target.base, method, path, this.token, body);
    return { ok: this.record.count(operation, answer, expected, performance.now() - started), answer };
  }

  async createSet(): Promise<void> {
    const name = `c${this.id}-set-${++this.made}-${randomUUID().slice(0, 8)}`;
    const { ok, answer } = await this.call(
      'create set',
      'POST',
      `/api/v2/organizations/${this.target.organization}/varsets`,
      200,
      {
        data: {
          type: 'varsets',
          attributes: { name, description: '', global: false },
          relationships: { workspaces: { data: [{ type: 'workspaces', id: this.target.workspaceId }] } },
        },
      },
    );
    if (!ok) return;
    const id = (answer.body as { data: { id: string } }).data.id;
    this.sets.push(id);
    this.record.sets.set(id, { name, writes: 1 });
  }

  private async addVariable(): Promise<void> {
    const varsetId = pick(this.sets);
    const key = `c${this.id}_k${++this.made}`;
    const value = randomUUID();
    const { ok, answer } = await this.call(
      'add variable',
      'POST',
      `/api/v2/varsets/${varsetId}/relationships/vars`,
      200,
      {
        data: { type: 'vars', attributes: { key, value, category: 'terraform', description: 'rolling' } },
      },
    );
    if (!ok) return;
    const variable = { id: (answer.body as { data: { id: string } }).data.id, varsetId, key, value, deleted: false };
    this.record.variables.push(variable);
    this.live.push(variable);
    this.record.sets.get(varsetId)!.writes++;
  }

  private async deleteVariable(): Promise<void> {
    if (this.live.length < 3) return this.addVariable();
    const variable = this.live.splice(Math.floor(Math.random() * this.live.length), 1)[0]!;
    const path = `/api/v2/varsets/${variable.varsetId}/relationships/vars/${variable.id}`;
    const { ok } = await this.call('delete variable', 'DELETE', path, 204);
    if (!ok) return;
    variable.deleted = true;
    this.record.sets.get(variable.varsetId)!.writes++;
  }

  private async step(): Promise<void> {
    const roll = Math.random();
    if (roll < 0.25) await this.call('read set', 'GET', `/api/v2/varsets/${pick(this.sets)}?include=vars`, 200);
    else if (roll < 0.4)
      await this.call(
        'list sets',
        'GET',
        `/api/v2/organizations/${this.target.organization}/varsets?page[size]=20`,
        200,
      );
    else if (roll < 0.55)
      await this.call(
        'effective variables',
        'GET',
        `/api/v2/workspaces/${this.target.workspaceId}/effective-variables`,
        200,
      );
    else if (roll < 0.8) await this.addVariable();
    else if (roll < 0.97) await this.deleteVariable();
    else await this.createSet();
  }

  /** Runs steps one after another, each `pauseMs` after the last answer, until `stop`. */
  start(pauseMs: number): void {
    this.done = (async () => {
      while (this.running) {
        await this.step();
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
    this.agent.destroy();
  }
}
