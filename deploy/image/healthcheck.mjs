// The health check of varsetd's image (deploy/image/varsetd.Containerfile): GET /readyz on this
// container's own PORT, over HTTPS when varsetd serves it itself. Exits 0 on a 200, 1 otherwise
// (503 while the store cannot answer or varsetd drains, no answer within 2 s, nothing listening).
// The certificate names the public host, not 127.0.0.1: the check does not verify it.
import http from 'node:http';
import https from 'node:https';

const client = process.env.VARSETD_TLS_CERT ? https : http;
const port = Number(process.env.PORT || 8080);
process.exitCode = 1;
const request = client.get(
  { host: '127.0.0.1', port, path: '/readyz', timeout: 2000, rejectUnauthorized: false },
  (response) => {
    response.resume();
    if (response.statusCode === 200) process.exitCode = 0;
    else console.error(`healthcheck: GET /readyz answered ${response.statusCode}`);
  },
);
request.on('timeout', () => request.destroy(new Error('GET /readyz: no answer within 2 s')));
request.on('error', (error) => console.error(`healthcheck: ${error.message}`));
