import type { FastifySchemaValidationError } from 'fastify';
import { ApiError, badQueryParameter, invalidAttribute, notFound } from './errors.js';

/**
 * The JSON:API error for a request that its route's schema refused: a body problem is a 422
 * pointing at the offending member, a query problem a 400 naming the parameter, a path
 * parameter that cannot name anything a 404.
 */
export function validationError(errors: FastifySchemaValidationError[], part: string | undefined): ApiError {
  if (part === 'params') return notFound();
  const first = errors[0]!;
  if (part === 'querystring') {
    const parameter =
      decodePointer(first.instancePath).join('.') ||
      String(first.params.missingProperty ?? first.params.additionalProperty ?? '');
    if (first.keyword === 'additionalProperties')
      return badQueryParameter(parameter, `${parameter} is not a parameter this endpoint supports`);
    // Every parameter is declared a string: anything else is one given more than once.
    if (first.keyword === 'type' && first.params.type === 'string')
      return badQueryParameter(parameter, `${parameter} may be given only once`);
    return badQueryParameter(parameter, `${parameter} ${describe(first, errors) ?? first.message ?? 'is not valid'}`);
  }
  // A member that is missing, or that a closed object does not know, is pointed at itself.
  const missing = first.keyword === 'required' ? String(first.params.missingProperty) : undefined;
  const unknown = first.keyword === 'additionalProperties' ? String(first.params.additionalProperty) : undefined;
  const member = missing ?? unknown;
  const pointer = member === undefined ? first.instancePath : `${first.instancePath}/${escape(member)}`;
  if (pointer === '')
    return invalidAttribute('the request body must be a JSON:API document with a data member', '/data');
  const segments = decodePointer(pointer);
  const name = segments[segments.length - 1]!;
  const label = /^\d+$/.test(name) ? `element ${name} of ${segments[segments.length - 2]}` : name;
  if (missing !== undefined)
    return invalidAttribute(
      segments[segments.length - 2] === 'attributes' ? `${label} can't be blank` : `${label} is required`,
      pointer,
    );
  if (unknown !== undefined)
    return invalidAttribute(`${label} is not one of the members ${segments[segments.length - 2]} may have`, pointer);
  return invalidAttribute(`${label} ${describe(first, errors) ?? first.message ?? 'is not valid'}`, pointer);
}

/** What a value must be, in the words of the other errors varsetd answers. */
function describe(error: FastifySchemaValidationError, all: FastifySchemaValidationError[]): string | undefined {
  const params = error.params;
  switch (error.keyword) {
    case 'type':
      return TYPE_WORDS[String(params.type)] ?? `must be of type ${String(params.type)}`;
    case 'maxLength':
      return `is too long (maximum is ${String(params.limit)} characters)`;
    case 'minLength':
      return params.limit === 1 ? "can't be blank" : `is too short (minimum is ${String(params.limit)} characters)`;
    case 'maxItems':
      return `has too many elements (maximum is ${String(params.limit)})`;
    case 'pattern': {
      // The schema's description says what the pattern allows (AJV runs with `verbose`, so the error carries its schema).
      const description = (error as { parentSchema?: { description?: unknown } }).parentSchema?.description;
      return typeof description === 'string' ? `has an invalid format (${description})` : 'has an invalid format';
    }
    case 'const':
    case 'enum': {
      // A union of constants reports each one: name them all.
      const allowed = all
        .filter((e) => e.instancePath === error.instancePath && (e.keyword === 'const' || e.keyword === 'enum'))
        .flatMap((e) =>
          e.keyword === 'const'
            ? [(e.params as { allowedValue: unknown }).allowedValue]
            : ((e.params as { allowedValues?: unknown[] }).allowedValues ?? []),
        );
      return `must be ${allowed.map((v) => JSON.stringify(v)).join(' or ')}`;
    }
    default:
      return undefined;
  }
}

const TYPE_WORDS: Record<string, string> = {
  string: 'must be a string',
  boolean: 'must be true or false',
  object: 'must be an object',
  array: 'must be an array',
  integer: 'must be an integer',
  number: 'must be a number',
  null: 'must be null',
};

function decodePointer(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
