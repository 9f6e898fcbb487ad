/**
 * The floor of a scenario: a bare Fastify route, in its own process, that checks the same
 * bearer header as varsetd and answers with a pre-built JSON:API document of the size
 * varsetd answered with. Fastify serializes it on every request, as varsetd must.
 *
 *   node --import tsx bench/floor.ts <config.json>
 *   config: { port, token, responses: { <METHOD>: { status, body: <document or null> } } }
 */
import Fastify from 'fastify';
import { admitted, configFromArguments, MEDIA_TYPE, stopOnSignals } from './bare.js';

export interface FloorConfig {
  port: number;
  token: string;
  responses: Record<string, { status: number; body: unknown }>;
}

const config = configFromArguments<FloorConfig>('floor.ts');
const admit = admitted(config.token);

const app = Fastify({ logger: false });
app.addContentTypeParser([MEDIA_TYPE, 'application/json'], { parseAs: 'string' }, (_request, body, done) => {
  try {
    done(null, body === '' ? undefined : JSON.parse(body as string));
  } catch (error) {
    done(error as Error, undefined);
  }
});
app.all('/*', async (request, reply) => {
  if (!admit(request, reply)) return reply;
  const response = config.responses[request.method];
  if (!response) return reply.code(405).send({ errors: [{ status: '405', title: 'method not allowed' }] });
  reply.code(response.status);
  return response.body === null ? reply.send() : reply.send(response.body);
});

stopOnSignals(() => app.close());
await app.listen({ host: '127.0.0.1', port: config.port });
