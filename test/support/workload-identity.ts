import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createPublicKey, verify } from 'node:crypto';
import path from 'node:path';
import { TestApp } from './app.js';
import { freePort, ROOT } from './processes.js';

/** Verifies a token's signature with the published key it names; returns its header and claims. */
export function decodeToken(token: string, jwks: { keys: any[] }) {
  const [header, claims, signature] = token.trim().split('.') as [string, string, string];
  const parsed = JSON.parse(Buffer.from(header, 'base64url').toString());
  const jwk = jwks.keys.find((k) => k.kid === parsed.kid);
  assert.ok(jwk, `the key ${parsed.kid} is published`);
  assert.ok(
    verify(
      'sha256',
      Buffer.from(`${header}.${claims}`),
      createPublicKey({ key: jwk, format: 'jwk' }),
      Buffer.from(signature, 'base64url'),
    ),
  );
  return { header: parsed, claims: JSON.parse(Buffer.from(claims, 'base64url').toString()) };
}

/** A server listening on 127.0.0.1 whose issuer is its own address, where relying parties find its documents. */
export async function startIssuer(
  tokenTtlMs: number,
  options: Parameters<typeof TestApp.start>[0] = {},
): Promise<{ t: TestApp; issuer: string }> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const t = await TestApp.start({
    ...options,
    publicUrl: undefined,
    workloadIdentity: { issuer, tokenTtlMs, runLifetimeMs: 3_600_000 },
  });
  await t.app.listen({ host: '127.0.0.1', port });
  return { t, issuer };
}

/** A token's claims, its signature checked against the key `issuer` publishes. */
export async function publishedClaims(issuer: string, token: string) {
  return decodeToken(token, await (await fetch(`${issuer}/.well-known/jwks`)).json()).claims;
}

/**
 * `varsetd exec --workspace WORKSPACE EXTRA -- COMMAND` from the sources, run in `cwd` against
 * `issuer` with `token` and nothing of this process's environment but PATH (and `env`).
 */
export function execWithIssuer(options: {
  issuer: string;
  token: string;
  cwd: string;
  workspace: string;
  extra?: string[];
  command: string[];
  env?: NodeJS.ProcessEnv;
}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { issuer, token, cwd, workspace, extra = [], command, env = {} } = options;
  const args = ['--import', import.meta.resolve('tsx'), path.join(ROOT, 'src/main.ts'), 'exec'];
  args.push('--workspace', workspace, ...extra, '--', ...command);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      env: { PATH: process.env.PATH, HOME: cwd, VARSETD_ADDRESS: issuer, VARSETD_TOKEN: token, ...env },
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += String(c)));
    child.stderr.on('data', (c) => (stderr += String(c)));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** What a command printed as JSON after `RESULT ` on a line of its own. */
export function resultLine(stdout: string): any {
  const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
  assert.ok(line, `no RESULT line in: ${stdout}`);
  return JSON.parse(line.slice('RESULT '.length));
}
