import type { Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import dns from 'node:dns/promises';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import { toPrimary, type PrimaryMessage } from './worker-messages.js';

/**
 * How connections reach the workers of `varsetd serve`. The primary hands connections out itself
 * rather than through the cluster module, whose round robin has two holes: a connection being handed to a worker as it is killed is never
 * answered nor closed (the primary keeps it open, waiting for the worker's word), and once the
 * last worker is gone it closes the port, refusing connections until a replacement listens
 * (on another port if the port was 0). Here the primary keeps listening while no worker is left:
 * connections wait for the next worker to start. It hands out each connection (keeping its own
 * copy) and closes its copy only once the worker took it; when a worker goes, every connection
 * it had not taken yet goes to another worker. Each worker takes the connections it is handed
 * only until it drains; it leaves those that come later to the others.
 *
 * The cluster module's other policy (`SCHED_NONE`: each worker accepts from the shared socket)
 * closes neither hole and spreads connections unevenly (a handful of kept-alive connections
 * opened at once to idle workers often all go to one of them): see docs/deployment.md.
 */

/** Connections waiting for a worker beyond this many are closed as they come (each holds a file descriptor). */
const MOST_WAITING = 10_000;

/**
 * The connections the primary accepted, handed to the serving workers in turn. `seq` numbers each
 * handing; the primary keeps its copy of the connection until the worker says it took it.
 */
export class Handout {
  private readonly serving: Worker[] = [];
  private next = 0;
  private readonly waiting: net.Socket[] = [];
  private readonly handed = new Map<number, { socket: net.Socket; worker: Worker }>();
  private seq = 0;
  private closed = false;

  constructor(private readonly log: Logger) {}

  add(socket: net.Socket): void {
    // The connection is not read here (`pauseOnConnect`); an error on it is the worker's to see.
    socket.on('error', () => {});
    if (this.closed || this.waiting.length >= MOST_WAITING) {
      socket.destroy();
      return;
    }
    this.waiting.push(socket);
    this.handOut();
  }

  serve(worker: Worker): void {
    if (!this.serving.includes(worker)) this.serving.push(worker);
    this.handOut();
  }

  taken(seq: number): void {
    const handing = this.handed.get(seq);
    if (!handing) return;
    this.handed.delete(seq);
    // Closes the primary's copy only: the connection stays open in the worker.
    handing.socket.destroy();
  }

  /** The worker was sent this connection after it began draining: another takes it. */
  refused(seq: number): void {
    const handing = this.handed.get(seq);
    if (!handing) return;
    this.handed.delete(seq);
    this.requeue(handing.socket);
  }

  /** The worker takes no more connections (it drains, or died). */
  leave(worker: Worker): void {
    const i = this.serving.indexOf(worker);
    if (i >= 0) this.serving.splice(i, 1);
  }

  /** The worker is gone, and every message it sent was read: what it was handed and did not take goes to another. */
  gone(worker: Worker): void {
    this.leave(worker);
    const untaken = [...this.handed].filter(([, handing]) => handing.worker === worker);
    for (const [seq] of untaken) this.handed.delete(seq);
    if (untaken.length > 0)
      this.log.warn(
        { worker: worker.id, connections: untaken.length },
        'a worker went before taking connections handed to it: handing them to another',
      );
    for (const [, { socket }] of untaken.reverse()) this.requeue(socket);
  }

  closeWaiting(): void {
    this.closed = true;
    for (const socket of this.waiting.splice(0)) socket.destroy();
  }

  waitingCount(): number {
    return this.waiting.length;
  }

  private requeue(socket: net.Socket): void {
    if (this.closed) {
      socket.destroy();
      return;
    }
    this.waiting.unshift(socket);
    this.handOut();
  }

  private handOut(): void {
    while (this.waiting.length > 0 && this.serving.length > 0 && !this.closed) {
      const socket = this.waiting.shift()!;
      if (socket.destroyed) continue;
      const worker = this.serving[this.next++ % this.serving.length]!;
      const seq = ++this.seq;
      this.handed.set(seq, { socket, worker });
      // A failed send (the channel just closed) leaves the connection handed: `gone` hands it on.
      worker.send({ type: 'connection', seq } satisfies PrimaryMessage, socket, { keepOpen: true }, () => {});
    }
  }
}

/**
 * The primary's sockets on HOST:PORT (for `localhost`, each of its addresses, as Fastify does when
 * one process serves). They accept connections without reading them: a worker does.
 */
export async function listenOn(
  host: string,
  port: number,
  log: Logger,
  onConnection: (socket: net.Socket) => void,
): Promise<net.Server[]> {
  const listen = (address: string, at: number) => listening(address, at, log, onConnection);
  const first = await listen(host, port);
  if (host !== 'localhost') return [first];
  const { address, port: bound } = first.address() as AddressInfo;
  const servers = [first];
  for (const other of await dns.lookup(host, { all: true })) {
    if (other.address === address) continue;
    try {
      servers.push(await listen(other.address, bound));
    } catch (error) {
      log.warn({ err: error, address: other.address }, 'not listening on this address of localhost');
    }
  }
  return servers;
}

/** A socket on HOST:PORT whose connections go to `onConnection` from the first one it accepts. */
function listening(
  host: string,
  port: number,
  log: Logger,
  onConnection: (socket: net.Socket) => void,
): Promise<net.Server> {
  // The worker's HTTP server would set no delay on a connection it accepted; these it is handed.
  const server = net.createServer({ pauseOnConnect: true, noDelay: true }, onConnection);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.removeListener('error', reject);
      // After listening, an error is one accept that failed (too many open files, say): the next may not.
      server.on('error', (error) => log.error({ err: error }, 'accepting a connection failed'));
      resolve(server);
    });
  });
}

