import cluster, { type Worker } from 'node:cluster';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';

/**
 * `varsetd serve` with several worker processes (Node's cluster) sharing one port. The started
 * process, the primary, readies the store once and serves nothing itself: it starts the
 * workers, hands each the encryption key over the IPC channel, replaces a worker that dies,
 * passes SIGHUP on, and on SIGTERM or SIGINT lets every worker finish its requests and exits
 * after the last one.
 */

/** A worker asks for the key once it listens for the answer (a message sent before that would be lost). */
type WorkerMessage = { type: 'key?' };
type PrimaryMessage = { type: 'key'; key: string };

/** A worker that lived at least this long before dying is replaced at once; one that died sooner, after a growing pause. */
const STABLE_MS = 10_000;
const FIRST_PAUSE_MS = 250;
const LONGEST_PAUSE_MS = 30_000;

/** How long to wait before replacing a worker, after `quickDeaths` deaths in a row that came soon after their start. */
export function replacementPause(quickDeaths: number): number {
  return quickDeaths === 0 ? 0 : Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (quickDeaths - 1));
}

export interface SuperviseOptions {
  workers: number;
  /** The 32-byte key every worker seals and opens sensitive values with. */
  key: Buffer;
  log: Logger;
  /** Whether workers reload their certificate on SIGHUP (they serve HTTPS). */
  forwardHangUp: boolean;
}

/**
 * Starts the workers; resolves with the address they listen on once all of them do. A worker
 * that dies before that fails the start: the others are stopped and the promise rejects.
 */
export function superviseWorkers(options: SuperviseOptions): Promise<AddressInfo> {
  const { log } = options;
  const started = new Map<Worker, number>();
  let quickDeaths = 0;
  let closing = false;
  let listening = 0;
  let startingUp = true;

  const fork = () => {
    const worker = cluster.fork();
    started.set(worker, Date.now());
    worker.on('message', (message: WorkerMessage) => {
      if (message?.type === 'key?') worker.send({ type: 'key', key: options.key.toString('base64') } satisfies PrimaryMessage);
    });
  };

  return new Promise<AddressInfo>((resolve, reject) => {
    cluster.on('listening', (worker, address) => {
      log.info({ worker: worker.id, workerPid: worker.process.pid }, 'worker listening');
      if (!startingUp) return;
      if (++listening === options.workers) {
        startingUp = false;
        resolve({ address: address.address ?? '', port: address.port, family: address.addressType === 6 ? 'IPv6' : 'IPv4' });
      }
    });

    cluster.on('exit', (worker, code, signal) => {
      const startedAt = started.get(worker) ?? Date.now();
      started.delete(worker);
      if (closing) {
        if (started.size === 0) process.exit(0);
        return;
      }
      if (startingUp) {
        // The worker said why on its own stderr; the others stop, and so does the start.
        closing = true;
        for (const other of started.keys()) other.process.kill('SIGTERM');
        reject(new Error(`a worker exited during start-up (${signal ?? `code ${code}`})`));
        return;
      }
      quickDeaths = Date.now() - startedAt < STABLE_MS ? quickDeaths + 1 : 0;
      const pause = replacementPause(quickDeaths);
      log.error({ worker: worker.id, workerPid: worker.process.pid, code, signal, replacingInMs: pause }, 'a worker died: starting another');
      setTimeout(() => !closing && fork(), pause).unref();
    });

    const stop = (signal: NodeJS.Signals) => {
      if (closing) return;
      closing = true;
      log.info({ signal, workers: started.size }, 'shutting down: every worker finishes its in-flight requests');
      if (started.size === 0) process.exit(0);
      for (const worker of started.keys()) worker.process.kill('SIGTERM');
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
    if (options.forwardHangUp) {
      process.on('SIGHUP', () => {
        for (const worker of started.keys()) worker.process.kill('SIGHUP');
      });
    }

    for (let i = 0; i < options.workers; i++) fork();
  });
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
    process.send!({ type: 'key?' } satisfies WorkerMessage);
  });
}

export const isWorker = () => cluster.isWorker;
