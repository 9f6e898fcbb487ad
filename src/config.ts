import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { KeyError, parseKeyring } from './secrets/keyring-file.js';
import type { KeyringKey } from './secrets/keyring.js';
import { DEFAULT_RESPONSE_CACHE_MB } from './cache/response-cache.js';
import { DEFAULT_AUDIT_RETENTION_DAYS } from './audit/model.js';
import { DEFAULT_IMPORT_SOURCES, parseImportSources } from './imports/model.js';
import { DEFAULT_TIMEOUTS, type Timeouts } from './http/server.js';
import type { TlsFiles } from './http/tls.js';
import { DEFAULT_CONNECT_TIMEOUT_S, DEFAULT_POOL_SIZE, DEFAULT_STATEMENT_TIMEOUT_S } from './db/connect.js';

/** Every setting of varsetd, read once at start from the environment and command-line flags. */
export interface Config {
  host: string;
  port: number;
  /** Folder for the SQLite file and generated secrets. */
  dataDir: string;
  /** `postgres://…` selects PostgreSQL; undefined means the embedded SQLite store. */
  databaseUrl: string | undefined;
  /** When set, a site-admin token with exactly this value exists after start. */
  adminToken: string | undefined;
  /** Absolute base URL clients reach the server at (used for upload URLs); derived from the request when unset. */
  publicUrl: string | undefined;
  /** The keyring sealing sensitive values at rest, the first key active; undefined means the key file in the data folder. */
  encryptionKeys: KeyringKey[] | undefined;
  logLevel: string;
  /** Mebibytes of rendered variable-set responses each process keeps; 0 turns the cache off. */
  responseCacheMb: number;
  /** Processes serving requests on the one port; 1 serves from the started process itself. */
  workers: number;
  /** How long clients may take to send a request and its headers, and how long an idle connection stays open. */
  timeouts: Timeouts;
  /** On SIGTERM, how long `/readyz` fails while requests are still served, before the process stops accepting. */
  drainDelayMs: number;
  /** The PEM certificate and key HTTPS is served with; undefined serves plain HTTP. */
  tls: TlsFiles | undefined;
  /** The peers whose X-Forwarded-Proto and X-Forwarded-Host are believed: all (true), none (false), or these addresses and ranges. */
  trustProxy: TrustProxy;
  /** When set, `GET /metrics` answers only requests bearing this token; open when unset. */
  metricsToken: string | undefined;
  /** Days the audit trail keeps an event; 0 keeps every event. */
  auditRetentionDays: number;
  /** PostgreSQL: milliseconds a statement may run before it is cancelled; 0 for no limit. */
  dbStatementTimeoutMs: number;
  /** PostgreSQL: connections each process keeps at most. */
  dbPoolSize: number;
  /** PostgreSQL: milliseconds a request waits to connect or for a free pooled connection. */
  dbConnectTimeoutMs: number;
  /** Whether notifications of set changes may go to private, loopback and link-local addresses. */
  notificationsAllowPrivate: boolean;
  /** The origins the API's import may read a named source from (VARSETD_IMPORT_SOURCES). */
  importSources: string[];
  /** Whether varsetd is the OpenID Connect issuer of runs' workload identity tokens, at `publicUrl`. */
  workloadIdentity: boolean;
  /** Milliseconds a workload identity token is valid at most. */
  workloadIdentityTokenTtlMs: number;
  /** Milliseconds after a run's creation by which every token of the run has expired. */
  workloadIdentityRunLifetimeMs: number;
}

/** As Fastify's `trustProxy` takes it: addresses, CIDR ranges, or proxy-addr's `loopback`, `linklocal` and `uniquelocal`. */
export type TrustProxy = boolean | string[];

export class ConfigError extends Error {}

type TimeoutSetting = 'requestTimeout' | 'headersTimeout' | 'keepAliveTimeout';
type TlsSetting = 'tlsCert' | 'tlsKey';

