/**
 * What the benchmark's bare processes (the floor, the least read) share: the configuration file
 * named on their command line, the bearer check varsetd makes, and a stop on SIGTERM or SIGINT.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const MEDIA_TYPE = 'application/vnd.api+json';
const UNAUTHORIZED = { errors: [{ status: '401', title: 'unauthorized' }] };

/** The configuration file given as the process's one argument, parsed; exits with a usage line without it. */
export function configFromArguments<T>(script: string): T {
  const file = process.argv[2];
  if (!file) {
    console.error(`usage: ${path.basename(script)} <config.json>`);
    process.exit(2);
  }
  return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
}

/** Sets the media type and answers 401 unless the request carries `Bearer <token>`; true when it may go on. */
export function admitted(token: string): (request: FastifyRequest, reply: FastifyReply) => boolean {
  const expected = `Bearer ${token}`;
  return (request, reply) => {
    reply.type(MEDIA_TYPE);
    if (request.headers.authorization === expected) return true;
    void reply.code(401).send(UNAUTHORIZED);
    return false;
  };
}

/** Runs `close` and exits on SIGTERM or SIGINT. */
export function stopOnSignals(close: () => Promise<unknown>): void {
  const stop = () => void close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
