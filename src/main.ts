#!/usr/bin/env node
import https from 'node:https';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { runExec } from './exec/command.js';
import { migrate, openStore } from './db/connect.js';
import { runRotateKey, takeNewKeyOption } from './secrets/command.js';
import { prepareStore } from './startup.js';
import { readCertificate, reloadCertificate } from './http/tls.js';

const USAGE = `usage: varsetd [serve|migrate|rotate-key|exec] [--host H] [--port P] [--data-dir DIR] [--database-url URL]
                [--admin-token TOKEN] [--public-url URL] [--encryption-key KEY] [--log-level LEVEL]
                [--response-cache-mb MB] [--request-timeout S] [--headers-timeout S] [--keep-alive-timeout S]
                [--tls-cert FILE --tls-key FILE] [--trust-proxy true|false|ADDRESSES]

  serve       run migrations, then serve the API (default)
  migrate     run migrations and exit
  rotate-key  [--new-key KEY] re-encrypt every sealed value with a new key (generated when
              omitted) in one transaction; stop every varsetd serving the store first
  exec        --workspace ORG/WORKSPACE [...] -- COMMAND: run COMMAND with a run's variables
              (varsetd exec --help)
Every flag has an environment variable: HOST, PORT, VARSETD_DATA_DIR, DATABASE_URL,
VARSETD_ADMIN_TOKEN, VARSETD_PUBLIC_URL, VARSETD_ENCRYPTION_KEY, LOG_LEVEL, VARSETD_RESPONSE_CACHE_MB,
VARSETD_REQUEST_TIMEOUT, VARSETD_HEADERS_TIMEOUT, VARSETD_KEEP_ALIVE_TIMEOUT, VARSETD_TLS_CERT,
VARSETD_TLS_KEY, VARSETD_TRUST_PROXY. With a certificate, SIGHUP reloads it.`;

async function main(argv: string[]): Promise<number> {
  const [command = 'serve', ...rest] = argv[0]?.startsWith('-') ? ['serve', ...argv] : argv;
  if (command === 'exec') return runExec(rest, process.env);
  if (command === 'help' || command === '--help' || rest.includes('--help')) {
    console.log(USAGE);
    return 0;
  }
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
  const tls = config.tls ? readCertificate(config.tls) : undefined;
  const store = await openStore(config);
  const { generatedToken: generated, sealer } = await prepareStore(store, config);
  if (generated) {
    // Shown once: only its hash is stored. A copy is in the data folder, readable by this user only.
    console.log(`varsetd: generated a site-admin token (also in ${config.dataDir}/admin-token):\n${generated}`);
  }
  const app = await buildApp({ store, sealer, publicUrl: config.publicUrl, logger: { level: config.logLevel }, responseCacheSize: config.responseCacheMb * 1024 * 1024, timeouts: config.timeouts, tls, trustProxy: config.trustProxy });

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
  return -1;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    if (error instanceof ConfigError) {
      console.error(`varsetd: ${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    console.error('varsetd: failed to start:', error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
