import cluster, { type Worker } from 'node:cluster';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { Handout, listenOn } from './connection-handout.js';
import { toPrimary, toWorker, type PrimaryMessage, type WorkerMessage } from './worker-messages.js';

/**
 * `varsetd serve` with several worker processes (Node's cluster) serving one port. The started
 * process, the primary, readies the store once and serves nothing itself: it listens on the
 * port, starts the workers, hands each the keyring (again after each reload) and then every connection in turn
 * over the IPC channel, replaces a worker that dies, passes SIGHUP on, and on SIGTERM or SIGINT
 * lets every worker finish its requests and exits after the last one. How connections reach the workers, and why the primary hands them out itself: src/connection-handout.ts.
 */

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

/**
 * Listens on the port, starts the workers, and resolves with the address once a worker has served
 * in every place. Until a first worker serves, a worker that dies fails the start: the others are
 * stopped and the promise rejects (a port that cannot be listened on rejects it too). Once one
 * serves, the start is done: a worker that dies later, still starting or not, is replaced.
 */
export async function superviseWorkers(options: SuperviseOptions): Promise<AddressInfo> {
  const { log } = options;
  const handout = new Handout(log);
  const listeners = await listenOn(options.host, options.port, log, (socket) => handout.add(socket));

  const slots: Slot[] = Array.from({ length: options.workers }, (_, index) => ({
    index,
    worker: undefined,
    startedAt: 0,
    quickDeaths: 0,
    replacing: undefined,
  }));
  const slotOf = new Map<Worker, Slot>();
  const live = () => slots.filter((slot) => slot.worker !== undefined).map((slot) => slot.worker!);
  let closing = false;
  /** The places a worker has served in: until the first, the start can still fail. */
  const served = new Set<Slot>();
  let resolved = false;

  return new Promise<AddressInfo>((resolve, reject) => {
    const fork = (slot: Slot) => {
      let worker: Worker;
      try {
        worker = cluster.fork();
      } catch (error) {
        // No process could be made (EAGAIN, say): try again after the pause a quick death earns.
        log.error({ err: error }, 'starting a worker failed');
        return replaceLater(slot);
      }
      slot.worker = worker;
      slot.startedAt = Date.now();
      slotOf.set(worker, slot);
      worker.on('message', (message: WorkerMessage | undefined) => {
        switch (message?.type) {
          case 'key?':
            toWorker(worker, { type: 'key', keyring: options.keyring() });
            break;
          case 'serving':
            log.info(
              { worker: worker.id, workerPid: worker.process.pid, startedInMs: Date.now() - slot.startedAt },
              'worker listening',
            );
            if (closing) break;
            if (stopping) toWorker(worker, { type: 'stopping' });
            handout.serve(worker);
            served.add(slot);
            if (!resolved && served.size === options.workers) {
              resolved = true;
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
      worker.on('error', (error) => {
        log.error({ err: error, worker: worker.id }, 'a worker failed');
        // A process that could not be made (out of file descriptors, say) never exits: it is a death all the same.
        if (worker.process.pid === undefined) died(worker, null, null);
      });
      // Once the process has exited and its IPC channel is read to the end (the channel's 'close'),
      // and the messages of that last read are emitted (they come on the next tick), what the worker
      // did not say it took, it never will. ('disconnect' would not do: Node postpones it, for ever,
      // while a handle sent to the worker awaits its acknowledgement.)
      worker.process.once('close', () => setImmediate(() => handout.gone(worker)));
    };

    const died = (worker: Worker, code: number | null, signal: string | null) => {
      const slot = slotOf.get(worker);
      if (!slot) return;
      slotOf.delete(worker);
      slot.worker = undefined;
      handout.leave(worker);
      if (closing) {
        if (live().length === 0) finish();
        return;
      }
      if (served.size === 0) {
        // No worker could serve yet: the worker said why on its own stderr; the others stop, and so does the start.
        closing = true;
        for (const listener of listeners) listener.close();
        handout.closeWaiting();
        for (const other of live()) other.process.kill('SIGTERM');
        reject(new Error(`a worker exited during start-up (${signal ?? `code ${code}`})`));
        return;
      }
      slot.quickDeaths = Date.now() - slot.startedAt < STABLE_MS ? slot.quickDeaths + 1 : 0;
      const pause = replacementPause(slot.quickDeaths);
      log.error(
        {
          worker: worker.id,
          workerPid: worker.process.pid,
          code,
          signal,
          replacingInMs: pause,
          waiting: handout.waitingCount(),
        },
        'a worker died: starting another',
      );
      replaceLater(slot, pause);
    };
    cluster.on('exit', (worker, code, signal) => died(worker, code, signal));

    const replaceLater = (slot: Slot, pause = replacementPause(++slot.quickDeaths)) => {
      // Kept referenced: while no worker is left, this timer is what the primary waits on.
      slot.replacing = setTimeout(() => {
        slot.replacing = undefined;
        if (!closing) fork(slot);
      }, pause);
    };

    const finish = () => {
      for (const listener of listeners) listener.close();
      process.exit(0);
    };
    // SIGTERM first makes every worker answer not ready while connections are still handed out.
    let stopping = false;
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
    onStopSignals({
      drainDelayMs: options.drainDelayMs,
      closing: () => closing,
      notReady: (signal) => {
        stopping = true;
        for (const worker of live()) toWorker(worker, { type: 'stopping' });
        log.info({ signal, drainDelayMs: options.drainDelayMs }, 'stopping: not ready, still serving until the drain');
      },
      stop,
    });
    // SIGHUP must never end the primary: it reloads the keyring for the workers, and is passed on when they have a certificate to reload.
    process.on('SIGHUP', () => {
      void options.reloadKeyring().then(() => {
        for (const worker of live()) toWorker(worker, { type: 'key', keyring: options.keyring() });
      });
      if (options.forwardHangUp) for (const worker of live()) worker.process.kill('SIGHUP');
    });
    // Nothing left to wait on while serving would be a bug: exit non-zero, so that a service manager restarts varsetd.
    process.on('beforeExit', () => {
      if (closing) return;
      log.fatal('the primary has nothing left to wait on: exiting so that it is restarted');
      process.exit(70);
    });

    for (const slot of slots) fork(slot);
  });
}

/** In a worker: the keyring's text the primary sends once the worker is up; `reloaded` gets each one it sends after (on SIGHUP). */
export function keyringFromPrimary(reloaded: (keyring: string) => void): Promise<string> {
  return new Promise((resolve) => {
    let first = true;
    process.on('message', (message: PrimaryMessage | undefined) => {
      if (message?.type !== 'key') return;
      if (first) resolve(message.keyring);
      else reloaded(message.keyring);
      first = false;
    });
    toPrimary({ type: 'key?' });
  });
}

/**
 * SIGINT and SIGTERM end the process through `stop`, unless it is already `closing`. SIGTERM first
 * runs `notReady` and waits `drainDelayMs`, so that a load balancer sees the failed checks and
 * stops sending; then the drain. SIGINT (a person at a terminal: Ctrl-C reaches the workers too)
 * drains at once, and so does a second signal during that time. Neither ever cuts a request off.
 */
export function onStopSignals(options: {
  drainDelayMs: number;
  closing: () => boolean;
  notReady: (signal: NodeJS.Signals) => void;
  stop: (signal: NodeJS.Signals) => void;
}): void {
  let delaying = false;
  let delayed: NodeJS.Timeout | undefined;
  const signalled = (signal: NodeJS.Signals) => {
    if (options.closing()) return;
    if (!delaying && signal === 'SIGTERM' && options.drainDelayMs > 0) {
      delaying = true;
      options.notReady(signal);
      delayed = setTimeout(() => options.stop(signal), options.drainDelayMs);
      return;
    }
    clearTimeout(delayed);
    options.stop(signal);
  };
  process.on('SIGINT', () => signalled('SIGINT'));
  process.on('SIGTERM', () => signalled('SIGTERM'));
}

/** In a worker: `stopping` runs when the primary says it is going to stop (after SIGTERM). */
export function whenPrimaryStops(stopping: () => void): void {
  process.on('message', (message: PrimaryMessage | undefined) => {
    if (message?.type === 'stopping') stopping();
  });
}

export const isWorker = () => cluster.isWorker;
