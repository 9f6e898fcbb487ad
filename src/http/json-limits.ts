import { type ApiError, badRequest, invalidAttribute } from '../jsonapi/errors.js';
import {
  ARRAY_ELEMENTS_LIMIT,
  DEPTH_LIMIT,
  NAME_LENGTH_LIMIT,
  OBJECT_MEMBERS_LIMIT,
  STRING_LENGTH_LIMIT,
  VALUES_LIMIT,
} from './limits.js';

/** An open array or object: how many elements or members it has so far, and, for an object, where its last member name is. */
interface Level {
  object: boolean;
  count: number;
  nameStart: number;
  nameEnd: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LETTER_U = 0x75;

/** Characters that end a number or a literal (`true`, `false`, `null`): white space and JSON's punctuation. */
function endsScalar(code: number): boolean {
  return (
    code === 0x20 ||
    code === 0x0a ||
    code === 0x0d ||
    code === 0x09 ||
    code === 0x2c ||
    code === 0x3a ||
    code === 0x5b ||
    code === 0x5d ||
    code === 0x7b ||
    code === 0x7d ||
    code === QUOTE
  );
}

/** A member name as it appears in JSON text, decoded. */
function decodeName(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1); // not valid JSON: JSON.parse refuses the body anyway
  }
}

/**
 * Refuses JSON text that passes a limit of limits.ts, before it is parsed: one pass over the
 * text, left to right, with no recursion, so that no body, however deep or wide, can make a
 * later step (JSON.parse, the walk for unsafe text, schema validation, the services) overflow
 * the stack or take long. Nesting, member counts and member names are limits on the shape of
 * the document (400, as for malformed JSON); a string value is refused at its pointer (422),
 * as an attribute's own length limit is. Text that is not JSON is left to JSON.parse: the pass
 * does not check the grammar, and always ends.
 */
export function assertWithinLimits(text: string): void {
  const levels: Level[] = [];
  let values = 0;
  let expectName = false;
  // Where the next backslash is (Infinity: none until the end), found once for all the strings before it.
  let nextBackslash = -1;

  /** The index just past the string opening at `start`, and its length once its escapes are decoded. */
  function readString(start: number): { end: number; length: number } {
    const quote = text.indexOf('"', start + 1);
    if (quote === -1) return { end: text.length, length: 0 }; // never closed: not JSON, which JSON.parse says
    if (nextBackslash <= start) {
      const found = text.indexOf('\\', start + 1);
      nextBackslash = found === -1 ? Infinity : found;
    }
    if (nextBackslash > quote) return { end: quote + 1, length: quote - start - 1 };
    // Escapes (\", \\, \n, \u00e9, …), each standing for one UTF-16 code unit: one character at a time.
    let length = 0;
    for (let at = start + 1; at < text.length; at++, length++) {
      const code = text.charCodeAt(at);
      if (code === QUOTE) return { end: at + 1, length };
      if (code === BACKSLASH) at += text.charCodeAt(at + 1) === LETTER_U ? 5 : 1;
    }
    return { end: text.length, length: 0 };
  }

  function countValue(): void {
    if (++values > VALUES_LIMIT)
      throw badRequest(
        `the request body may hold at most ${VALUES_LIMIT} values (objects, arrays, strings, numbers, booleans and nulls)`,
      );
    const parent = levels[levels.length - 1];
    if (parent && !parent.object && ++parent.count > ARRAY_ELEMENTS_LIMIT)
      throw badRequest(`an array in the request body may have at most ${ARRAY_ELEMENTS_LIMIT} elements`);
  }

  /** The string value being read is too long: a 422 at its pointer (each open object's last member name, each open array's index being read). */
  function tooLong(): ApiError {
    const segments = levels.map((level) =>
      level.object ? decodeName(text.slice(level.nameStart, level.nameEnd)) : String(level.count - 1),
    );
    const pointer = segments.map((segment) => `/${segment.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
    const inArray = levels.length > 0 && !levels[levels.length - 1]!.object;
    const last = segments[segments.length - 1] ?? 'the body';
    const label = inArray ? `element ${last} of ${segments[segments.length - 2] ?? 'the body'}` : last;
    return invalidAttribute(
      `${label} is too long (a string in the request body may be at most ${STRING_LENGTH_LIMIT} characters)`,
      pointer,
    );
  }

  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09 || code === 0x3a) {
      i++;
    } else if (code === 0x2c) {
      expectName = levels[levels.length - 1]?.object === true;
      i++;
    } else if (code === 0x7d || code === 0x5d) {
      levels.pop();
      expectName = false;
      i++;
    } else if (code === QUOTE) {
      const { end, length } = readString(i);
      const parent = levels[levels.length - 1];
      if (expectName && parent) {
        if (length > NAME_LENGTH_LIMIT)
          throw badRequest(`a member name in the request body may be at most ${NAME_LENGTH_LIMIT} characters long`);
        if (++parent.count > OBJECT_MEMBERS_LIMIT)
          throw badRequest(`an object in the request body may have at most ${OBJECT_MEMBERS_LIMIT} members`);
        parent.nameStart = i;
        parent.nameEnd = end;
        expectName = false;
      } else {
        countValue();
        if (length > STRING_LENGTH_LIMIT) throw tooLong();
      }
      i = end;
    } else if (code === 0x7b || code === 0x5b) {
      countValue();
      levels.push({ object: code === 0x7b, count: 0, nameStart: 0, nameEnd: 0 });
      if (levels.length > DEPTH_LIMIT)
        throw badRequest(`arrays and objects in the request body may be nested at most ${DEPTH_LIMIT} deep`);
      expectName = code === 0x7b;
      i++;
    } else {
      countValue();
      i++;
      while (i < text.length && !endsScalar(text.charCodeAt(i))) i++;
    }
  }
}