export interface Setting {
  env: string;
  flag: string;
  /** What the flag takes, as `--help` shows it. */
  value: string;
  /** One line for `--help`. */
  help: string;
  key: Exclude<keyof Config, 'timeouts' | 'tls'> | TimeoutSetting | TlsSetting;
}

/** pino's levels; `silent` logs nothing. */
export const LOG_LEVELS = [...Object.keys(pino.levels.values), 'silent'];

/** More worker processes than this is a typo, not a machine. */
export const MAX_WORKERS = 256;

/** More pooled connections per process than this is a typo: PostgreSQL's own default allows 100 in all. */
export const MAX_POOL_SIZE = 1000;

/** A longer retention is a typo (a hundred years); 0 already keeps everything. */
export const MAX_AUDIT_RETENTION_DAYS = 36_500;

/**
 * A load balancer checking `/readyz` every 2 s takes a server out after 2 failed checks: within
 * 4 s of the first 503, plus one check's time. Requests are served for that long after SIGTERM.
 */
export const DEFAULT_DRAIN_DELAY_MS = 5_000;

/** Admin tokens shorter than this are refused: the token is the key to everything. */
export const MIN_ADMIN_TOKEN_LENGTH = 32;

/** Workload identity tokens: the default and longest lifetime of a token, and of a run's tokens all told, in seconds. */
export const DEFAULT_TOKEN_TTL_S = 3600;
export const MAX_TOKEN_TTL_S = 86_400;
export const DEFAULT_RUN_LIFETIME_S = 14_400;
export const MAX_RUN_LIFETIME_S = 604_800;

/** Metrics tokens shorter than this are refused: they are guessed otherwise. */
export const MIN_METRICS_TOKEN_LENGTH = 16;

