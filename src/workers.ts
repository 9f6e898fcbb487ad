import cluster, { type Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import dns from 'node:dns/promises';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';

/**
 * `varsetd serve` with several worker processes (Node's cluster) serving one port. The started
 * process, the primary, readies the store once and serves nothing itself: it listens on the
 * port, starts the workers, hands each the encryption key and then every connection in turn
 * over the IPC channel, replaces a worker that dies, passes SIGHUP on, and on SIGTERM or SIGINT
 * lets every worker finish its requests and exits after the last one.
 *
 * The primary hands connections out itself rather than through the cluster module, whose
 * round robin has two holes: a connection being handed to a worker as it is killed is never
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

/** A worker asks for the key once it listens for the answer (a message sent before that would be lost). */
type WorkerMessage =
  | { type: 'key?' }
  /** Takes connections from now on. */
  | { type: 'serving' }
  /** Took the connection; the primary closes its copy. */
  | { type: 'taken'; seq: number }
  /** Drains: takes no more connections, and hands back those it is sent meanwhile. */
  | { type: 'draining' }
  | { type: 'refused'; seq: number };
type PrimaryMessage = { type: 'key'; key: string } | { type: 'connection'; seq: number };

/**
 * A worker that lived at least this long before dying is replaced at once; one that died sooner,
 * after a pause that doubles with each such death in a row of its slot, up to LONGEST_PAUSE_MS.
 * The primary never gives up: a worker that cannot start (its database unreachable, say) is tried
 * again every few seconds, while connections wait for it.
 */
const STABLE_MS = 10_000;
const FIRST_PAUSE_MS = 250;
export const LONGEST_PAUSE_MS = 4_000;

/** How long to wait before replacing a worker, after `quickDeaths` deaths in a row that came soon after their start. */
export function replacementPause(quickDeaths: number): number {
  return quickDeaths === 0 ? 0 : Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** Math.min(quickDeaths - 1, 30));
}

/** Connections waiting for a worker beyond this many are closed as they come (each holds a file descriptor). */
const MOST_WAITING = 10_000;

export interface SuperviseOptions {
  workers: number;
  /** The 32-byte key every worker seals and opens sensitive values with. */
  key: Buffer;
  log: Logger;
  /** Whether workers reload their certificate on SIGHUP (they serve HTTPS). */
  forwardHangUp: boolean;
  host: string;
  port: number;
}

/** One of the `workers` places, each filled by one worker at a time. */
interface Slot {
  index: number;
  worker: Worker | undefined;
  startedAt: number;
  /** Deaths in a row soon after their start. */
  quickDeaths: number;
  /** The pending start of its next worker. */
  replacing: NodeJS.Timeout | undefined;
}

/**
 * Listens on the port, starts the workers, and resolves with the address once every one of them
 * serves. A worker that dies before that fails the start: the others are stopped and the promise
 * rejects. So does a port that cannot be listened on.
 */
