import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../app.js';
import { pruneAuditTrailPeriodically } from '../audit/retention.js';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { runExec } from '../exec/command.js';
import { migrate, openStore, reach, type Store } from '../db/connect.js';
import { runRotateKey } from './rotate-key.js';
import { runKeys } from './keys.js';
import { reloadKeyring, workerKeyring } from './keyring-reload.js';
import { prepareStore, type PreparedStore } from './startup.js';
import { readCertificate, reloadCertificate, type TlsCredentials } from '../http/tls.js';
import { formatSummary, startSummary, type StartSummary } from './summary.js';
import type { LoadedKeyring } from '../secrets/key.js';
import type { Keyring, ReloadableKeyring } from '../secrets/keyring.js';
import { formatKeyring } from '../secrets/keyring-file.js';
import { isWorker, keyringFromPrimary, superviseWorkers } from './workers.js';
import { privateSocketPath, takeConnectionsFromPrimary, type ConnectionsFromPrimary } from './connection-handout.js';
import { serveMetricsToWorkers } from '../metrics/cluster.js';
import pino from 'pino';
import { usage } from './usage.js';
import { unsupportedNode, VERSION } from '../version.js';

async function main(argv: string[]): Promise<number> {
  const refusal = unsupportedNode();
  if (refusal) {
    console.error(`varsetd: ${refusal}`);
    return 1;
  }
  // exec has its own options, and COMMAND's arguments after `--` are not varsetd's.
  if (argv[0] === 'exec') return runExec(argv.slice(1), process.env);
  if (argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') {
    console.log(usage());
    return 0;
  }
  if (argv.includes('--version')) {
    console.log(`varsetd ${VERSION}`);
    return 0;
  }
  const [command = 'serve', ...rest] = argv[0]?.startsWith('-') ? ['serve', ...argv] : argv;
  if (command === 'rotate-key') return runRotateKey(rest, process.env);
  if (command === 'keys') return runKeys(rest, process.env);
  const config = loadConfig(process.env, rest);
  switch (command) {
    case 'migrate':
      return runMigrate(config);
    case 'serve':
      return serve(config);
    default:
      throw new ConfigError(`unknown command ${command}`);
  }
}

async function runMigrate(config: Config): Promise<number> {
  const store = await openStore(config);
  try {
    const applied = await store.exclusively(() => migrate(store));
    console.log(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database is up to date');
  } finally {
    await store.close();
  }
  return 0;
}

/**
 * One process serves, or (VARSETD_WORKERS above 1) the started process readies the store and
 * starts workers that serve (src/workers.ts); each worker runs `serve` again and lands in `serveRequests`.
 */
async function serve(config: Config): Promise<number> {
  if (config.workers > 1 && isWorker()) {
    // Until it serves, a worker told to stop, or whose primary is gone, has nothing to finish.
    const stopAtOnce = () => process.exit(0);
    const untilServing = ['SIGTERM', 'SIGINT', 'disconnect'] as const;
    for (const event of untilServing) process.on(event, stopAtOnce);
    // Keyrings the primary sends after the first (on SIGHUP) come once this one is made.
    const keyring: ReloadableKeyring = workerKeyring(config, await keyringFromPrimary((text) => keyring.replace(workerKeyring(config, text).keys)));
    await serveRequests(config, keyring, undefined, () => {
      for (const event of untilServing) process.removeListener(event, stopAtOnce);
    });
    return -1;
  }
  const tls = config.tls ? readCertificate(config.tls) : undefined;
  const store = await openReachableStore(config);
  let prepared: PreparedStore;
  try {
    prepared = await prepareStore(store, config);
  } catch (error) {
    await store.close();
    throw error;
  }
  if (config.workers === 1) {
    const app = await serveRequests(config, prepared.key.keyring, { store, tls, keyring: prepared.key });
    logSummary(app.log, startSummary(config, prepared, app.server.address() as AddressInfo));
    return -1;
  }
  const log = process.stdout.isTTY ? pino({ level: config.logLevel }, await prettyLog()) : pino({ level: config.logLevel });
  // The primary serves no request: it keeps the store only to prune the audit trail, once for all the workers.
  pruneAuditTrailPeriodically(store, config.auditRetentionDays, log);
  serveMetricsToWorkers(config.workers);
  const address = await superviseWorkers({
    workers: config.workers,
    keyring: () => formatKeyring(prepared.key.keyring.keys, '\n'),
    reloadKeyring: () => reloadKeyring(prepared.key, store, log),
    log,
    forwardHangUp: config.tls !== undefined,
    host: config.host,
    port: config.port,
  });
  logSummary(log, startSummary(config, prepared, address));
  return -1;
}

/**
 * The store `serve` readies, reached once: a store that cannot be opened or reached ends the
 * start with one line saying which store and why (the primary gives up; a service manager may
 * start it again).
 */
async function openReachableStore(config: Config): Promise<Store> {
  const which = config.databaseUrl ? `PostgreSQL at ${postgresLocation(config.databaseUrl)} (DATABASE_URL)` : `the SQLite store in ${config.dataDir} (VARSETD_DATA_DIR)`;
  let store: Store | undefined;
  try {
    store = await openStore({ ...config, checkpointInBackground: true });
    await reach(store);
    return store;
  } catch (error) {
    await store?.close().catch(() => {});
    throw new Error(`cannot open ${which}: ${describeError(error)}`);
  }
}

/** Host, port and database of a PostgreSQL URL: never its user or password. */
function postgresLocation(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  return `${url.hostname}:${url.port || '5432'}${url.pathname}`;
}

/** An error's message; for one naming several (a host with two addresses refusing both), each of theirs. */
function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return [...new Set(error.errors.map(describeError))].join('; ');
  return error instanceof Error ? error.message : String(error);
}