export const SETTINGS: readonly Setting[] = [
  { env: 'HOST', flag: '--host', value: 'ADDRESS', help: 'address to listen on (127.0.0.1)', key: 'host' },
  { env: 'PORT', flag: '--port', value: 'PORT', help: 'port to listen on, 0 for any free one (8080)', key: 'port' },
  {
    env: 'VARSETD_DATA_DIR',
    flag: '--data-dir',
    value: 'DIR',
    help: 'folder of the SQLite file and generated secrets (./data)',
    key: 'dataDir',
  },
  {
    env: 'DATABASE_URL',
    flag: '--database-url',
    value: 'URL',
    help: 'postgres://… selects PostgreSQL (unset: SQLite)',
    key: 'databaseUrl',
  },
  {
    env: 'VARSETD_ADMIN_TOKEN',
    flag: '--admin-token',
    value: 'TOKEN',
    help: `the site-admin token, at least ${MIN_ADMIN_TOKEN_LENGTH} characters (unset: generated once)`,
    key: 'adminToken',
  },
  {
    env: 'VARSETD_PUBLIC_URL',
    flag: '--public-url',
    value: 'URL',
    help: 'absolute base URL clients reach varsetd at (unset: from the request)',
    key: 'publicUrl',
  },
  {
    env: 'VARSETD_ENCRYPTION_KEY',
    flag: '--encryption-key',
    value: 'KEYS',
    help: 'keyring: 32-byte keys (base64 or hex) separated by commas, the first seals (unset: the key file in the data folder)',
    key: 'encryptionKeys',
  },
  { env: 'LOG_LEVEL', flag: '--log-level', value: 'LEVEL', help: `${LOG_LEVELS.join(', ')} (info)`, key: 'logLevel' },
  {
    env: 'VARSETD_RESPONSE_CACHE_MB',
    flag: '--response-cache-mb',
    value: 'MB',
    help: `MiB of responses each process caches, 0 for none (${DEFAULT_RESPONSE_CACHE_MB})`,
    key: 'responseCacheMb',
  },
  {
    env: 'VARSETD_WORKERS',
    flag: '--workers',
    value: 'N',
    help: 'processes serving the port, 1 for one process (the number of CPUs)',
    key: 'workers',
  },
  {
    env: 'VARSETD_REQUEST_TIMEOUT',
    flag: '--request-timeout',
    value: 'SECONDS',
    help: `to send a whole request (${DEFAULT_TIMEOUTS.requestMs / 1000})`,
    key: 'requestTimeout',
  },
  {
    env: 'VARSETD_HEADERS_TIMEOUT',
    flag: '--headers-timeout',
    value: 'SECONDS',
    help: `to send the request line and headers (${DEFAULT_TIMEOUTS.headersMs / 1000})`,
    key: 'headersTimeout',
  },
  {
    env: 'VARSETD_KEEP_ALIVE_TIMEOUT',
    flag: '--keep-alive-timeout',
    value: 'SECONDS',
    help: `an idle connection stays open (${DEFAULT_TIMEOUTS.keepAliveMs / 1000})`,
    key: 'keepAliveTimeout',
  },
  {
    env: 'VARSETD_DRAIN_DELAY',
    flag: '--drain-delay',
    value: 'SECONDS',
    help: `on SIGTERM, /readyz fails this long while requests are still served, 0 for none (${DEFAULT_DRAIN_DELAY_MS / 1000})`,
    key: 'drainDelayMs',
  },
  {
    env: 'VARSETD_TLS_CERT',
    flag: '--tls-cert',
    value: 'FILE',
    help: 'PEM certificate to serve HTTPS with, with --tls-key (unset: HTTP)',
    key: 'tlsCert',
  },
  {
    env: 'VARSETD_TLS_KEY',
    flag: '--tls-key',
    value: 'FILE',
    help: "PEM file of that certificate's private key (SIGHUP reloads both)",
    key: 'tlsKey',
  },
  {
    env: 'VARSETD_TRUST_PROXY',
    flag: '--trust-proxy',
    value: 'PEERS',
    help: 'true, false or addresses whose X-Forwarded-* headers count (false)',
    key: 'trustProxy',
  },
  {
    env: 'VARSETD_METRICS_TOKEN',
    flag: '--metrics-token',
    value: 'TOKEN',
    help: `bearer token GET /metrics requires, at least ${MIN_METRICS_TOKEN_LENGTH} characters (unset: open)`,
    key: 'metricsToken',
  },
  {
    env: 'VARSETD_AUDIT_RETENTION_DAYS',
    flag: '--audit-retention-days',
    value: 'DAYS',
    help: `days the audit trail keeps an event, 0 for ever (${DEFAULT_AUDIT_RETENTION_DAYS})`,
    key: 'auditRetentionDays',
  },
  {
    env: 'VARSETD_DB_STATEMENT_TIMEOUT',
    flag: '--db-statement-timeout',
    value: 'SECONDS',
    help: `PostgreSQL: a longer statement is cancelled (503), 0 for no limit (${DEFAULT_STATEMENT_TIMEOUT_S})`,
    key: 'dbStatementTimeoutMs',
  },
  {
    env: 'VARSETD_DB_CONNECT_TIMEOUT',
    flag: '--db-connect-timeout',
    value: 'SECONDS',
    help: `PostgreSQL: to get a connection before answering 503 (${DEFAULT_CONNECT_TIMEOUT_S})`,
    key: 'dbConnectTimeoutMs',
  },
  {
    env: 'VARSETD_DB_POOL_SIZE',
    flag: '--db-pool-size',
    value: 'N',
    help: `PostgreSQL: connections each process keeps at most (${DEFAULT_POOL_SIZE})`,
    key: 'dbPoolSize',
  },
  {
    env: 'VARSETD_NOTIFICATIONS_ALLOW_PRIVATE',
    flag: '--notifications-private',
    value: 'BOOL',
    help: 'true lets notifications go to private, loopback and link-local addresses (false)',
    key: 'notificationsAllowPrivate',
  },
  {
    env: 'VARSETD_IMPORT_SOURCES',
    flag: '--import-sources',
    value: 'LIST',
    help: `hosts or origins the web UI's and API's import may read, comma-separated, or none (${DEFAULT_IMPORT_SOURCES})`,
    key: 'importSources',
  },
  {
    env: 'VARSETD_WORKLOAD_IDENTITY',
    flag: '--workload-identity',
    value: 'BOOL',
    help: "true makes varsetd the OpenID Connect issuer of runs' tokens, at VARSETD_PUBLIC_URL (false)",
    key: 'workloadIdentity',
  },
  {
    env: 'VARSETD_WORKLOAD_IDENTITY_TOKEN_TTL',
    flag: '--identity-token-ttl',
    value: 'SECONDS',
    help: `a workload identity token is valid at most (${DEFAULT_TOKEN_TTL_S})`,
    key: 'workloadIdentityTokenTtlMs',
  },
  {
    env: 'VARSETD_WORKLOAD_IDENTITY_RUN_LIFETIME',
    flag: '--identity-run-ttl',
    value: 'SECONDS',
    help: `every token of a run has expired this long after the run was created (${DEFAULT_RUN_LIFETIME_S})`,
    key: 'workloadIdentityRunLifetimeMs',
  },
];

