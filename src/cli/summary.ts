import type { AddressInfo } from 'node:net';
import type { AdminTokenOutcome } from '../auth/tokens.js';
import type { Config } from '../config.js';
import { sqliteFile } from '../db/connect.js';
import type { PreparedStore } from './startup.js';
import { postgresLocation } from './store-connection.js';
import { VERSION } from '../version.js';

/**
 * What `varsetd serve` tells at start: where it listens, which store it uses, and what it just
 * generated. It names files, never a secret, so it is safe in any log.
 */
export interface StartSummary {
  version: string;
  /** A URL that reaches the server from this machine. */
  url: string;
  /** Whether it listens on every address of the machine, not only `url`'s. */
  allAddresses: boolean;
  publicUrl: string | undefined;
  store: { type: 'sqlite'; file: string } | { type: 'postgres'; host: string; database: string };
  dataDir: string;
  appliedMigrations: string[];
  encryptionKey: { source: 'configured' } | { source: 'file'; file: string; generated: boolean };
  adminToken: AdminTokenOutcome;
  /** Processes serving requests (`VARSETD_WORKERS`). */
  workers: number;
}

export function startSummary(config: Config, prepared: PreparedStore, address: AddressInfo): StartSummary {
  const allAddresses = address.address === '0.0.0.0' || address.address === '::';
  const host = allAddresses ? 'localhost' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const { adminToken, key } = prepared;
  return {
    version: VERSION,
    url: `${config.tls ? 'https' : 'http'}://${host}:${address.port}`,
    allAddresses,
    publicUrl: config.publicUrl,
    store: config.databaseUrl
      ? { type: 'postgres', ...postgresLocation(config.databaseUrl) }
      : { type: 'sqlite', file: sqliteFile(config.dataDir) },
    dataDir: config.dataDir,
    appliedMigrations: prepared.appliedMigrations,
    encryptionKey:
      key.source === 'configured'
        ? { source: 'configured' }
        : { source: 'file', file: key.file, generated: key.generated },
    adminToken,
    workers: config.workers,
  };
}

/** The summary as a few lines for a person at a terminal. */
export function formatSummary(summary: StartSummary): string {
  const { store, encryptionKey: key, adminToken: token } = summary;
  const lines: [string, string][] = [
    [
      'store',
      store.type === 'sqlite' ? `SQLite, ${store.file}` : `PostgreSQL, database ${store.database} on ${store.host}`,
    ],
    ['schema', describeMigrations(summary.appliedMigrations.length)],
    ['data folder', summary.dataDir],
    [
      'encryption key',
      key.source === 'configured'
        ? 'from VARSETD_ENCRYPTION_KEY'
        : key.generated
          ? `generated, in ${key.file}: keep a copy apart from database backups`
          : key.file,
    ],
    ['admin token', describeAdminToken(token)],
    ['workers', summary.workers === 1 ? '1 process' : `${summary.workers} processes`],
  ];
  if (summary.publicUrl) lines.splice(1, 0, ['public URL', summary.publicUrl]);
  const where = summary.allAddresses ? `${summary.url} (and every address of this machine)` : summary.url;
  return (
    [
      `varsetd ${summary.version} is listening on ${where}`,
      ...lines.map(([name, text]) => `  ${name.padEnd(16)}${text}`),
    ].join('\n') + '\n'
  );
}

function describeMigrations(count: number): string {
  return count === 0 ? 'up to date' : `applied ${count} migration${count === 1 ? '' : 's'}`;
}

function describeAdminToken(token: StartSummary['adminToken']): string {
  switch (token.source) {
    case 'generated':
      return `generated, in ${token.file} (not printed: read it from there)`;
    case 'configured':
      if (!token.revokedGenerated) return 'from VARSETD_ADMIN_TOKEN';
      return `from VARSETD_ADMIN_TOKEN; the generated one is revoked${token.removedFile ? ` and ${token.removedFile} removed` : ''}`;
    case 'existing':
      return token.file ? `set on an earlier start; the generated one is in ${token.file}` : 'set on an earlier start';
  }
}
