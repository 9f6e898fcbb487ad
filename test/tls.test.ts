import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { readCertificate, reloadCertificate, type TlsFiles } from '../src/http/tls.js';
import { TestApp } from './support/app.js';
import { ROOT, eventually, logPids, runVarsetd, startServerProcess, varsetdEnv } from './support/processes.js';
import { ADMIN_TOKEN, expectStatus } from './support/requests.js';
import { createTestStore, storeKind } from './support/store.js';

/** A server certificate, its key, and the throw-away authority that signed it. */
interface Certificate {
  ca: string;
  cert: string;
  key: string;
  fingerprint: string;
}

function makeCertificate(dir: string): Certificate {
  execFileSync('bash', [path.join(ROOT, 'scripts/make-test-certificate.sh'), dir], { stdio: 'pipe' });
  const read = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');
  const cert = read('cert.pem');
  return { ca: read('ca.pem'), cert, key: read('key.pem'), fingerprint: new X509Certificate(cert).fingerprint256 };
}

/** Puts a certificate and key where the server reads them from. */
function serve(files: TlsFiles, cert: string, key: string): void {
  fs.writeFileSync(files.certFile, cert);
  fs.writeFileSync(files.keyFile, key);
}

interface HttpsResponse {
  status: number;
  body: any;
  /** The SHA-256 fingerprint of the certificate the server presented on this connection. */
  fingerprint: string;
  reusedSocket: boolean;
}

function httpsRequest(
  url: string,
  options: { ca: string | string[]; agent?: https.Agent; method?: string; body?: unknown },
): Promise<HttpsResponse> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const request = https.request(
      url,
      {
        method: options.method ?? 'GET',
        ca: options.ca,
        agent: options.agent ?? false,
        headers: {
          authorization: `Bearer ${ADMIN_TOKEN}`,
          ...(payload === undefined ? {} : { 'content-type': 'application/vnd.api+json' }),
        },
      },
      (response) => {
        const fingerprint = (response.socket as import('node:tls').TLSSocket).getPeerCertificate().fingerprint256;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: response.statusCode ?? 0,
            body: text === '' ? undefined : JSON.parse(text),
            fingerprint,
            reusedSocket: request.reusedSocket,
          });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

const organizationBody = (name: string) => ({
  data: { type: 'organizations', attributes: { name, email: `${name}@example.com` } },
});

describe(`HTTPS (${storeKind})`, () => {
  let dir: string;
  let first: Certificate;
  let second: Certificate;
  let files: TlsFiles;
  let running: TestApp;
  let origin: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-tls-'));
    first = makeCertificate(path.join(dir, 'first'));
    second = makeCertificate(path.join(dir, 'second'));
    files = { certFile: path.join(dir, 'cert.pem'), keyFile: path.join(dir, 'key.pem') };
    serve(files, first.cert, first.key);
    running = await TestApp.start({ publicUrl: undefined, tls: readCertificate(files) });
    await running.app.listen({ host: '127.0.0.1', port: 0 });
    origin = `https://127.0.0.1:${(running.app.server.address() as net.AddressInfo).port}`;
  });
  after(async () => {
    await (running as TestApp | undefined)?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers the API over HTTPS with the configured certificate', async () => {
    const ping = await httpsRequest(`${origin}/api/v2/ping`, { ca: first.ca });
    assert.equal(ping.status, 204);
    assert.equal(ping.fingerprint, first.fingerprint);
    const created = await httpsRequest(`${origin}/api/v2/organizations`, {
      ca: first.ca,
      method: 'POST',
      body: organizationBody('tls-org'),
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const shown = await httpsRequest(`${origin}/api/v2/organizations/tls-org`, { ca: first.ca });
    assert.equal(shown.status, 200);
    assert.equal(shown.body.data.id, 'tls-org');
  });

  it('refuses a client that does not trust the certificate', async () => {
    await assert.rejects(
      httpsRequest(`${origin}/api/v2/ping`, { ca: second.ca }),
      /self-signed|unable to verify|certificate/i,
    );
  });

  it('gives configuration versions an https:// upload URL', async () => {
    const ca = [first.ca, second.ca];
    await httpsRequest(`${origin}/api/v2/organizations`, { ca, method: 'POST', body: organizationBody('tls-uploads') });
    const workspace = await httpsRequest(`${origin}/api/v2/organizations/tls-uploads/workspaces`, {
      ca,
      method: 'POST',
      body: { data: { type: 'workspaces', attributes: { name: 'ws' } } },
    });
    assert.equal(workspace.status, 201, JSON.stringify(workspace.body));
    const cv = await httpsRequest(`${origin}/api/v2/workspaces/${workspace.body.data.id}/configuration-versions`, {
      ca,
      method: 'POST',
      body: { data: { type: 'configuration-versions' } },
    });
    assert.equal(cv.status, 201, JSON.stringify(cv.body));
    assert.ok(
      cv.body.data.attributes['upload-url'].startsWith(`${origin}/api/v2/uploads/`),
      cv.body.data.attributes['upload-url'],
    );
  });

  it('reloads the certificate for new connections while an open keep-alive connection keeps working', async () => {
    const ca = [first.ca, second.ca];
    const keptAlive = new https.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const before = await httpsRequest(`${origin}/api/v2/ping`, { ca, agent: keptAlive });
      assert.equal(before.fingerprint, first.fingerprint);

      serve(files, second.cert, second.key);
      assert.deepEqual(reloadCertificate(running.app.server as https.Server, files), { reloaded: true });

      const onOpenConnection = await httpsRequest(`${origin}/api/v2/ping`, { ca, agent: keptAlive });
      assert.equal(onOpenConnection.status, 204);
      assert.equal(
        onOpenConnection.reusedSocket,
        true,
        'the request went over the connection opened before the reload',
      );
      assert.equal(onOpenConnection.fingerprint, first.fingerprint);

      const onNewConnection = await httpsRequest(`${origin}/api/v2/ping`, { ca });
      assert.equal(onNewConnection.status, 204);
      assert.equal(onNewConnection.reusedSocket, false);
      assert.equal(onNewConnection.fingerprint, second.fingerprint);
    } finally {
      keptAlive.destroy();
      serve(files, first.cert, first.key);
      reloadCertificate(running.app.server as https.Server, files);
    }
  });

  it('keeps the current certificate when a reload finds files it cannot use, and says why', async () => {
    serve(files, second.cert, first.key);
    const mismatched = reloadCertificate(running.app.server as https.Server, files);
    assert.equal(mismatched.reloaded, false);
    assert.match((mismatched as { reason: string }).reason, /cannot be used together/);

    const missing = reloadCertificate(running.app.server as https.Server, {
      ...files,
      keyFile: path.join(dir, 'absent.pem'),
    });
    assert.equal(missing.reloaded, false);
    assert.match(
      (missing as { reason: string }).reason,
      /cannot read the TLS private key \(VARSETD_TLS_KEY\) .*absent\.pem/,
    );

    const still = await httpsRequest(`${origin}/api/v2/ping`, { ca: [first.ca, second.ca] });
    assert.equal(still.status, 204);
    assert.equal(still.fingerprint, first.fingerprint);
    serve(files, first.cert, first.key);
  });
});