/** An option of the command line with its value, as `--flag value` or `--flag=value`. */
export interface FlagValue {
  flag: string;
  value: string;
}

/**
 * The options of `args`, in order, as node:util's parseArgs reads them; each of `flags` takes a
 * value (which may start with a dash). Anything else is an error, so a typo never goes unnoticed.
 */
export function readFlags(args: readonly string[], flags: readonly string[]): FlagValue[] {
  const options = Object.fromEntries(flags.map((flag) => [flag.slice(2), { type: 'string' as const }]));
  // Not strict: parseArgs's own errors would name options differently; these are varsetd's.
  const { tokens } = parseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true });
  return tokens.map((token) => {
    const written = args[token.index]!;
    if (token.kind !== 'option' || !flags.includes(token.rawName))
      throw new ConfigError(`unknown option ${written.split('=')[0]}`);
    if (token.value === undefined) throw new ConfigError(`${token.rawName} needs a value`);
    return { flag: token.rawName, value: token.value };
  });
}

/** Flags win over the environment. Unknown flags are an error, so a typo never goes unnoticed. */
export function loadConfig(env: NodeJS.ProcessEnv, args: string[]): Config {
  const raw = rawSettings(env, args);
  const publicUrl = raw.get('publicUrl');
  if (publicUrl !== undefined && !/^https?:\/\/[^/]+/.test(publicUrl))
    throw new ConfigError('VARSETD_PUBLIC_URL must be an absolute http(s) URL');
  const encryptionKeyText = raw.get('encryptionKeys');
  return {
    ...listenSettings(raw),
    dataDir: path.resolve(raw.get('dataDir') ?? './data'),
    ...databaseSettings(raw),
    adminToken: printableToken(raw, 'adminToken', 'VARSETD_ADMIN_TOKEN', MIN_ADMIN_TOKEN_LENGTH),
    metricsToken: printableToken(raw, 'metricsToken', 'VARSETD_METRICS_TOKEN', MIN_METRICS_TOKEN_LENGTH),
    publicUrl: publicUrl?.replace(/\/+$/, ''),
    encryptionKeys: encryptionKeyText === undefined ? undefined : keyringSetting(encryptionKeyText),
    logLevel: logLevelSetting(raw),
    ...sizeSettings(raw),
    ...timeSettings(raw),
    trustProxy: parseTrustProxy(raw.get('trustProxy') ?? 'false'),
    notificationsAllowPrivate: allowPrivateSetting(raw),
    importSources: importSourcesSetting(raw),
    ...workloadIdentitySettings(raw, publicUrl),
  };
}

type RawSettings = Map<Setting['key'], string>;

