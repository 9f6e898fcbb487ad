import https from 'node:https';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { buildApp } from '../app.js';
import { pruneAuditTrailPeriodically } from '../audit/retention.js';
import { loadConfig, SETTINGS, type Config } from '../config.js';
import { openStore, type Store } from '../db/connect.js';
import { readCertificate, reloadCertificate, type TlsCredentials } from '../http/tls.js';
import { serveMetricsToWorkers } from '../metrics/cluster.js';
import type { LoadedKeyring } from '../secrets/key.js';
import type { Keyring, ReloadableKeyring } from '../secrets/keyring.js';
import { formatKeyring } from '../secrets/keyring-file.js';
import { reloadKeyring, workerKeyring } from './keyring-reload.js';
import { VERSION } from '../version.js';
import { stopWhenLauncherGoes } from './launcher-watch.js';
import { checkPortIsFree } from './port-check.js';
import { openReachableStore } from './store-connection.js';
import { privateSocketPath, takeConnectionsFromPrimary, type ConnectionsFromPrimary } from './connection-handout.js';
import { prepareStore, type PreparedStore } from './startup.js';
import { formatSummary, startSummary, type StartSummary } from './summary.js';
import { row, settingRows } from './usage.js';
import { isWorker, keyringFromPrimary, onStopSignals, superviseWorkers, whenPrimaryStops } from './workers.js';

export const HELP = [
  'usage: varsetd serve [options]',
  '       varsetd [options]',
  '',
  'Runs the migrations, settles the site-admin token and the encryption key, then serves the',
  'API until SIGTERM or SIGINT (SIGHUP reloads the keyring file and the TLS certificate). The',
  'default command.',
  '',
  'options, each also read from the environment variable in brackets (a flag wins; defaults in parentheses):',
  ...settingRows(SETTINGS),
  row('--help, -h', 'show this help'),
].join('\n');

/** `varsetd serve`: the process returns -1 and keeps running until it is told to stop. */
export async function run(args: string[]): Promise<number> {
  return serve(loadConfig(process.env, args));
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
    const keyring: ReloadableKeyring = workerKeyring(
      config,
      await keyringFromPrimary((text) => keyring.replace(workerKeyring(config, text).keys)),
    );
    await serveRequests(config, keyring, undefined, () => {
      for (const event of untilServing) process.removeListener(event, stopAtOnce);
    });
    return -1;
  }
  stopWhenLauncherGoes();
  const tls = config.tls ? readCertificate(config.tls) : undefined;
  await checkPortIsFree(config.host, config.port);
  const store = await openReachableStore(config, { checkpointInBackground: true });
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
  const log = process.stdout.isTTY
    ? pino({ level: config.logLevel }, await prettyLog())
    : pino({ level: config.logLevel });
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
    drainDelayMs: config.drainDelayMs,
  });
  logSummary(log, startSummary(config, prepared, address));
  return -1;
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
    importSources: config.importSources,
    workloadIdentity: config.workloadIdentity
      ? {
          issuer: config.publicUrl!,
          tokenTtlMs: config.workloadIdentityTokenTtlMs,
          runLifetimeMs: config.workloadIdentityRunLifetimeMs,
        }
      : undefined,
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
  // Alone, SIGTERM first answers not ready for the drain delay while still serving (superviseWorkers
  // does this for its workers: a worker's SIGTERM drains at once).
  onStopSignals({
    drainDelayMs: isWorker() ? 0 : config.drainDelayMs,
    closing: () => closing,
    notReady: (signal) => {
      app.readiness.stop();
      app.log.info({ signal, drainDelayMs: config.drainDelayMs }, 'stopping: not ready, still serving until the drain');
    },
    stop: (signal) => void shutdown(signal),
  });
  if (isWorker()) {
    whenPrimaryStops(() => app.readiness.stop());
    // A worker whose primary is gone stops too.
    process.on('disconnect', () => void shutdown('disconnect'));
  }
  onShutdownHandled();
  const tlsFiles = config.tls;
  const server = app.server;
  // SIGHUP reloads the keyring (a worker's comes from its primary) and the certificate; it must not end the process.
  process.on('SIGHUP', () => {
    if (opened) void reloadKeyring(opened.keyring, store, app.log);
    if (!tlsFiles || !(server instanceof https.Server))
      return app.log.info('SIGHUP: no certificate to reload (serving HTTP)');
    const result = reloadCertificate(server, tlsFiles);
    if (result.reloaded) app.log.info({ cert: tlsFiles.certFile }, 'reloaded the TLS certificate');
    else app.log.error({ reason: result.reason }, 'kept the current TLS certificate: reloading it failed');
  });

  if (isWorker()) {
    // The primary listens on the port and hands each connection to a worker in turn.
    await app.listen({
      path: privateSocketPath(),
      exclusive: true,
      listenTextResolver: () => 'Serving the connections the primary hands over',
    });
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
