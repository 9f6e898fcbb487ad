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
  return found[0] === '\u0000'
    ? 'may not contain the NUL character (U+0000)'
    : 'may not contain a lone UTF-16 surrogate (not valid Unicode)';
}

/** A value still to look at, with how it was reached: its member name (or index) in its parent. */
interface Pending {
  value: unknown;
  parent: Pending | undefined;
  segment: string;
  /** The value of an object member, whose name is checked too. */
  member: boolean;
}

function pointerOf(pending: Pending): string {
  const segments: string[] = [];
  for (let at: Pending | undefined = pending; at.parent; at = at.parent) segments.push(at.segment);
  return segments
    .reverse()
    .map((segment) => `/${segment.replace(/~/g, '~0').replace(/\//g, '~1')}`)
    .join('');
}

/**
 * The JSON pointer of the first member (or member name) of `body` holding unsafe text, in
 * document order, with what is wrong. A loop over a stack of its own rather than recursion,
 * so that no depth of nesting can overflow the call stack.
 */
function findUnsafe(body: unknown): { pointer: string; detail: string } | undefined {
  const stack: Pending[] = [{ value: body, parent: undefined, segment: '', member: false }];
  while (stack.length > 0) {
    const pending = stack.pop()!;
    const { value } = pending;
    const wrongName = pending.member ? problem(pending.segment) : undefined;
    if (wrongName) return { pointer: pointerOf(pending), detail: `the member name ${wrongName}` };
    if (typeof value === 'string') {
      const wrong = problem(value);
      if (wrong) return { pointer: pointerOf(pending), detail: wrong };
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], parent: pending, segment: String(i), member: false });
    } else if (typeof value === 'object' && value !== null) {
      const members = Object.entries(value);
      for (let i = members.length - 1; i >= 0; i--)
        stack.push({ value: members[i]![1], parent: pending, segment: members[i]![0], member: true });
    }
  }
  return undefined;
}

/** Refuses a parsed JSON body holding unsafe text (422 with a pointer). */
export function assertSafeBody(body: unknown): void {
  const found = findUnsafe(body);
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
    for (const text of [name, ...(Array.isArray(value) ? (value as unknown[]) : [value])]) {
      const wrong = typeof text === 'string' ? problem(text) : undefined;
      if (wrong)
        throw badQueryParameter(
          problem(name) ? 'query' : name,
          `${problem(name) ? 'a parameter name' : name} ${wrong}`,
        );
    }
  }
}