/** Each setting's text: from its command-line flag, else from its environment variable (empty is unset). */
function rawSettings(env: NodeJS.ProcessEnv, args: string[]): RawSettings {
  const raw: RawSettings = new Map();
  for (const s of SETTINGS) {
    const value = env[s.env];
    if (value !== undefined && value !== '') raw.set(s.key, value);
  }
  for (const { flag, value } of readFlags(
    args,
    SETTINGS.map((s) => s.flag),
  ))
    raw.set(SETTINGS.find((s) => s.flag === flag)!.key, value);
  return raw;
}

/** Where varsetd listens: host, port, and HTTPS when a certificate and its key are given. */
function listenSettings(raw: RawSettings): Pick<Config, 'host' | 'port' | 'tls'> {
  const host = raw.get('host') ?? '127.0.0.1';
  if (
    !net.isIP(host) &&
    !/^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/.test(host)
  ) {
    throw new ConfigError(`HOST must be an IP address or a host name, got ${host}`);
  }
  const port = Number(raw.get('port') ?? '8080');
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`PORT must be an integer from 0 to 65535, got ${raw.get('port')}`);
  const certFile = raw.get('tlsCert');
  const keyFile = raw.get('tlsKey');
  if ((certFile === undefined) !== (keyFile === undefined)) {
    throw new ConfigError(
      'VARSETD_TLS_CERT and VARSETD_TLS_KEY go together: set both to serve HTTPS, or neither to serve HTTP',
    );
  }
  const tls =
    certFile !== undefined && keyFile !== undefined
      ? { certFile: path.resolve(certFile), keyFile: path.resolve(keyFile) }
      : undefined;
  return { host, port, tls };
}

