import { createHash, createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import type { JsonWebKeyPublic } from './model.js';

/** RS256 signing keys and JSON Web Tokens, with node:crypto alone. */

export interface NewSigningKey {
  publicJwk: JsonWebKeyPublic;
  /** PKCS #8 PEM. */
  privateKey: string;
}

export function generateSigningKey(): NewSigningKey {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
  const { n, e } = publicKey.export({ format: 'jwk' }) as { n: string; e: string };
  return {
    publicJwk: { kty: 'RSA', n, e, kid: thumbprint(n, e), alg: 'RS256', use: 'sig' },
    privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };
}

/** RFC 7638's thumbprint of an RSA key: its id, which can never name another key. */
function thumbprint(n: string, e: string): string {
  return createHash('sha256')
    .update(JSON.stringify({ e, kty: 'RSA', n }))
    .digest('base64url');
}

export function signJwt(privateKey: string, kid: string, claims: object): string {
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  const input = `${encode({ alg: 'RS256', typ: 'JWT', kid })}.${encode(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), createPrivateKey(privateKey)).toString('base64url')}`;
}
