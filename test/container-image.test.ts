import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { TLSSocket } from 'node:tls';
import { ROOT, freePort } from './support/processes.js';

/**
 * The container images' files, without podman: the health check script against servers of its own,
 * and the agreement of the Containerfiles, the compose file and scripts/build-image.sh. The images
 * themselves are built and run by scripts/image-check.sh, a step of .ci/run.
 */
const IMAGE = path.join(ROOT, 'deploy', 'image');
const HEALTHCHECK = path.join(IMAGE, 'healthcheck.mjs');
const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');

function runHealthcheck(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string; ms: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, [HEALTHCHECK], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr, ms: Date.now() - started })));
}

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('the container image', () => {
  describe('its health check, deploy/image/healthcheck.mjs', () => {
    let answer: number | 'none' = 200;
    const paths: string[] = [];
    const handler: http.RequestListener = (request, response) => {
      paths.push(`${request.socket instanceof TLSSocket ? 'https' : 'http'} ${request.url ?? ''}`);
      if (answer !== 'none') response.writeHead(answer, { 'content-type': 'application/json' }).end('{}');
    };
    const plain = http.createServer(handler);
    let secure: https.Server;
    let certDir: string;
    let plainPort: number;
    let securePort: number;

    before(async () => {
      certDir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-image-cert-'));
      execFileSync('bash', [path.join(ROOT, 'scripts/make-test-certificate.sh'), certDir], { stdio: 'pipe' });
      secure = https.createServer(
        { cert: fs.readFileSync(path.join(certDir, 'cert.pem')), key: fs.readFileSync(path.join(certDir, 'key.pem')) },
        handler,
      );
      plainPort = await listen(plain);
      securePort = await listen(secure);
    });

    after(async () => {
      for (const server of [plain, secure]) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
      fs.rmSync(certDir, { recursive: true, force: true });
    });

    it('passes on a 200 from GET /readyz on 127.0.0.1 at PORT', async () => {
      answer = 200;
      paths.length = 0;
      const result = await runHealthcheck({ PORT: String(plainPort) });
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(paths, ['http /readyz']);
    });

    it('fails on a 503 (an outage, a drain) and says what it got', async () => {
      answer = 503;
      const result = await runHealthcheck({ PORT: String(plainPort) });
      assert.equal(result.code, 1);
      assert.match(result.stderr, /GET \/readyz answered 503/);
    });

    it('fails when nothing listens on PORT', async () => {
      const result = await runHealthcheck({ PORT: String(await freePort()) });
      assert.equal(result.code, 1);
      assert.match(result.stderr, /ECONNREFUSED/);
    });

    it('fails when no answer comes within 2 s, before the image allows the check 3 s', async () => {
      answer = 'none';
      const result = await runHealthcheck({ PORT: String(plainPort) });
      assert.equal(result.code, 1);
      assert.match(result.stderr, /no answer within 2 s/);
      assert.ok(result.ms < 3000, `the check took ${result.ms} ms`);
    });

    it('asks over HTTPS when varsetd serves it (VARSETD_TLS_CERT), whatever host the certificate names', async () => {
      answer = 200;
      paths.length = 0;
      const result = await runHealthcheck({
        PORT: String(securePort),
        VARSETD_TLS_CERT: path.join(certDir, 'cert.pem'),
      });
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(paths, ['https /readyz']);
    });
  });

  describe('its files agree', () => {
    const buildScript = read('scripts/build-image.sh');
    const varsetdFile = read('deploy/image/varsetd.Containerfile');
    const postgresFile = read('deploy/image/postgres.Containerfile');
    const compose = read('deploy/compose.yaml');

    it('both images run as the user build-image.sh names in their /etc/passwd, who owns their volume', () => {
      const uid = /^IMAGE_UID=(\d+)/m.exec(buildScript)?.[1];
      assert.ok(uid, 'build-image.sh sets IMAGE_UID');
      for (const file of [varsetdFile, postgresFile]) {
        assert.match(file, new RegExp(`^USER ${uid}:${uid}$`, 'm'));
        assert.match(file, new RegExp(`^COPY --chown=${uid}:${uid} volume/ /var/lib/$`, 'm'));
      }
    });

    it("varsetd's data folder is the image's volume", () => {
      const dataDir = /^ENV .*VARSETD_DATA_DIR=(\S+)/m.exec(varsetdFile)?.[1];
      assert.equal(dataDir, '/var/lib/varsetd');
      assert.match(varsetdFile, /^VOLUME \/var\/lib\/varsetd$/m);
      assert.match(compose, /^ {6}- varsetd:\/var\/lib\/varsetd$/m);
      assert.match(compose, /^ {6}- postgres:\/var\/lib\/postgresql\/data$/m);
    });

    it("the compose file's health checks run the images' own", () => {
      for (const [file, service] of [
        [varsetdFile, 'varsetd'],
        [postgresFile, 'postgres'],
      ] as const) {
        const command = JSON.parse(/^HEALTHCHECK .* CMD (\[.*\])$/m.exec(file)?.[1] ?? 'null') as string[] | null;
        assert.ok(command, `the ${service} image has a HEALTHCHECK`);
        const program = path.basename(command[0]!);
        const inCompose = new RegExp(`test: \\['CMD', '[^']*${program}'`);
        assert.match(compose, inCompose, `the compose file's check of ${service} runs ${program}`);
      }
      assert.ok(compose.includes(`test: ['CMD', '/usr/local/bin/node', '/app/healthcheck.mjs']`));
    });

    it("the compose file's default environment file is deploy/varsetd.env, and it publishes on 127.0.0.1 by default", () => {
      assert.match(compose, /env_file: \$\{VARSETD_ENV_FILE:-varsetd\.env\}/);
      assert.ok(fs.existsSync(path.join(ROOT, 'deploy', 'varsetd.env')));
      assert.match(compose, /- \$\{VARSETD_PUBLISH:-127\.0\.0\.1:8080\}:8080/);
    });
  });
});