/** The PostgreSQL server's URL, when varsetd uses one, and the pool's size. */
function databaseSettings(raw: RawSettings): Pick<Config, 'databaseUrl' | 'dbPoolSize'> {
  const databaseUrl = raw.get('databaseUrl');
  if (databaseUrl !== undefined && (!/^postgres(ql)?:\/\//.test(databaseUrl) || !URL.canParse(databaseUrl))) {
    throw new ConfigError('DATABASE_URL must be a URL starting with postgres:// or postgresql://');
  }
  const dbPoolSize = Number(raw.get('dbPoolSize') ?? DEFAULT_POOL_SIZE);
  if (!Number.isInteger(dbPoolSize) || dbPoolSize < 1 || dbPoolSize > MAX_POOL_SIZE) {
    throw new ConfigError(
      `VARSETD_DB_POOL_SIZE must be a whole number from 1 to ${MAX_POOL_SIZE}, got ${raw.get('dbPoolSize')}`,
    );
  }
  return { databaseUrl, dbPoolSize };
}

/**
 * A token given in the configuration (the site administrator's, the metrics scraper's). It travels
 * as `Authorization: Bearer <token>`, which carries no white space or non-ASCII in it.
 */
function printableToken(
  raw: RawSettings,
  key: 'adminToken' | 'metricsToken',
  env: string,
  minLength: number,
): string | undefined {
  const token = raw.get(key);
  if (token !== undefined && (token.length < minLength || !/^[\x21-\x7e]+$/.test(token))) {
    throw new ConfigError(
      `${env} must be at least ${minLength} printable ASCII characters without spaces (e.g. openssl rand -hex 32); the one given has ${token.length}`,
    );
  }
  return token;
}

function logLevelSetting(raw: RawSettings): string {
  const logLevel = raw.get('logLevel') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel))
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${logLevel}`);
  return logLevel;
}

/** How much varsetd keeps and runs: the response cache, the audit trail's days, the workers. */
function sizeSettings(raw: RawSettings): Pick<Config, 'responseCacheMb' | 'auditRetentionDays' | 'workers'> {
  const responseCacheMb = Number(raw.get('responseCacheMb') ?? DEFAULT_RESPONSE_CACHE_MB);
  if (!Number.isInteger(responseCacheMb) || responseCacheMb < 0) {
    throw new ConfigError(
      `VARSETD_RESPONSE_CACHE_MB must be a whole number of mebibytes (0 turns the cache off), got ${raw.get('responseCacheMb')}`,
    );
  }
  const auditRetentionDays = Number(raw.get('auditRetentionDays') ?? DEFAULT_AUDIT_RETENTION_DAYS);
  if (!/^\d+$/.test(raw.get('auditRetentionDays') ?? '0') || auditRetentionDays > MAX_AUDIT_RETENTION_DAYS) {
    throw new ConfigError(
      `VARSETD_AUDIT_RETENTION_DAYS must be a whole number of days from 0 (keep every event) to ${MAX_AUDIT_RETENTION_DAYS}, got ${raw.get('auditRetentionDays')}`,
    );
  }
  const workers = Number(raw.get('workers') ?? os.availableParallelism());
  if (!Number.isInteger(workers) || workers < 1 || workers > MAX_WORKERS) {
    throw new ConfigError(`VARSETD_WORKERS must be a whole number from 1 to ${MAX_WORKERS}, got ${raw.get('workers')}`);
  }
  return { responseCacheMb, auditRetentionDays, workers };
}

/** The HTTP timeouts, the drain's delay and the database's timeouts, given in seconds. */
function timeSettings(
  raw: RawSettings,
): Pick<Config, 'timeouts' | 'drainDelayMs' | 'dbStatementTimeoutMs' | 'dbConnectTimeoutMs'> {
  /** Seconds, read as milliseconds; 0 only where it means something (`zeroMeans`). */
  const seconds = (
    key: TimeoutSetting | 'dbStatementTimeoutMs' | 'dbConnectTimeoutMs' | 'drainDelayMs',
    env: string,
    fallbackMs: number,
    zeroMeans?: string,
  ): number => {
    const text = raw.get(key);
    if (text === undefined) return fallbackMs;
    const value = Number(text);
    if (!/^\d+(\.\d+)?$/.test(text) || (value === 0 && zeroMeans === undefined) || value > 3600) {
      const range = zeroMeans !== undefined ? `from 0 (${zeroMeans}) to 3600` : 'above 0 and at most 3600';
      throw new ConfigError(`${env} must be a number of seconds ${range}, got ${text}`);
    }
    return Math.round(value * 1000);
  };
  return {
    timeouts: {
      requestMs: seconds('requestTimeout', 'VARSETD_REQUEST_TIMEOUT', DEFAULT_TIMEOUTS.requestMs),
      headersMs: seconds('headersTimeout', 'VARSETD_HEADERS_TIMEOUT', DEFAULT_TIMEOUTS.headersMs),
      keepAliveMs: seconds('keepAliveTimeout', 'VARSETD_KEEP_ALIVE_TIMEOUT', DEFAULT_TIMEOUTS.keepAliveMs),
    },
    drainDelayMs: seconds('drainDelayMs', 'VARSETD_DRAIN_DELAY', DEFAULT_DRAIN_DELAY_MS, 'none'),
    dbStatementTimeoutMs: seconds(
      'dbStatementTimeoutMs',
      'VARSETD_DB_STATEMENT_TIMEOUT',
      DEFAULT_STATEMENT_TIMEOUT_S * 1000,
      'no limit',
    ),
    dbConnectTimeoutMs: seconds('dbConnectTimeoutMs', 'VARSETD_DB_CONNECT_TIMEOUT', DEFAULT_CONNECT_TIMEOUT_S * 1000),
  };
}

function allowPrivateSetting(raw: RawSettings): boolean {
  const allowPrivateText = raw.get('notificationsAllowPrivate') ?? 'false';
  if (allowPrivateText !== 'true' && allowPrivateText !== 'false')
    throw new ConfigError(`VARSETD_NOTIFICATIONS_ALLOW_PRIVATE must be true or false, got ${allowPrivateText}`);
  return allowPrivateText === 'true';
}

function importSourcesSetting(raw: RawSettings): string[] {
  try {
    return parseImportSources(raw.get('importSources') ?? DEFAULT_IMPORT_SOURCES);
  } catch (error) {
    throw new ConfigError(`VARSETD_IMPORT_SOURCES: ${(error as Error).message}`);
  }
}

const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/** The issuer's settings; refused where relying parties could not use the issuer (no public URL, plain HTTP beyond loopback). */
function workloadIdentitySettings(raw: RawSettings, publicUrl: string | undefined) {
  const enabledText = raw.get('workloadIdentity') ?? 'false';
  if (enabledText !== 'true' && enabledText !== 'false')
    throw new ConfigError(`VARSETD_WORKLOAD_IDENTITY must be true or false, got ${enabledText}`);
  const wholeSeconds = (
    key: 'workloadIdentityTokenTtlMs' | 'workloadIdentityRunLifetimeMs',
    env: string,
    fallback: number,
    max: number,
  ) => {
    const text = raw.get(key);
    if (text === undefined) return fallback * 1000;
    if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > max)
      throw new ConfigError(`${env} must be a whole number of seconds from 1 to ${max}, got ${text}`);
    return Number(text) * 1000;
  };
  const workloadIdentityTokenTtlMs = wholeSeconds(
    'workloadIdentityTokenTtlMs',
    'VARSETD_WORKLOAD_IDENTITY_TOKEN_TTL',
    DEFAULT_TOKEN_TTL_S,
    MAX_TOKEN_TTL_S,
  );
  const workloadIdentityRunLifetimeMs = wholeSeconds(
    'workloadIdentityRunLifetimeMs',
    'VARSETD_WORKLOAD_IDENTITY_RUN_LIFETIME',
    DEFAULT_RUN_LIFETIME_S,
    MAX_RUN_LIFETIME_S,
  );
  const workloadIdentity = enabledText === 'true';
  if (workloadIdentity) {
    const issuer = publicUrl === undefined ? undefined : new URL(publicUrl);
    if (!issuer)
      throw new ConfigError(
        'VARSETD_WORKLOAD_IDENTITY=true needs VARSETD_PUBLIC_URL: the issuer URL relying parties fetch the signing keys from',
      );
    if (issuer.search || issuer.hash || issuer.username || issuer.password) {
      throw new ConfigError(
        'VARSETD_PUBLIC_URL must have no query, fragment or credentials to be an OpenID Connect issuer',
      );
    }
    if (issuer.protocol !== 'https:' && !LOOPBACK_HOSTS.test(issuer.hostname)) {
      throw new ConfigError(
        `VARSETD_WORKLOAD_IDENTITY=true needs an https:// VARSETD_PUBLIC_URL (plain http only on loopback, for tests), got ${publicUrl}`,
      );
    }
  }
  return { workloadIdentity, workloadIdentityTokenTtlMs, workloadIdentityRunLifetimeMs };
}

const PROXY_ADDRESS_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function parseTrustProxy(text: string): TrustProxy {
  if (text === 'true') return true;
  if (text === 'false') return false;
  const entries = text.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (!isProxyAddress(entry)) {
      throw new ConfigError(
        `VARSETD_TRUST_PROXY must be true, false, or a comma-separated list of IP addresses, CIDR ranges (10.0.0.0/8) and the names loopback, linklocal, uniquelocal; got ${JSON.stringify(entry)}`,
      );
    }
  }
  return entries;
}

function isProxyAddress(entry: string): boolean {
  if (PROXY_ADDRESS_NAMES.has(entry)) return true;
  const [address = '', prefix, ...more] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || more.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** VARSETD_ENCRYPTION_KEY's keys (src/secrets/keyring-file.ts). */
function keyringSetting(text: string): KeyringKey[] {
  try {
    return parseKeyring(text, ',', 'VARSETD_ENCRYPTION_KEY');
  } catch (error) {
    if (error instanceof KeyError) throw new ConfigError(error.message);
    throw error;
  }
}