export async function superviseWorkers(options: SuperviseOptions): Promise<AddressInfo> {
  const { log } = options;
  const listeners = await listenOn(options.host, options.port, log);
  const handout = new Handout(log);
  for (const listener of listeners) {
    listener.on('connection', (socket: net.Socket) => handout.add(socket));
    // After listening, an error is one accept that failed (too many open files, say): the next may not.
    listener.on('error', (error) => log.error({ err: error }, 'accepting a connection failed'));
  }

  const slots: Slot[] = Array.from({ length: options.workers }, (_, index) => ({ index, worker: undefined, startedAt: 0, quickDeaths: 0, replacing: undefined }));
  const slotOf = new Map<Worker, Slot>();
  const live = () => slots.filter((slot) => slot.worker !== undefined).map((slot) => slot.worker!);
  let closing = false;
  let startingUp = true;
  let serving = 0;

  return new Promise<AddressInfo>((resolve, reject) => {
    const fork = (slot: Slot) => {
      const worker = cluster.fork();
      slot.worker = worker;
      slot.startedAt = Date.now();
      slotOf.set(worker, slot);
      worker.on('message', (message: WorkerMessage) => {
        switch (message?.type) {
          case 'key?':
            send(worker, { type: 'key', key: options.key.toString('base64') });
            break;
          case 'serving':
            log.info({ worker: worker.id, workerPid: worker.process.pid, startedInMs: Date.now() - slot.startedAt }, 'worker listening');
            if (closing) break;
            handout.serve(worker);
            if (startingUp && ++serving === options.workers) {
              startingUp = false;
              resolve(listeners[0]!.address() as AddressInfo);
            }
            break;
          case 'taken':
            handout.taken(message.seq);
            break;
          case 'draining':
            handout.leave(worker);
            break;
          case 'refused':
            handout.refused(message.seq);
            break;
        }
      });
      // A worker that cannot be started (no process could be made) is reported here, then exits.
      worker.on('error', (error) => log.error({ err: error, worker: worker.id }, 'a worker failed'));
      // Once the process has exited and its IPC channel is read to the end (the channel's 'close'),
      // and the messages of that last read are emitted (they come on the next tick), what the worker
      // did not say it took, it never will. ('disconnect' would not do: Node postpones it, for ever,
      // while a handle sent to the worker awaits its acknowledgement.)
      worker.process.once('close', () => setImmediate(() => handout.gone(worker)));
    };

    cluster.on('exit', (worker, code, signal) => {
      const slot = slotOf.get(worker);
      if (!slot) return;
      slotOf.delete(worker);
      slot.worker = undefined;
      handout.leave(worker);
      if (closing) {
        if (live().length === 0) finish();
        return;
      }
      if (startingUp) {
        // The worker said why on its own stderr; the others stop, and so does the start.
        closing = true;
        for (const listener of listeners) listener.close();
        handout.closeWaiting();
        for (const other of live()) other.process.kill('SIGTERM');
        reject(new Error(`a worker exited during start-up (${signal ?? `code ${code}`})`));
        return;
      }
      slot.quickDeaths = Date.now() - slot.startedAt < STABLE_MS ? slot.quickDeaths + 1 : 0;
      const pause = replacementPause(slot.quickDeaths);
      log.error({ worker: worker.id, workerPid: worker.process.pid, code, signal, replacingInMs: pause, waiting: handout.waitingCount() }, 'a worker died: starting another');
      // Kept referenced: while no worker is left, this timer is what the primary waits on.
      slot.replacing = setTimeout(() => {
        slot.replacing = undefined;
        if (!closing) fork(slot);
      }, pause);
    });

    const finish = () => {
      for (const listener of listeners) listener.close();
      process.exit(0);
    };
    const stop = (signal: NodeJS.Signals) => {
      if (closing) return;
      closing = true;
      // New connections are refused once every worker has closed its copy of the port too.
      for (const listener of listeners) listener.close();
      handout.closeWaiting();
      for (const slot of slots) clearTimeout(slot.replacing);
      const workers = live();
      log.info({ signal, workers: workers.length }, 'shutting down: every worker finishes its in-flight requests');
      if (workers.length === 0) finish();
      for (const worker of workers) worker.process.kill('SIGTERM');
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
    if (options.forwardHangUp) {
      process.on('SIGHUP', () => {
        for (const worker of live()) worker.process.kill('SIGHUP');
      });
    }
    // Nothing left to wait on while serving would be a bug: exit non-zero, so that a service manager restarts varsetd.
    process.on('beforeExit', () => {
      if (closing) return;
      log.fatal('the primary has nothing left to wait on: exiting so that it is restarted');
      process.exit(70);
    });

    for (const slot of slots) fork(slot);
  });
}

/**
 * The connections the primary accepted, handed to the serving workers in turn. `seq` numbers each
 * handing; the primary keeps its copy of the connection until the worker says it took it.
 */
class Handout {
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
    if (untaken.length > 0) this.log.warn({ worker: worker.id, connections: untaken.length }, 'a worker went before taking connections handed to it: handing them to another');
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
async function listenOn(host: string, port: number, log: Logger): Promise<net.Server[]> {
  const first = await listening(host, port);
  if (host !== 'localhost') return [first];
  const { address, port: bound } = first.address() as AddressInfo;
  const servers = [first];
  for (const other of await dns.lookup(host, { all: true })) {
    if (other.address === address) continue;
    try {
      servers.push(await listening(other.address, bound));
    } catch (error) {
      log.warn({ err: error, address: other.address }, 'not listening on this address of localhost');
    }
  }
  return servers;
}

function listening(host: string, port: number): Promise<net.Server> {
  // The worker's HTTP server would set no delay on a connection it accepted; these it is handed.
  const server = net.createServer({ pauseOnConnect: true, noDelay: true });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.removeListener('error', reject);
      resolve(server);
    });
  });
}

function send(worker: Worker, message: PrimaryMessage): void {
  // A worker that just died cannot be told anything: its exit is handled on its own.
  worker.send(message, undefined, {}, () => {});
}

/** In a worker: the encryption key the primary sends once the worker is up. */
export function keyFromPrimary(): Promise<Buffer> {
  return new Promise((resolve) => {
    const receive = (message: PrimaryMessage) => {
      if (message?.type !== 'key') return;
      process.removeListener('message', receive);
      resolve(Buffer.from(message.key, 'base64'));
    };
    process.on('message', receive);
    toPrimary({ type: 'key?' });
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
  process.on('message', (message: PrimaryMessage, socket: net.Socket | undefined) => {
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

function toPrimary(message: WorkerMessage): void {
  // Once the primary is gone there is no one to tell; the worker stops on `disconnect`.
  if (process.connected) process.send!(message, undefined, {}, () => {});
}

export const isWorker = () => cluster.isWorker;
