import fs from 'node:fs';
import tls from 'node:tls';

/** Where the PEM certificate (with any intermediates after it) and its private key are. */
export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

/** A certificate and its key, read and known to belong together. */
export interface TlsCredentials {
  cert: Buffer;
  key: Buffer;
}

export class CertificateError extends Error {}

/**
 * Reads both files and builds a TLS context from them, so that a missing file, something
 * other than PEM, or a key that does not belong to the certificate is refused here, with the
 * file named, rather than on the first connection.
 */
export function readCertificate(files: TlsFiles): TlsCredentials {
  const cert = readPem(files.certFile, 'certificate (VARSETD_TLS_CERT)');
  const key = readPem(files.keyFile, 'private key (VARSETD_TLS_KEY)');
  try {
    tls.createSecureContext({ cert, key });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CertificateError(
      `the TLS certificate ${files.certFile} and key ${files.keyFile} cannot be used together: ${reason}`,
    );
  }
  return { cert, key };
}

function readPem(file: string, what: string): Buffer {
  let content: Buffer;
  try {
    content = fs.readFileSync(file);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CertificateError(`cannot read the TLS ${what} ${file}: ${reason}`);
  }
  if (!content.includes('-----BEGIN ')) throw new CertificateError(`the TLS ${what} ${file} is not a PEM file`);
  return content;
}

export type ReloadResult = { reloaded: true } | { reloaded: false; reason: string };

/**
 * Reads the files again and gives new connections the certificate in them; open connections
 * keep theirs. When the files cannot be used, the server keeps its current certificate.
 */
export function reloadCertificate(server: tls.Server, files: TlsFiles): ReloadResult {
  let credentials: TlsCredentials;
  try {
    credentials = readCertificate(files);
  } catch (error) {
    return { reloaded: false, reason: error instanceof Error ? error.message : String(error) };
  }
  server.setSecureContext(credentials);
  return { reloaded: true };
}
