import { createHmac } from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { VERSION } from '../version.js';
import { isLocalName, isPrivateAddress, literalAddress } from './addresses.js';
import type { DeliveryResponse } from './model.js';

/**
 * Sends one notification: a POST of a JSON body, with the signature HCP Terraform's generic
 * webhooks carry when a token is given. Redirects are not followed (a 3xx is a failure). A
 * private address is refused before connecting, also when a name resolves to one: the
 * connection goes to the address that was checked.
 */

export const DEFAULT_TIMEOUT_MS = 5_000;
/** Characters of a response's body kept in `delivery-responses`. */
export const BODY_EXCERPT = 1_000;
/** Bytes of a response's body read at most. */
const BODY_READ_LIMIT = 64 * 1024;
const KEPT_HEADERS = 20;

export interface SendOptions {
  timeoutMs: number;
  allowPrivateAddresses: boolean;
  /** Aborts the request (a shutdown): the result then says so. */
  signal?: AbortSignal;
}

export interface Sent {
  /** The response as `delivery-responses` shows it; the attempt's place in the queue is the caller's to add. */
  response: Omit<DeliveryResponse, 'varsetId' | 'versionNumber' | 'attempt'>;
  /** The request was cut short by `signal`: it counts as no attempt. */
  aborted: boolean;
}

/** The hex HMAC-SHA512 of the exact body, keyed with the configuration's token: `X-TFE-Notification-Signature`. */
export function signature(token: string, body: string): string {
  return createHmac('sha512', token).update(body, 'utf8').digest('hex');
}

export function send(url: string, body: string, token: string | null, options: SendOptions): Promise<Sent> {
  const sentAt = new Date().toISOString();
  const failed = (error: string, aborted = false): Sent => ({
    response: { url, code: null, body: '', headers: {}, error, successful: false, sentAt },
    aborted,
  });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(failed('the URL cannot be parsed'));
  }
  if (!options.allowPrivateAddresses) {
    const literal = literalAddress(target.hostname);
    if (isLocalName(target.hostname) || (literal !== undefined && isPrivateAddress(literal)))
      return Promise.resolve(failed(`refused: ${target.hostname} is a private, loopback or link-local address`));
  }
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': `varsetd/${VERSION}`,
    'content-length': String(Buffer.byteLength(body)),
  };
  if (token !== null) headers['x-tfe-notification-signature'] = signature(token, body);
  const client = target.protocol === 'https:' ? https : http;

  return new Promise<Sent>((resolve) => {
    let settled = false;
    const settle = (sent: Sent) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(sent);
    };
    const request = client.request(target, {
      method: 'POST',
      headers,
      lookup: options.allowPrivateAddresses ? undefined : publicOnlyLookup,
      agent: false,
    });
    const timer = setTimeout(() => {
      request.destroy();
      settle(failed(`no response within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    const onAbort = () => {
      request.destroy();
      settle(failed('interrupted by a shutdown', true));
    };
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error: NodeJS.ErrnoException) =>
      settle(failed(error.code === 'EPRIVATEADDRESS' ? error.message : `${error.code ?? 'error'}: ${error.message}`)),
    );
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let length = 0;
      const done = () => {
        const code = response.statusCode ?? 0;
        settle({
          response: {
            url,
            code,
            body: Buffer.concat(chunks).toString('utf8').slice(0, BODY_EXCERPT),
            headers: keptHeaders(response.headersDistinct),
            error: null,
            successful: code >= 200 && code < 300,
            sentAt,
          },
          aborted: false,
        });
        response.destroy();
      };
      response.on('data', (chunk: Buffer) => {
        if (length >= BODY_READ_LIMIT) return;
        chunks.push(chunk);
        length += chunk.length;
        if (length >= BODY_READ_LIMIT) done();
      });
      response.on('end', done);
      response.on('error', () => done());
    });
    request.end(body);
  });
}

function keptHeaders(headers: http.IncomingHttpHeaders | NodeJS.Dict<string[]>): Record<string, string[]> {
  const kept: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(headers).slice(0, KEPT_HEADERS)) {
    if (Array.isArray(values)) kept[name] = values.map((value) => value.slice(0, 200));
  }
  return kept;
}

/** Resolves a name as the system does, and refuses it when any of its addresses is private. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const refused = addresses.find((entry) => isPrivateAddress(entry.address));
    if (refused || addresses.length === 0) {
      const reason = Object.assign(
        new Error(
          `refused: ${hostname} resolves to ${refused?.address ?? 'no address'}, a private, loopback or link-local address`,
        ),
        {
          code: 'EPRIVATEADDRESS',
        },
      );
      return callback(reason, '', 0);
    }
    if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};
