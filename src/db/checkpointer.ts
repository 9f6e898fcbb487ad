import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import { sqliteModule } from './sqlite-module.js';

/**
 * SQLite copies the write-ahead log back into the database file (a checkpoint) in the
 * connection whose commit takes the log past 1,000 pages. That commit then waits for two
 * fsyncs, and since better-sqlite3 runs on the event loop, so does every request of the
 * process: a few milliseconds every hundred or so writes. A server's connection leaves
 * checkpoints to a thread of its own instead, which runs a passive checkpoint (one that never
 * waits for readers or writers) every CHECKPOINT_INTERVAL_MS. Should that thread ever stop, the
 * connection goes back to checkpointing for itself, so the log cannot grow without end.
 */
const CHECKPOINT_INTERVAL_MS = 200;
/** SQLite's own default, restored when the thread stops. */
const AUTOCHECKPOINT_PAGES = 1000;

/**
 * The thread's whole program, in plain JavaScript so that it runs the same from the build and
 * from the TypeScript sources: it opens its own connection and checkpoints until told to stop.
 */
const CHECKPOINTS = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, { fileMustExist: true });
const timer = setInterval(() => db.pragma('wal_checkpoint(PASSIVE)'), workerData.intervalMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
});
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

/** Moves the checkpoints of `connection` (open on `file`) to a thread of their own. */
export function startCheckpointer(connection: BetterSqlite3.Database, file: string): Checkpointer {
  connection.pragma('wal_autocheckpoint = 0');
  const worker = new Worker(CHECKPOINTS, {
    eval: true,
    workerData: { module: sqliteModule().path, file, intervalMs: CHECKPOINT_INTERVAL_MS },
  });
  worker.unref();
  let stopping = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.once('exit', () => {
    if (!stopping && connection.open) connection.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  });
  // An error ends the thread; the exit handler above takes over.
  worker.on('error', () => {});
  return {
    async stop() {
      stopping = true;
      // Kept alive until the thread has closed its connection.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
