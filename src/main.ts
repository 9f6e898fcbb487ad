#!/usr/bin/env node
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { migrate, openStore } from './db/connect.js';
import { runRotateKey, takeNewKeyOption } from './secrets/command.js';
import { prepareStore } from './startup.js';
import { usage } from './usage.js';
import { VERSION } from './version.js';

async function main(argv: string[]): Promise<number> {
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
  const store = await openStore(config);
  const { generatedToken: generated, sealer } = await prepareStore(store, config);
  if (generated) {
    // Shown once: only its hash is stored. A copy is in the data folder, readable by this user only.
    console.log(`varsetd: generated a site-admin token (also in ${config.dataDir}/admin-token):\n${generated}`);
  }
  const app = await buildApp({ store, sealer, publicUrl: config.publicUrl, logger: { level: config.logLevel }, responseCacheSize: config.responseCacheMb * 1024 * 1024, timeouts: config.timeouts });

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

  await app.listen({ host: config.host, port: config.port });
  return -1;
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
    console.error('varsetd: failed to start:', error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
