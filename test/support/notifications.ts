import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request a receiver got: its headers and exact body. */
export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: any;
}

/** What the receiver does with a request: answer with this status (and body), or never answer. */
export type Answer = { status: number; body?: string } | 'hang';

/** A real HTTP server on 127.0.0.1 that records every request and answers as `answer` says. */
export class Receiver {
  readonly received: Received[] = [];
  answer: (request: Received, index: number) => Answer = () => ({ status: 200, body: 'ok' });
  private readonly hanging = new Set<http.ServerResponse>();
  private waiters: { count: number; resolve: () => void }[] = [];

  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<Receiver> {
    const server = http.createServer();
    const receiver = new Receiver(server);
    server.on('request', (request, response) => receiver.handle(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  private handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const received: Received = { headers: request.headers, body, json: JSON.parse(body) };
      const index = this.received.push(received) - 1;
      for (const waiter of this.waiters.filter((w) => this.received.length >= w.count)) waiter.resolve();
      const answer = this.answer(received, index);
      if (answer === 'hang') {
        this.hanging.add(response);
        return;
      }
      response.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body ?? '');
    });
  }

  /** Resolves once `count` requests arrived in all; rejects after `timeoutMs`. */
  until(count: number, timeoutMs = 10_000): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the receiver got ${this.received.length} of ${count} requests`)),
        timeoutMs,
      );
      this.waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Delivery settings that keep tests fast: short pauses and polls. The timeout is long: a send
 * that ran out of time is sent again (at least once), so a loaded machine would otherwise see
 * a change twice; the test of timeouts sets its own.
 */
export const FAST_DELIVERY = {
  timeoutMs: 5_000,
  firstRetryMs: 50,
  longestRetryMs: 200,
  maxAttempts: 4,
  pollMs: 20,
  stopGraceMs: 200,
};
