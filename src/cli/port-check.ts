import net from 'node:net';

/**
 * Fails as listening on HOST:PORT would, before `serve` creates or migrates anything: a port in
 * use (EADDRINUSE) or forbidden (EACCES) is reported at once. The socket is closed again at once;
 * the server listens for good once the store is ready. Port 0 (any free port) needs no check.
 */
export async function checkPortIsFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen({ host, port, exclusive: true }, resolve);
  });
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}
