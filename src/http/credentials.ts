import type { FastifyRequest } from 'fastify';
import { CredentialsChanged } from '../common/errors.js';
import { unauthorized } from '../jsonapi/errors.js';
import { bearerToken } from './bearer.js';

/**
 * Answers a request of a `credentialsInRead` route. Its subject may have been kept without the
 * credentials version being read; the route's read then reads the version with what it reads
 * and, should it differ, throws `CredentialsChanged` before deciding or answering anything.
 * The subject is then read again, as any other route reads it, and the request answered anew.
 */
export async function withCredentialsInRead<T>(request: FastifyRequest, answer: () => Promise<T>): Promise<T> {
  try {
    return await answer();
  } catch (error) {
    if (!(error instanceof CredentialsChanged)) throw error;
    request.credentialsUnconfirmed = undefined;
    const secret = bearerToken(request.headers.authorization);
    const subject = secret === undefined ? null : await request.server.subjects.authenticate(secret);
    if (!subject) throw unauthorized();
    request.subject = subject;
    return answer();
  }
}
