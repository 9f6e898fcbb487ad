import type { Worker } from 'node:cluster';

/**
 * The messages between the primary and its workers on the IPC channel (src/workers.ts,
 * src/connection-handout.ts). A worker asks for the keyring once it listens for the answer (a message
 * sent before that would be lost).
 */
export type WorkerMessage =
  | { type: 'key?' }
  /** Takes connections from now on. */
  | { type: 'serving' }
  /** Took the connection; the primary closes its copy. */
  | { type: 'taken'; seq: number }
  /** Drains: takes no more connections, and hands back those it is sent meanwhile. */
  | { type: 'draining' }
  | { type: 'refused'; seq: number };
/**
 * `keyring`: the keyring's text (src/secrets/keyring-file.ts), sent again after each reload.
 * `stopping`: the primary was told to stop; the worker answers not ready while it still serves,
 * until its SIGTERM.
 */
export type PrimaryMessage =
  { type: 'key'; keyring: string } | { type: 'connection'; seq: number } | { type: 'stopping' };

/** Tells a worker, if it is still there. */
export function toWorker(worker: Worker, message: PrimaryMessage): void {
  // A worker that just died cannot be told anything: its exit is handled on its own.
  worker.send(message, undefined, {}, () => {});
}

/** Tells the primary, if it is still there. */
export function toPrimary(message: WorkerMessage): void {
  // Once the primary is gone there is no one to tell; the worker stops on `disconnect`.
  if (process.connected) process.send!(message, undefined, {}, () => {});
}
