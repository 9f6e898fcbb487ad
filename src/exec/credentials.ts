import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { domainToASCII } from 'node:url';

/**
 * Where `varsetd exec` finds its server and token, as Terraform users expect: the server is
 * `VARSETD_ADDRESS`; the token is `VARSETD_TOKEN`, else `TF_TOKEN_<host>`, else the host's
 * entry in the Terraform CLI credentials file (`~/.terraform.d/credentials.tfrc.json`, which
 * `terraform login` writes), in that order.
 */
export interface Server {
  /** Base URL, without a trailing slash. */
  address: string;
  token: string;
}

export class CredentialsError extends Error {}

export function discoverServer(env: NodeJS.ProcessEnv, home = os.homedir()): Server {
  const raw = env.VARSETD_ADDRESS;
  if (!raw)
    throw new CredentialsError('VARSETD_ADDRESS is not set: give the server address, e.g. https://varsetd.example.com');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CredentialsError(`VARSETD_ADDRESS is not a URL: ${raw}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new CredentialsError(`VARSETD_ADDRESS must be an http(s) URL, got ${raw}`);
  const address = url.toString().replace(/\/+$/, '');
  const host = comparableHost(url.host);
  const token = env.VARSETD_TOKEN || tokenFromEnvironment(env, host) || tokenFromCredentialsFile(home, host);
  if (!token) {
    throw new CredentialsError(
      `no token for ${url.host}: set VARSETD_TOKEN or ${environmentName(url.hostname)}, or run terraform login ${url.host}`,
    );
  }
  return { address, token };
}

/** A host name as Terraform compares them: lower case, international names in their ASCII (punycode) form. */
export function comparableHost(host: string): string {
  const [name = '', port] = host.split(/:(?=\d+$)/);
  return (domainToASCII(name.toLowerCase()) || name.toLowerCase()) + (port ? `:${port}` : '');
}

/** `TF_TOKEN_` followed by the host with `-` written `__` and `.` written `_` (which is why a host with a port has none). */
export function environmentName(hostname: string): string {
  return `TF_TOKEN_${comparableHost(hostname).replace(/-/g, '__').replace(/\./g, '_')}`;
}

function tokenFromEnvironment(env: NodeJS.ProcessEnv, host: string): string | undefined {
  for (const [name, value] of Object.entries(env)) {
    if (!value || !name.startsWith('TF_TOKEN_')) continue;
    const encoded = name.slice('TF_TOKEN_'.length);
    const decoded = encoded.replace(/__|_/g, (match) => (match === '__' ? '-' : '.'));
    if (comparableHost(decoded) === host) return value;
  }
  return undefined;
}

function tokenFromCredentialsFile(home: string, host: string): string | undefined {
  const file = path.join(home, '.terraform.d', 'credentials.tfrc.json');
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CredentialsError(`${file} could not be read: ${(error as Error).message}`);
  }
  const credentials = (parsed as { credentials?: Record<string, { token?: unknown } | null> }).credentials ?? {};
  for (const [name, entry] of Object.entries(credentials)) {
    if (comparableHost(name) === host && typeof entry?.token === 'string') return entry.token;
  }
  return undefined;
}
