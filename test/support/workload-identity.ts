import assert from 'node:assert/strict';
import { createPublicKey, verify } from 'node:crypto';
import { TestApp } from './app.js';
import { freePort } from './processes.js';

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
