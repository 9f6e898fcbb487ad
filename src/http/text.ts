import type { FastifyRequest } from 'fastify';
import { badQueryParameter, invalidAttribute, notFound } from '../jsonapi/errors.js';

/**
 * Text that no store keeps faithfully is refused before it reaches one: the NUL character
 * (PostgreSQL cannot store it in text) and lone UTF-16 surrogates (neither store can encode
 * them as UTF-8). A body member gets a 422 pointing at it, a query parameter a 400, a path
 * parameter the 404 of something that does not exist: the same answer on both stores.
 */
const UNSAFE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function problem(text: string): string | undefined {
  const found = UNSAFE.exec(text);
  if (!found) return undefined;
  return found[0] === '\u0000' ? 'may not contain the NUL character (U+0000)' : 'may not contain a lone UTF-16 surrogate (not valid Unicode)';
}

/** The JSON pointer of the first member (or member name) of `value` holding unsafe text, with what is wrong. */
function findUnsafe(value: unknown, pointer: string): { pointer: string; detail: string } | undefined {
  if (typeof value === 'string') {
    const wrong = problem(value);
    return wrong ? { pointer, detail: wrong } : undefined;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnsafe(value[i], `${pointer}/${i}`);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [name, member] of Object.entries(value)) {
      const at = `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      const wrongName = problem(name);
      if (wrongName) return { pointer: at, detail: `the member name ${wrongName}` };
      const found = findUnsafe(member, at);
      if (found) return found;
    }
  }
  return undefined;
}

/** Refuses a parsed JSON body holding unsafe text (422 with a pointer). */
export function assertSafeBody(body: unknown): void {
  const found = findUnsafe(body, '');
  if (!found) return;
  const name = found.pointer.split('/').pop() || 'the body';
  throw invalidAttribute(`${name} ${found.detail}`, found.pointer || '/data');
}

/** Refuses path parameters (404) and query parameters (400) holding unsafe text. */
export function assertSafeUrl(request: FastifyRequest): void {
  for (const value of Object.values((request.params ?? {}) as Record<string, unknown>)) {
    if (typeof value === 'string' && problem(value)) throw notFound();
  }
  for (const [name, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) {
    for (const text of [name, ...(Array.isArray(value) ? value : [value])]) {
      const wrong = typeof text === 'string' ? problem(text) : undefined;
      if (wrong) throw badQueryParameter(problem(name) ? 'query' : name, `${problem(name) ? 'a parameter name' : name} ${wrong}`);
    }
  }
}