describe(`X-Forwarded-Proto and X-Forwarded-Host (${storeKind})`, () => {
  const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'varsetd.example.com' };

  /** The upload URL of a new configuration version, asked for from 127.0.0.1 (inject's address) with the forwarding headers. */
  async function uploadUrl(running: TestApp): Promise<string> {
    const headers = {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      'content-type': 'application/vnd.api+json',
      ...forwarded,
    };
    const name = `proxy-${Math.random().toString(36).slice(2, 10)}`;
    const post = async (url: string, body: unknown) => {
      const response = await running.app.inject({ method: 'POST', url, headers, payload: JSON.stringify(body) });
      const parsed = { status: response.statusCode, headers: response.headers, body: JSON.parse(response.body) };
      expectStatus(parsed, 201);
      return parsed.body;
    };
    await post('/api/v2/organizations', organizationBody(name));
    const workspace = await post(`/api/v2/organizations/${name}/workspaces`, {
      data: { type: 'workspaces', attributes: { name: 'ws' } },
    });
    const cv = await post(`/api/v2/workspaces/${workspace.data.id}/configuration-versions`, {
      data: { type: 'configuration-versions' },
    });
    return cv.data.attributes['upload-url'];
  }

  for (const [label, trustProxy, expected] of [
    ['ignores them unless told to trust a proxy', undefined, 'http://localhost:80/api/v2/uploads/'],
    [
      'ignores them from a peer outside the trusted addresses',
      ['10.0.0.0/8', '::1'],
      'http://localhost:80/api/v2/uploads/',
    ],
    ['builds upload URLs from them when every proxy is trusted', true, 'https://varsetd.example.com/api/v2/uploads/'],
    [
      'builds upload URLs from them when the peer is a trusted address',
      ['10.0.0.0/8', '127.0.0.1'],
      'https://varsetd.example.com/api/v2/uploads/',
    ],
  ] as const) {
    it(label, async () => {
      const running = await TestApp.start({
        publicUrl: undefined,
        ...(trustProxy === undefined ? {} : { trustProxy: trustProxy === true ? true : [...trustProxy] }),
      });
      try {
        const url = await uploadUrl(running);
        assert.ok(url.startsWith(expected), url);
      } finally {
        await running.close();
      }
    });
  }
});

