/**
 * The floor of a scenario: a bare Fastify route, in its own process, that checks the same
 * bearer header as varsetd and answers with a pre-built JSON:API document of the size
 * varsetd answered with. Fastify serializes it on every request, as varsetd must.
 *
 *   node --import tsx bench/floor.ts <config.json>
 *   config: { port, token, responses: { <METHOD>: { status, body: <document or null> } } }
 */
import fs from 'node:fs';
import Fastify from 'fastify';

export interface FloorConfig {
  port: number;
  token: string;
  responses: Record<string, { status: number; body: unknown }>;
}

const MEDIA_TYPE = 'application/vnd.api+json';
const UNAUTHORIZED = { errors: [{ status: '401', title: 'unauthorized' }] };

const file = process.argv[2];
if (!file) {
  console.error('usage: floor.ts <config.json>');
  process.exit(2);
}
const config = JSON.parse(fs.readFileSync(file, 'utf8')) as FloorConfig;
const expected = `Bearer ${config.token}`;

const app = Fastify({ logger: false });
app.addContentTypeParser([MEDIA_TYPE, 'application/json'], { parseAs: 'string' }, (_request, body, done) => {
  try {
    done(null, body === '' ? undefined : JSON.parse(body as string));
  } catch (error) {
    done(error as Error, undefined);
  }
});
app.all('/*', async (request, reply) => {
  reply.type(MEDIA_TYPE);
  if (request.headers.authorization !== expected) return reply.code(401).send(UNAUTHORIZED);
  const response = config.responses[request.method];
  if (!response) return reply.code(405).send({ errors: [{ status: '405', title: 'method not allowed' }] });
  reply.code(response.status);
  return response.body === null ? reply.send() : reply.send(response.body);
});

const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
await app.listen({ host: '127.0.0.1', port: config.port });