/** A person at a terminal gets the summary as a few lines; anything else (a file, a log collector) as one JSON log line. */
function logSummary(log: { info: (object: object, message: string) => void }, summary: StartSummary): void {
  if (process.stdout.isTTY) process.stdout.write(formatSummary(summary));
  else log.info(summary, `varsetd ${VERSION} started`);
}

/** Serves the API from this process until SIGTERM or SIGINT (or, in a worker, until its primary is gone). */
async function serveRequests(
  config: Config,
  sealer: Keyring,
  opened?: { store: Store; tls: TlsCredentials | undefined; keyring: LoadedKeyring },
  onShutdownHandled: () => void = () => {},
) {
  // A person at a terminal gets readable log lines; anything else one JSON object per line.
  const terminal = process.stdout.isTTY;
  const tls = opened ? opened.tls : config.tls ? readCertificate(config.tls) : undefined;
  const store = opened?.store ?? (await openStore({ ...config, checkpointInBackground: true }));
  const logger = { level: config.logLevel, ...(terminal ? { stream: await prettyLog() } : {}) };
  const app = await buildApp({
    store,
    sealer,
    publicUrl: config.publicUrl,
    logger,
    responseCacheSize: config.responseCacheMb * 1024 * 1024,
    timeouts: config.timeouts,
    tls,
    trustProxy: config.trustProxy,
    metrics: { token: config.metricsToken, inCluster: isWorker() },
    notifications: { allowPrivateAddresses: config.notificationsAllowPrivate, deliver: {} },
  });

  // A process serving alone prunes the audit trail itself; workers leave it to their primary.
  const stopPruning = isWorker() ? () => {} : pruneAuditTrailPeriodically(store, config.auditRetentionDays, app.log);

  // In a worker: the connections the primary hands over (src/workers.ts).
  let fromPrimary: ConnectionsFromPrimary | undefined;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    // Once the server closes, Node no longer times out slow requests: a request not finished by
    // the time one may take is cut off, so that a drain always ends.
    setTimeout(() => {
      app.log.warn('shutting down: closing the connections of requests still unfinished');
      app.server.closeAllConnections();
    }, config.timeouts.requestMs + DRAIN_MARGIN_MS).unref();
    stopPruning();
    try {
      fromPrimary?.stop();
      await app.close();
      await fromPrimary?.drained(() => app.server.closeIdleConnections());
    } finally {
      await store.close();
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // A worker whose primary is gone stops too.
  if (isWorker()) process.on('disconnect', () => void shutdown('disconnect'));
  onShutdownHandled();
  const tlsFiles = config.tls;
  const server = app.server;
  // SIGHUP reloads the keyring (a worker's comes from its primary) and the certificate; it must not end the process.
  process.on('SIGHUP', () => {
    if (opened) void reloadKeyring(opened.keyring, store, app.log);
    if (!tlsFiles || !(server instanceof https.Server)) return app.log.info('SIGHUP: no certificate to reload (serving HTTP)');
    const result = reloadCertificate(server, tlsFiles);
    if (result.reloaded) app.log.info({ cert: tlsFiles.certFile }, 'reloaded the TLS certificate');
    else app.log.error({ reason: result.reason }, 'kept the current TLS certificate: reloading it failed');
  });

  if (isWorker()) {
    // The primary listens on the port and hands each connection to a worker in turn.
    await app.listen({ path: privateSocketPath(), exclusive: true, listenTextResolver: () => 'Serving the connections the primary hands over' });
    fromPrimary = takeConnectionsFromPrimary(app.server);
    return app;
  }
  await app.listen({
    host: config.host,
    port: config.port,
    // Fastify names the scheme from its own https option, which the server factory stands in for.
    listenTextResolver: (address) => `Server listening at ${tls ? address.replace(/^http:/, 'https:') : address}`,
  });
  return app;
}

/** How long past the request timeout a drain waits for unfinished requests. */
const DRAIN_MARGIN_MS = 1_000;

/** Log lines for a person: one line each, local time. Loaded only then, as JSON needs none of it. */
async function prettyLog() {
  const { default: pretty } = await import('pino-pretty');
  return pretty({ sync: true, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    if (error instanceof ConfigError) {
      console.error(`varsetd: ${error.message}\n(varsetd --help lists every command and option)`);
      process.exit(2);
    }
    const message = error instanceof Error ? error.message : String(error);
    const hint = (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? ' (another program listens there: choose another port with PORT or --port)' : '';
    console.error(`varsetd: failed to start: ${message}${hint}`);
    process.exit(1);
  },
);