describe('varsetd serve with a certificate', { concurrency: true }, () => {
  let dir: string;
  let first: Certificate;
  let second: Certificate;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-tls-serve-'));
    first = makeCertificate(path.join(dir, 'first'));
    second = makeCertificate(path.join(dir, 'second'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const refusals = [
    {
      label: 'a certificate that is not there',
      env: () => ({ VARSETD_TLS_CERT: path.join(dir, 'absent.pem'), VARSETD_TLS_KEY: path.join(dir, 'first/key.pem') }),
      code: 1,
      message: () =>
        `varsetd: failed to start: cannot read the TLS certificate (VARSETD_TLS_CERT) ${path.join(dir, 'absent.pem')}: ENOENT`,
    },
    {
      label: 'a key that is not PEM',
      env: () => ({
        VARSETD_TLS_CERT: path.join(dir, 'first/cert.pem'),
        VARSETD_TLS_KEY: path.join(ROOT, 'package.json'),
      }),
      code: 1,
      message: () =>
        `varsetd: failed to start: the TLS private key (VARSETD_TLS_KEY) ${path.join(ROOT, 'package.json')} is not a PEM file`,
    },
    {
      label: 'a certificate and a key that do not belong together',
      env: () => ({
        VARSETD_TLS_CERT: path.join(dir, 'first/cert.pem'),
        VARSETD_TLS_KEY: path.join(dir, 'second/key.pem'),
      }),
      code: 1,
      message: () =>
        `varsetd: failed to start: the TLS certificate ${path.join(dir, 'first/cert.pem')} and key ${path.join(dir, 'second/key.pem')} cannot be used together: `,
    },
    {
      label: 'a certificate without a key',
      env: () => ({ VARSETD_TLS_CERT: path.join(dir, 'first/cert.pem') }),
      code: 2,
      message: () =>
        'varsetd: VARSETD_TLS_CERT and VARSETD_TLS_KEY go together: set both to serve HTTPS, or neither to serve HTTP',
    },
  ];
  for (const refusal of refusals) {
    it(`refuses to start with ${refusal.label}, saying so before touching the store`, async () => {
      const dataDir = path.join(dir, `data-${Math.random().toString(36).slice(2)}`);
      // Should it start after all, it listens where nothing else does.
      const settings = { ...refusal.env(), VARSETD_ADMIN_TOKEN: ADMIN_TOKEN, HOST: '127.0.0.1', PORT: '0' };
      const { code, stdout, stderr } = await runVarsetd(
        ['serve'],
        varsetdEnv({ dataDir, databaseUrl: undefined }, settings),
      );
      assert.equal(code, refusal.code, stdout + stderr);
      assert.equal(stdout, '');
      assert.ok(stderr.startsWith(refusal.message()), stderr);
      assert.equal(fs.existsSync(dataDir), false, 'the data folder was created');
    });
  }

  it('reloads the certificate on SIGHUP, and keeps it when the new files cannot be used', async () => {
    const files = { certFile: path.join(dir, 'served-cert.pem'), keyFile: path.join(dir, 'served-key.pem') };
    serve(files, first.cert, first.key);
    const store = await createTestStore();
    try {
      // Two workers: the primary passes SIGHUP on to each of them.
      const server = await startServerProcess(
        varsetdEnv(store, {
          VARSETD_TLS_CERT: files.certFile,
          VARSETD_TLS_KEY: files.keyFile,
          VARSETD_ADMIN_TOKEN: ADMIN_TOKEN,
          VARSETD_WORKERS: '2',
        }),
      );
      try {
        assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
        const ca = [first.ca, second.ca];
        const ping = () => httpsRequest(`${server.url}/api/v2/ping`, { ca });
        const started = await ping();
        assert.equal(started.status, 204);
        assert.equal(started.fingerprint, first.fingerprint);

        serve(files, second.cert, second.key);
        server.sendSignal('SIGHUP');
        await eventually(
          'new connections did not get the new certificate',
          async () => ((await ping()).fingerprint === second.fingerprint ? true : undefined),
          server.output,
        );
        await eventually(
          'not every worker reloaded',
          async () => (logPids(server.output(), 'reloaded the TLS certificate').size === 2 ? true : undefined),
          server.output,
        );
        for (let i = 0; i < 6; i++) assert.equal((await ping()).fingerprint, second.fingerprint);

        serve(files, first.cert, second.key);
        server.sendSignal('SIGHUP');
        await eventually(
          'the failed reload was not logged by every worker',
          async () =>
            logPids(server.output(), 'kept the current TLS certificate: reloading it failed').size === 2
              ? true
              : undefined,
          server.output,
        );
        assert.match(server.output(), /cannot be used together/);
        const after = await ping();
        assert.equal(after.status, 204);
        assert.equal(after.fingerprint, second.fingerprint);
        assert.equal(server.isRunning(), true, 'varsetd exited');
      } finally {
        await server.stop();
      }
    } finally {
      await store.dispose();
    }
  });
});
