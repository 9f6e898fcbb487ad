import cluster, { type Worker } from 'node:cluster';
import type { Server } from 'node:net';
import type { Logger } from 'pino';
import type { Handout } from './connection-handout.js';
import { toWorker, type WorkerMessage } from './worker-messages.js';

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

export interface SuperviseOptions {
  workers: number;
  /** The text of the keyring every worker seals and opens sensitive values with, as it is now. */
  keyring: () => string;
  /** On SIGHUP, before the keyring is sent to every worker again: reloads it. */
  reloadKeyring: () => Promise<unknown>;
  log: Logger;
  /** Whether workers reload their certificate on SIGHUP (they serve HTTPS). */
  forwardHangUp: boolean;
  host: string;
  port: number;
  /** On SIGTERM, how long the workers answer not ready while still served connections, before they drain. */
  drainDelayMs: number;
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

/** The primary's workers, one per slot: started, told, replaced when they die, stopped. */
export class Supervisor {
  private readonly slots: Slot[];
  private readonly slotOf = new Map<Worker, Slot>();
  /** The places a worker has served in: until the first, the start can still fail. */
  private readonly served = new Set<Slot>();
  private started = false;
  /** After SIGTERM: workers answer not ready (a worker that starts now is told too). */
  private stopping = false;
  closing = false;

  constructor(
    private readonly options: SuperviseOptions,
    private readonly handout: Handout,
    private readonly listeners: Server[],
    private readonly outcome: { resolve: () => void; reject: (error: Error) => void },
  ) {
    this.slots = Array.from({ length: options.workers }, (_, index) => ({
      index,
      worker: undefined,
      startedAt: 0,
      quickDeaths: 0,
      replacing: undefined,
    }));
  }

  start(): void {
    for (const slot of this.slots) this.fork(slot);
  }

  private live(): Worker[] {
    return this.slots.filter((slot) => slot.worker !== undefined).map((slot) => slot.worker!);
  }

  private fork(slot: Slot): void {
    let worker: Worker;
    try {
      worker = cluster.fork();
    } catch (error) {
      // No process could be made (EAGAIN, say): try again after the pause a quick death earns.
      this.options.log.error({ err: error }, 'starting a worker failed');
      this.replaceLater(slot);
      return;
    }
    slot.worker = worker;
    slot.startedAt = Date.now();
    this.slotOf.set(worker, slot);
    worker.on('message', (message: WorkerMessage | undefined) => this.heard(worker, slot, message));
    worker.on('error', (error) => {
      this.options.log.error({ err: error, worker: worker.id }, 'a worker failed');
      // A process that could not be made (out of file descriptors, say) never exits: it is a death all the same.
      if (worker.process.pid === undefined) this.died(worker, null, null);
    });
    // Once the process has exited and its IPC channel is read to the end (the channel's 'close'),
    // and the messages of that last read are emitted (they come on the next tick), what the worker
    // did not say it took, it never will. ('disconnect' would not do: Node postpones it, for ever,
    // while a handle sent to the worker awaits its acknowledgement.)
    worker.process.once('close', () => setImmediate(() => this.handout.gone(worker)));
  }

  private heard(worker: Worker, slot: Slot, message: WorkerMessage | undefined): void {
    switch (message?.type) {
      case 'key?':
        toWorker(worker, { type: 'key', keyring: this.options.keyring() });
        break;
      case 'serving':
        this.options.log.info(
          { worker: worker.id, workerPid: worker.process.pid, startedInMs: Date.now() - slot.startedAt },
          'worker listening',
        );
        if (this.closing) break;
        if (this.stopping) toWorker(worker, { type: 'stopping' });
        this.handout.serve(worker);
        this.served.add(slot);
        if (!this.started && this.served.size === this.options.workers) {
          this.started = true;
          this.outcome.resolve();
        }
        break;
      case 'taken':
        this.handout.taken(message.seq);
        break;
      case 'draining':
        this.handout.leave(worker);
        break;
      case 'refused':
        this.handout.refused(message.seq);
        break;
    }
  }

  died(worker: Worker, code: number | null, signal: string | null): void {
    const slot = this.slotOf.get(worker);
    if (!slot) return;
    this.slotOf.delete(worker);
    slot.worker = undefined;
    this.handout.leave(worker);
    if (this.closing) {
      if (this.live().length === 0) this.finish();
      return;
    }
    if (this.served.size === 0) {
      // No worker could serve yet: the worker said why on its own stderr; the others stop, and so does the start.
      this.closing = true;
      for (const listener of this.listeners) listener.close();
      this.handout.closeWaiting();
      for (const other of this.live()) other.process.kill('SIGTERM');
      this.outcome.reject(new Error(`a worker exited during start-up (${signal ?? `code ${code}`})`));
      return;
    }
    slot.quickDeaths = Date.now() - slot.startedAt < STABLE_MS ? slot.quickDeaths + 1 : 0;
    const pause = replacementPause(slot.quickDeaths);
    this.options.log.error(
      {
        worker: worker.id,
        workerPid: worker.process.pid,
        code,
        signal,
        replacingInMs: pause,
        waiting: this.handout.waitingCount(),
      },
      'a worker died: starting another',
    );
    this.replaceLater(slot, pause);
  }

  private replaceLater(slot: Slot, pause = replacementPause(++slot.quickDeaths)): void {
    // Kept referenced: while no worker is left, this timer is what the primary waits on.
    slot.replacing = setTimeout(() => {
      slot.replacing = undefined;
      if (!this.closing) this.fork(slot);
    }, pause);
  }

  private finish(): void {
    for (const listener of this.listeners) listener.close();
    process.exit(0);
  }

  /** SIGTERM first makes every worker answer not ready while connections are still handed out. */
  notReady(signal: NodeJS.Signals): void {
    this.stopping = true;
    for (const worker of this.live()) toWorker(worker, { type: 'stopping' });
    this.options.log.info(
      { signal, drainDelayMs: this.options.drainDelayMs },
      'stopping: not ready, still serving until the drain',
    );
  }

  stop(signal: NodeJS.Signals): void {
    if (this.closing) return;
    this.closing = true;
    // New connections are refused once every worker has closed its copy of the port too.
    for (const listener of this.listeners) listener.close();
    this.handout.closeWaiting();
    for (const slot of this.slots) clearTimeout(slot.replacing);
    const workers = this.live();
    this.options.log.info(
      { signal, workers: workers.length },
      'shutting down: every worker finishes its in-flight requests',
    );
    if (workers.length === 0) this.finish();
    for (const worker of workers) worker.process.kill('SIGTERM');
  }

  /** Reloads the keyring for the workers, and passes SIGHUP on when they have a certificate to reload. */
  hangUp(): void {
    void this.options.reloadKeyring().then(() => {
      for (const worker of this.live()) toWorker(worker, { type: 'key', keyring: this.options.keyring() });
    });
    if (this.options.forwardHangUp) for (const worker of this.live()) worker.process.kill('SIGHUP');
  }
}
