import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import { CredentialsError } from './credentials.js';

/**
 * Requests to the varsetd server. HTTPS trusts the system's certificate store, not only the
 * certificates bundled with Node: on Node versions that can read it (`tls.getCACertificates`)
 * the system store itself, otherwise the usual Linux bundle files; plus Node's bundled roots,
 * `NODE_EXTRA_CA_CERTS` and `SSL_CERT_FILE` (each a PEM file). Giving an agent its own `ca`
 * replaces Node's defaults, which is why all of them are collected here.
 */
const SYSTEM_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/ssl/ca-bundle.pem',
  '/etc/ssl/cert.pem',
];

type CaSource = 'default' | 'system' | 'bundled' | 'extra';
const readStore = (tls as unknown as { getCACertificates?: (type: CaSource) => string[] }).getCACertificates;

export function trustedCertificates(env: NodeJS.ProcessEnv): string[] {
  const certificates = [...tls.rootCertificates];
  if (readStore) certificates.push(...readStore('system'));
  else {
    const bundle = SYSTEM_BUNDLES.find((file) => fs.existsSync(file));
    if (bundle) certificates.push(fs.readFileSync(bundle, 'utf8'));
  }
  for (const name of ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE'] as const) {
    const file = env[name];
    if (!file) continue;
    try {
      certificates.push(fs.readFileSync(file, 'utf8'));
    } catch (error) {
      throw new CredentialsError(`${name}=${file} could not be read: ${(error as Error).message}`);
    }
  }
  return certificates;
}

export interface HttpResponse {
  status: number;
  body: string;
}

export type Requester = (
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: Buffer,
) => Promise<HttpResponse>;

/** `extraCa`: PEM certificates trusted besides those of `trustedCertificates` (a Vault server's own CA). */
export function createRequester(env: NodeJS.ProcessEnv, extraCa: readonly string[] = []): Requester {
  const agent = new https.Agent({ ca: [...trustedCertificates(env), ...extraCa], keepAlive: true });
  return (method, url, headers, body) =>
    new Promise((resolve, reject) => {
      const target = new URL(url);
      const client = target.protocol === 'https:' ? https : http;
      const options = {
        method,
        headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) },
        ...(target.protocol === 'https:' ? { agent } : {}),
      };
      const request = client.request(target, options, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      });
      request.on('error', reject);
      request.end(body);
    });
}