export interface ConnectionsFromPrimary {
  /** Takes no more connections: the primary hands them to other workers. */
  stop(): void;
  /** Resolves once every connection taken has closed, closing each as soon as it is idle. */
  drained(closeIdleConnections: () => void): Promise<void>;
}

/**
 * In a worker: serves the connections the primary hands over with `server`. The server listens
 * only on a socket of its own that nothing connects to (`privateSocketPath`), so that it runs as a
 * listening server does (its timeouts checked, its idle connections closed when it closes).
 */
export function takeConnectionsFromPrimary(server: net.Server): ConnectionsFromPrimary {
  const open = new Set<net.Socket>();
  let draining = false;
  let closed: (() => void) | undefined;
  process.on('message', (message: PrimaryMessage | undefined, socket: net.Socket | undefined) => {
    if (message?.type !== 'connection') return;
    if (draining) {
      // The primary sent it before it heard this worker drains: its copy stays open for another.
      toPrimary({ type: 'refused', seq: message.seq });
      socket?.destroy();
      return;
    }
    toPrimary({ type: 'taken', seq: message.seq });
    if (!socket) return;
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      closed?.();
    });
    server.emit('connection', socket);
  });
  toPrimary({ type: 'serving' });
  return {
    stop() {
      if (draining) return;
      draining = true;
      toPrimary({ type: 'draining' });
    },
    async drained(closeIdleConnections) {
      while (open.size > 0) {
        closeIdleConnections();
        // A connection answering its last request is idle once that answer is sent: look again soon.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 100);
          closed = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        closed = undefined;
      }
    },
  };
}

/** A socket no one connects to, for a worker's server to listen on: an abstract one on Linux, a file in the temporary folder elsewhere. */
export function privateSocketPath(): string {
  const name = `varsetd-worker-${process.pid}-${randomBytes(6).toString('hex')}`;
  return process.platform === 'linux' ? `\0${name}` : path.join(os.tmpdir(), `${name}.sock`);
}
