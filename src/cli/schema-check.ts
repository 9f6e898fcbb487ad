import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { validationError } from '../jsonapi/validation.js';
import { UsageError } from './store-command.js';

/**
 * Checks a body the command line builds against the schema its API route validates with, and
 * refuses it with the detail the API would answer (src/jsonapi/validation.ts): one rule, one
 * wording, whichever way the input came.
 */
export function checkBody(schema: TSchema, body: unknown): void {
  const errors = [...Value.Errors(schema, body)].map((error) => ({
    ...error,
    parentSchema: schemaAt(schema, error.schemaPath),
  }));
  if (errors.length === 0) return;
  throw new UsageError(validationError(errors, 'body').message);
}

/** The schema a JSON pointer (`#/properties/data/…`) names, as AJV's verbose errors carry it. */
function schemaAt(schema: TSchema, pointer: string): unknown {
  let at: unknown = schema;
  for (const segment of pointer.replace(/^#\/?/, '').split('/').filter(Boolean))
    at = (at as Record<string, unknown> | undefined)?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  return at;
}
