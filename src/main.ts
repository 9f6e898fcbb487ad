#!/usr/bin/env node
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { runExec } from './exec/command.js';
import { migrate, openStore } from './db/connect.js';
import { runRotateKey, takeNewKeyOption } from './secrets/command.js';
import { prepareStore } from './startup.js';
import { readCertificate, reloadCertificate } from './http/tls.js';
import { formatSummary, startSummary } from './summary.js';
import { usage } from './usage.js';
import { VERSION } from './version.js';

async function main(argv: string[]): Promise<number> {
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
  if (command === 'rotate-key') {
    const { newKey, rest: others } = takeNewKeyOption(rest);
    return runRotateKey(loadConfig(process.env, others), newKey);
  }
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

async function serve(config: Config): Promise<number> {
  // A person at a terminal gets a summary and readable log lines; anything else (a file, a log
  // collector) gets one JSON object per line, the summary included.
  const terminal = process.stdout.isTTY === true;
  const tls = config.tls ? readCertificate(config.tls) : undefined;
  const store = await openStore(config);
  const prepared = await prepareStore(store, config);
  const logger = { level: config.logLevel, ...(terminal ? { stream: await prettyLog() } : {}) };
  const app = await buildApp({
    store,
    sealer: prepared.key.sealer,
    publicUrl: config.publicUrl,
    logger,
    responseCacheSize: config.responseCacheMb * 1024 * 1024,
    timeouts: config.timeouts,
    tls,
    trustProxy: config.trustProxy,
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    try {
      await app.close();
    } finally {
      await store.close();
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  const tlsFiles = config.tls;
  const server = app.server;
  if (tlsFiles && server instanceof https.Server) {
    process.on('SIGHUP', () => {
      const result = reloadCertificate(server, tlsFiles);
      if (result.reloaded) app.log.info({ cert: tlsFiles.certFile }, 'reloaded the TLS certificate');
      else app.log.error({ reason: result.reason }, 'kept the current TLS certificate: reloading it failed');
    });
  }

  await app.listen({
    host: config.host,
    port: config.port,
    // Fastify names the scheme from its own https option, which the server factory stands in for.
    listenTextResolver: (address) => `Server listening at ${tls ? address.replace(/^http:/, 'https:') : address}`,
  });
  const summary = startSummary(config, prepared, app.server.address() as AddressInfo);
  if (terminal) process.stdout.write(formatSummary(summary));
  else app.log.info(summary, `varsetd ${VERSION} started`);
  return -1;
}

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
