import assert from 'node:assert/strict';
import https from 'node:https';
import type { FastifyInstance } from 'fastify';

/** The documents varsetd answers for a resource the caller may not see or that does not exist, and for a missing or refused token. */
export const NOT_FOUND = { errors: [{ status: '404', title: 'not found' }] };
export const UNAUTHORIZED = { errors: [{ status: '401', title: 'unauthorized' }] };

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdefghij';

export interface ApiResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** Parsed JSON body, or undefined for an empty one. */
  body: any;
}

export interface RequestOptions {
  /** The bearer token: the site-admin token unless given; null sends none. */
  token?: string | null;
  contentType?: string;
  /** Sent as is when a string; JSON-encoded otherwise. */
  body?: unknown;
}

/** What tests and factories send requests with: an in-process app (TestApp, injectClient) or real HTTP (httpClient). */
export interface Client {
  request(method: string, url: string, options?: RequestOptions): Promise<ApiResponse>;
  get(url: string, options?: RequestOptions): Promise<ApiResponse>;
  post(url: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse>;
  patch(url: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse>;
  put(url: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse>;
  delete(url: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse>;
}

export function clientFrom(request: Client['request']): Client {
  return {
    request,
    get: (url, options) => request('GET', url, options),
    post: (url, body, options) => request('POST', url, { ...options, body }),
    patch: (url, body, options) => request('PATCH', url, { ...options, body }),
    put: (url, body, options) => request('PUT', url, { ...options, body }),
    delete: (url, body, options) => request('DELETE', url, { ...options, body }),
  };
}

function headersFor(options: RequestOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const token = options.token === undefined ? ADMIN_TOKEN : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined || options.contentType)
    headers['content-type'] = options.contentType ?? 'application/vnd.api+json';
  return headers;
}

const payloadOf = (options: RequestOptions) =>
  options.body === undefined
    ? undefined
    : typeof options.body === 'string'
      ? options.body
      : JSON.stringify(options.body);

/** A client of an in-process app. */
export function injectClient(app: FastifyInstance): Client {
  return clientFrom(async (method, url, options = {}) => {
    const payload = payloadOf(options);
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers: headersFor(options),
      ...(payload !== undefined ? { payload } : {}),
    });
    return { status: res.statusCode, headers: res.headers, body: res.body === '' ? undefined : JSON.parse(res.body) };
  });
}

/** A client speaking real HTTP to a server at `baseUrl`. */
export function httpClient(baseUrl: string): Client {
  return clientFrom(async (method, url, options = {}) => {
    const payload = payloadOf(options);
    const res = await fetch(`${baseUrl}${url}`, {
      method,
      headers: headersFor(options),
      ...(payload !== undefined ? { body: payload } : {}),
    });
    const text = await res.text();
    return {
      status: res.status,
      headers: Object.fromEntries(res.headers),
      body: text === '' ? undefined : JSON.parse(text),
    };
  });
}

/** A client speaking HTTPS to a server at `baseUrl` whose certificate `ca` (PEM) vouches for. */
export function httpsClient(baseUrl: string, ca: string): Client {
  return clientFrom(
    (method, url, options = {}) =>
      new Promise((resolve, reject) => {
        const payload = payloadOf(options);
        const request = https.request(
          `${baseUrl}${url}`,
          { method, ca, agent: false, headers: headersFor(options) },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('error', reject);
            res.on('end', () => {
              const text = Buffer.concat(chunks).toString('utf8');
              resolve({
                status: res.statusCode ?? 0,
                headers: res.headers,
                body: text === '' ? undefined : JSON.parse(text),
              });
            });
          },
        );
        request.on('error', reject);
        request.end(payload);
      }),
  );
}

/** Fails with the response body in the message, which says far more than "expected 200, got 422". */
export function expectStatus(res: ApiResponse, status: number): void {
  if (res.status !== status) {
    throw new Error(`expected HTTP ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  }
}

export function errorOf(res: ApiResponse): {
  status: string;
  title: string;
  detail?: string;
  source?: { pointer?: string; parameter?: string };
} {
  assert.ok(Array.isArray(res.body?.errors), `expected an error document, got ${JSON.stringify(res.body)}`);
  return res.body.errors[0];
}
