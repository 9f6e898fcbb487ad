import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { Handout, listenOn } from './connection-handout.js';
import { Supervisor, type SuperviseOptions } from './supervisor.js';
import { toPrimary, type PrimaryMessage } from './worker-messages.js';

/**
 * `varsetd serve` with several worker processes (Node's cluster) serving one port. The started
 * process, the primary, readies the store once and serves nothing itself: it listens on the
 * port, starts the workers, hands each the keyring (again after each reload) and then every connection in turn
 * over the IPC channel, replaces a worker that dies, passes SIGHUP on, and on SIGTERM or SIGINT
 * lets every worker finish its requests and exits after the last one. How connections reach the workers, and why the primary hands them out itself: src/connection-handout.ts.
 */

/**
 * Listens on the port, starts the workers, and resolves with the address once a worker has served
 * in every place. Until a first worker serves, a worker that dies fails the start: the others are
 * stopped and the promise rejects (a port that cannot be listened on rejects it too). Once one
 * serves, the start is done: a worker that dies later, still starting or not, is replaced.
 */
export async function superviseWorkers(options: SuperviseOptions): Promise<AddressInfo> {
  const handout = new Handout(options.log);
  const listeners = await listenOn(options.host, options.port, options.log, (socket) => handout.add(socket));
  return new Promise<AddressInfo>((resolve, reject) => {
    const supervisor = new Supervisor(options, handout, listeners, {
      resolve: () => resolve(listeners[0]!.address() as AddressInfo),
      reject,
    });
    cluster.on('exit', (worker, code, signal) => supervisor.died(worker, code, signal));
    onStopSignals({
      drainDelayMs: options.drainDelayMs,
      closing: () => supervisor.closing,
      notReady: (signal) => supervisor.notReady(signal),
      stop: (signal) => supervisor.stop(signal),
    });
    // SIGHUP must never end the primary: it reloads the keyring for the workers, and is passed on when they have a certificate to reload.
    process.on('SIGHUP', () => supervisor.hangUp());
    // Nothing left to wait on while serving would be a bug: exit non-zero, so that a service manager restarts varsetd.
    process.on('beforeExit', () => {
      if (supervisor.closing) return;
      options.log.fatal('the primary has nothing left to wait on: exiting so that it is restarted');
      process.exit(70);
    });
    supervisor.start();
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
